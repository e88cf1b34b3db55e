// Rules of Service (upstream ValidateService, ValidateServiceUpdate) that the schema cannot state:
// ports named and unique, node ports only where the type has them, cluster IPs that fit the type,
// external names, session affinity, traffic policies and the fields only load balancers take; on
// update, a cluster IP that stays as allocated unless the service turns into or out of ExternalName.
import { isIP } from 'node:net';
import type { Service, ServicePort } from '../../../api/core/v1/service.js';
import { duplicate, forbidden, invalid, notSupported, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateNonSpecialIP } from './endpoints-validation.js';
import { parseCidr } from '../networking/cidr.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateLabels } from '../validation/label-selector.js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortName, isValidPortNum } from '../validation/names.js';

const spec = Path.root('spec');

const maskTrailingDash = (name: string) => (name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name);

const maxClientIPTimeout = 86400;
const trafficDistributions = ['PreferClose', 'PreferSameZone', 'PreferSameNode'] as const;

function validatePort(port: ServicePort, requireName: boolean, type: string, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const name = port.name ?? '';
  if (requireName && name === '') errs.push(required(p.child('name')));
  else if (name !== '') for (const m of isDNS1123Label(name)) errs.push(invalid(p.child('name'), name, m));
  for (const m of isValidPortNum(port.port)) errs.push(invalid(p.child('port'), port.port, m));
  const target = port.targetPort;
  if (typeof target === 'number') {
    for (const m of isValidPortNum(target)) errs.push(invalid(p.child('targetPort'), target, m));
  } else if (typeof target === 'string') {
    for (const m of isValidPortName(target)) errs.push(invalid(p.child('targetPort'), target, m));
  }
  if (port.appProtocol !== undefined) for (const m of isQualifiedName(port.appProtocol)) errs.push(invalid(p.child('appProtocol'), port.appProtocol, m));
  const nodePort = port.nodePort ?? 0;
  if (nodePort !== 0) {
    if (type === 'ClusterIP' || type === 'ExternalName') errs.push(forbidden(p.child('nodePort'), `may not be used when \`type\` is '${type}'`));
    else for (const m of isValidPortNum(nodePort)) errs.push(invalid(p.child('nodePort'), nodePort, m));
  }
  return errs;
}

function validateClusterIPs(svc: Service): FieldError[] {
  const s = svc.spec ?? {};
  const errs: FieldError[] = [];
  const type = s.type ?? 'ClusterIP';
  const clusterIP = s.clusterIP ?? '';
  const clusterIPs = s.clusterIPs ?? [];
  if (clusterIPs.length > 0 && clusterIP !== clusterIPs[0]) {
    errs.push(invalid(spec.child('clusterIPs'), clusterIPs, 'first value must match `clusterIP`'));
    return errs;
  }
  if (type === 'ExternalName') {
    if (clusterIP !== '' || clusterIPs.length > 0) errs.push(forbidden(spec.child('clusterIPs'), 'may not be set for ExternalName services'));
    return errs;
  }
  const ips = clusterIPs.length > 0 ? clusterIPs : clusterIP ? [clusterIP] : [];
  ips.forEach((ip, i) => {
    const p = spec.child('clusterIPs').index(i);
    if (ip === 'None') {
      if (i > 0) errs.push(invalid(p, ip, "must be a valid IP address (e.g. 10.9.8.7 or 2001:db8::ffff)"));
      else if (type === 'NodePort' || type === 'LoadBalancer') errs.push(invalid(p, ip, `may not be set to 'None' for ${type} services`));
      return;
    }
    if (isIP(ip) === 0) errs.push(invalid(p, ip, 'must be a valid IP address (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  if (ips.length > 2) errs.push(invalid(spec.child('clusterIPs'), ips, 'may specify no more than one IP for each IP family'));
  else if (ips.length === 2 && ips[0] !== 'None' && isIP(ips[0]!) === isIP(ips[1]!)) {
    errs.push(invalid(spec.child('clusterIPs'), ips, 'may specify no more than one IP for each IP family'));
  }
  const families = s.ipFamilies ?? [];
  const seen = new Set<string>();
  families.forEach((f, i) => {
    const p = spec.child('ipFamilies').index(i);
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(notSupported(p, f, ['IPv4', 'IPv6']));
    else if (seen.has(f)) errs.push(duplicate(p, f));
    seen.add(f);
  });
  if (families.length > 2) errs.push(invalid(spec.child('ipFamilies'), families, 'may specify no more than one IP for each IP family'));
  if (s.ipFamilyPolicy === 'SingleStack' && (families.length > 1 || ips.filter((ip) => ip !== 'None').length > 1)) {
    errs.push(invalid(spec.child('ipFamilyPolicy'), s.ipFamilyPolicy, 'must be RequireDualStack or PreferDualStack when multiple IP families are specified'));
  }
  return errs;
}

function validateService(svc: Service): FieldError[] {
  const s = svc.spec ?? {};
  const errs: FieldError[] = [];
  const type = s.type ?? 'ClusterIP';
  const ports = s.ports ?? [];
  if (type !== 'ExternalName' && ports.length === 0) errs.push(required(spec.child('ports')));
  const names = new Set<string>();
  const keys = new Set<string>();
  const nodePorts = new Set<string>();
  ports.forEach((port, i) => {
    const p = spec.child('ports').index(i);
    errs.push(...validatePort(port, ports.length > 1, type, p));
    const name = port.name ?? '';
    if (name !== '') {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      names.add(name);
    }
    const key = `${port.port}/${port.protocol ?? 'TCP'}`;
    if (keys.has(key)) errs.push(duplicate(p, key));
    keys.add(key);
    if (port.nodePort) {
      const np = `${port.nodePort}/${port.protocol ?? 'TCP'}`;
      if (nodePorts.has(np)) errs.push(duplicate(p.child('nodePort'), port.nodePort));
      nodePorts.add(np);
    }
  });
  errs.push(...validateLabels(s.selector, spec.child('selector')));
  errs.push(...validateClusterIPs(svc));
  if (type === 'ExternalName') {
    const cname = (s.externalName ?? '').replace(/\.$/, '');
    if (cname === '') errs.push(required(spec.child('externalName')));
    else for (const m of isDNS1123Subdomain(cname)) errs.push(invalid(spec.child('externalName'), cname, m));
  }
  (s.externalIPs ?? []).forEach((ip, i) => errs.push(...validateNonSpecialIP(ip, spec.child('externalIPs').index(i))));
  // Session affinity.
  if (s.sessionAffinity === 'ClientIP') {
    const timeout = s.sessionAffinityConfig?.clientIP?.timeoutSeconds;
    if (timeout === undefined) errs.push(required(spec.child('sessionAffinityConfig', 'clientIP', 'timeoutSeconds')));
    else if (timeout <= 0 || timeout > maxClientIPTimeout) {
      errs.push(invalid(spec.child('sessionAffinityConfig', 'clientIP', 'timeoutSeconds'), timeout, `must be greater than 0 and less than ${maxClientIPTimeout}`));
    }
  } else if (s.sessionAffinityConfig !== undefined) {
    errs.push(forbidden(spec.child('sessionAffinityConfig'), `must not be set when session affinity is ${s.sessionAffinity ?? 'None'}`));
  }
  // What only load balancers take.
  const lbOnly = "may only be used when `type` is 'LoadBalancer'";
  if (type !== 'LoadBalancer') {
    if ((s.loadBalancerSourceRanges ?? []).length > 0) errs.push(forbidden(spec.child('loadBalancerSourceRanges'), lbOnly));
    if (s.allocateLoadBalancerNodePorts !== undefined) errs.push(forbidden(spec.child('allocateLoadBalancerNodePorts'), lbOnly));
    if (s.loadBalancerClass !== undefined) errs.push(forbidden(spec.child('loadBalancerClass'), lbOnly));
  } else {
    if (s.allocateLoadBalancerNodePorts === undefined) errs.push(required(spec.child('allocateLoadBalancerNodePorts')));
    if (s.loadBalancerClass !== undefined) for (const m of isQualifiedName(s.loadBalancerClass)) errs.push(invalid(spec.child('loadBalancerClass'), s.loadBalancerClass, m));
    (s.loadBalancerSourceRanges ?? []).forEach((r, i) => {
      if (!parseCidr(r.trim())) errs.push(invalid(spec.child('loadBalancerSourceRanges').index(i), r, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
    });
  }
  // Traffic policies.
  const externallyAccessible = type === 'NodePort' || type === 'LoadBalancer' || (type === 'ClusterIP' && (s.externalIPs ?? []).length > 0);
  if (!externallyAccessible && s.externalTrafficPolicy) {
    errs.push(invalid(spec.child('externalTrafficPolicy'), s.externalTrafficPolicy, 'may only be set for externally-accessible services'));
  } else if ((type === 'NodePort' || type === 'LoadBalancer') && !s.externalTrafficPolicy) {
    errs.push(required(spec.child('externalTrafficPolicy')));
  }
  const hc = s.healthCheckNodePort ?? 0;
  if (hc !== 0) {
    if (type !== 'LoadBalancer' || s.externalTrafficPolicy !== 'Local') {
      errs.push(invalid(spec.child('healthCheckNodePort'), hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
    } else for (const m of isValidPortNum(hc)) errs.push(invalid(spec.child('healthCheckNodePort'), hc, m));
  }
  if (type !== 'ExternalName' && s.internalTrafficPolicy === undefined) errs.push(required(spec.child('internalTrafficPolicy')));
  if (s.trafficDistribution !== undefined && !(trafficDistributions as readonly string[]).includes(s.trafficDistribution)) {
    errs.push(notSupported(spec.child('trafficDistribution'), s.trafficDistribution, trafficDistributions));
  }
  return errs;
}

const clusterIPsOf = (svc: Service) => svc.spec?.clusterIPs ?? (svc.spec?.clusterIP ? [svc.spec.clusterIP] : []);

function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  const errs = validateService(svc);
  const oldType = old.spec?.type ?? 'ClusterIP';
  const type = svc.spec?.type ?? 'ClusterIP';
  if (oldType !== 'ExternalName' && type !== 'ExternalName') {
    const before = clusterIPsOf(old);
    const now = clusterIPsOf(svc);
    // Only the primary family is immutable: a second one may be added or dropped with the policy.
    if (before.length > 0 && before[0] !== now[0]) errs.push(invalid(spec.child('clusterIPs').index(0), now, 'may not change once set'));
  }
  const oldClass = old.spec?.loadBalancerClass;
  if (oldType === 'LoadBalancer' && type === 'LoadBalancer' && oldClass !== svc.spec?.loadBalancerClass) {
    errs.push(invalid(spec.child('loadBalancerClass'), svc.spec?.loadBalancerClass ?? null, 'may not change once set'));
  }
  return errs;
}

/** Status updates check the load balancer ingress addresses, as upstream's ValidateLoadBalancerStatus. */
function validateServiceStatusUpdate(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  const path = Path.root('status').child('loadBalancer', 'ingress');
  (svc.status?.loadBalancer?.ingress ?? []).forEach((ing, i) => {
    const p = path.index(i);
    if (ing.ip && isIP(ing.ip) === 0) errs.push(invalid(p.child('ip'), ing.ip, 'must be a valid IP address'));
    if (ing.ipMode !== undefined && !ing.ip) errs.push(forbidden(p.child('ipMode'), 'may not be specified when `ip` is not set'));
    if (ing.hostname) {
      for (const m of isDNS1123Subdomain(ing.hostname)) errs.push(invalid(p.child('hostname'), ing.hostname, m));
      if (isIP(ing.hostname) !== 0) errs.push(invalid(p.child('hostname'), ing.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

export const serviceValidation: KindValidation<Service> = {
  name: (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name),
  validate: validateService,
  validateUpdate: validateServiceUpdate,
  validateStatusUpdate: validateServiceStatusUpdate,
};
