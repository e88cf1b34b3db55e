// Rules of Ingress and IngressClass (upstream ValidateIngressCreate/Update, ValidateIngressStatusUpdate,
// ValidateIngressClass and ValidateIngressClassUpdate).
import { isIP } from 'node:net';
import type { ApiDomain } from '../../../api/domain.js';
import type { Ingress, IngressSpec } from '../../../api/networking/v1/ingress.js';
import type { IngressClass } from '../../../api/networking/v1/ingress-class.js';
import { forbidden, invalid, Path, required, tooLong, type FieldError } from '../../runtime/field-errors.js';
import { validateDomainPrefixedPath } from '../validation/domain-prefixed-path.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import {
  isDNS1035Label,
  DNS1123SubdomainMaxLength, isDNS1123Label, isDNS1123Subdomain, isPathSegmentName, isValidPortName, isValidPortNum, nameIsDNSSubdomain,
} from '../validation/names.js';

type Backend = NonNullable<IngressSpec['defaultBackend']>;
type TypedRef = { apiGroup?: string | null; kind: string; name: string };

const wildcardFmt = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const wildcardRe = new RegExp(`^${wildcardFmt}$`);
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];
const maxControllerLength = 250;

/** Upstream IsWildcardDNS1123Subdomain: `*.` then a DNS subdomain. */
function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123SubdomainMaxLength) errs.push(`must be no more than ${DNS1123SubdomainMaxLength} characters`);
  if (!wildcardRe.test(value)) {
    errs.push(`a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '${wildcardFmt}')`);
  }
  return errs;
}

function hostErrors(host: string): string[] {
  return host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
}

function validateTypedRef(ref: TypedRef, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (ref.apiGroup !== undefined && ref.apiGroup !== null) {
    for (const m of isDNS1123Subdomain(ref.apiGroup)) errs.push(invalid(path.child('apiGroup'), ref.apiGroup, m));
  }
  if (!ref.kind) errs.push(required(path.child('kind'), 'kind is required'));
  else for (const m of isPathSegmentName(ref.kind)) errs.push(invalid(path.child('kind'), ref.kind, m));
  if (!ref.name) errs.push(required(path.child('name'), 'name is required'));
  else for (const m of isPathSegmentName(ref.name)) errs.push(invalid(path.child('name'), ref.name, m));
  return errs;
}

function validateBackend(backend: Backend, path: Path): FieldError[] {
  const hasResource = backend.resource !== undefined && backend.resource !== null;
  const hasService = backend.service !== undefined && backend.service !== null;
  if (hasResource && hasService) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (hasResource) return validateTypedRef(backend.resource!, path.child('resource'));
  if (!hasService) return [invalid(path, '', 'resource or service backend is required')];
  const service = backend.service!;
  const errs: FieldError[] = [];
  const namePath = path.child('service', 'name');
  if (!service.name) errs.push(required(namePath, ''));
  else for (const m of isDNS1035Label(service.name)) errs.push(invalid(namePath, service.name, m));
  const portName = service.port?.name ?? '';
  const portNumber = service.port?.number ?? 0;
  if (portName !== '' && portNumber !== 0) {
    errs.push(invalid(path, '', 'cannot set both port name & port number'));
  } else if (portName !== '') {
    for (const m of isValidPortName(portName)) errs.push(invalid(path.child('service', 'port', 'name'), portName, m));
  } else if (portNumber !== 0) {
    for (const m of isValidPortNum(portNumber)) errs.push(invalid(path.child('service', 'port', 'number'), portNumber, m));
  } else {
    errs.push(required(path, 'port name or number is required'));
  }
  return errs;
}

type HttpPath = NonNullable<NonNullable<NonNullable<IngressSpec['rules']>[number]['http']>['paths']>[number];

function validatePath(p: HttpPath, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const value = p.path ?? '';
  const pp = path.child('path');
  // A missing pathType is reported by the schema (required), and upstream checks nothing else then.
  if (p.pathType === undefined || p.pathType === null) return [];
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(invalid(pp, value, 'must be an absolute path'));
      if (value.length > 0) {
        for (const seq of invalidPathSequences) if (value.includes(seq)) errs.push(invalid(pp, value, `must not contain '${seq}'`));
        for (const suffix of invalidPathSuffixes) if (value.endsWith(suffix)) errs.push(invalid(pp, value, `cannot end with '${suffix}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value.length > 0 && !value.startsWith('/')) errs.push(invalid(pp, value, 'must be an absolute path'));
      break;
    default: // an unknown type is reported by the schema
  }
  errs.push(...validateBackend(p.backend ?? {}, path.child('backend')));
  return errs;
}

function validateSpec(spec: IngressSpec, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const rules = spec.rules ?? [];
  if (rules.length === 0 && !spec.defaultBackend) {
    errs.push(invalid(path, spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, path.child('defaultBackend')));
  rules.forEach((rule, i) => {
    const rp = path.child('rules').index(i);
    const host = rule.host ?? '';
    if (host.length > 0) {
      if (isIP(host) !== 0) errs.push(invalid(rp.child('host'), host, 'must be a DNS name, not an IP address'));
      for (const m of hostErrors(host)) errs.push(invalid(rp.child('host'), host, m));
    }
    if (rule.http) {
      const hp = rp.child('http');
      const paths = rule.http.paths ?? [];
      if (paths.length === 0) errs.push(required(hp.child('paths'), ''));
      paths.forEach((p, j) => errs.push(...validatePath(p, hp.child('paths').index(j))));
    }
  });
  (spec.tls ?? []).forEach((tls, i) => {
    const tp = path.child('tls').index(i);
    (tls.hosts ?? []).forEach((host, j) => {
      for (const m of hostErrors(host)) errs.push(invalid(tp.child('hosts').index(j), host, m));
    });
    if (tls.secretName) for (const m of isDNS1123Subdomain(tls.secretName)) errs.push(invalid(tp.child('secretName'), tls.secretName, m));
  });
  if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) {
    for (const m of isDNS1123Subdomain(spec.ingressClassName)) errs.push(invalid(path.child('ingressClassName'), spec.ingressClassName, m));
  }
  return errs;
}

function validateIngress(ing: Ingress, classAnnotation: string): FieldError[] {
  const errs = validateSpec(ing.spec ?? {}, Path.root('spec'));
  if (ing.spec?.ingressClassName && ing.metadata?.annotations?.[classAnnotation] !== undefined) {
    errs.push(invalid(Path.root('annotations').child(classAnnotation), ing.metadata.annotations[classAnnotation],
      'can not be set when the class field is also set'));
  }
  return errs;
}

function validateIngressStatus(ing: Ingress): FieldError[] {
  const errs: FieldError[] = [];
  const path = Path.root('status').child('loadBalancer', 'ingress');
  (ing.status?.loadBalancer?.ingress ?? []).forEach((entry, i) => {
    const p = path.index(i);
    if (entry.ip && isIP(entry.ip) === 0) errs.push(invalid(p.child('ip'), entry.ip, 'must be a valid IP address'));
    if (entry.hostname) {
      for (const m of isDNS1123Subdomain(entry.hostname)) errs.push(invalid(p.child('hostname'), entry.hostname, m));
      if (isIP(entry.hostname) !== 0) errs.push(invalid(p.child('hostname'), entry.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

/** Ingress rules; the legacy class annotation is spelled in the platform's domain. */
export const ingressValidation = (domain: ApiDomain): KindValidation<Ingress> => {
  const classAnnotation = domain.key('ingress.class');
  return {
    name: nameIsDNSSubdomain,
    validate: (ing) => validateIngress(ing, classAnnotation),
    validateUpdate: (ing) => validateSpec(ing.spec ?? {}, Path.root('spec')),
    validateStatusUpdate: validateIngressStatus,
  };
};

function validateIngressClassSpec(ic: IngressClass): FieldError[] {
  const spec = ic.spec ?? {};
  const path = Path.root('spec');
  const errs: FieldError[] = [];
  const controller = spec.controller ?? '';
  if (controller.length > maxControllerLength) errs.push(tooLong(path.child('controller'), controller, maxControllerLength));
  errs.push(...validateDomainPrefixedPath(controller, path.child('controller')));
  const params = spec.parameters;
  if (params) {
    const pp = path.child('parameters');
    errs.push(...validateTypedRef(params, pp));
    const scope = params.scope;
    if (scope === undefined || scope === null) {
      errs.push(required(pp.child('scope'), ''));
    } else if (scope === 'Namespace') {
      if (params.namespace === undefined || params.namespace === null) {
        errs.push(required(pp.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
      } else {
        for (const m of isDNS1123Label(params.namespace)) errs.push(invalid(pp.child('namespace'), params.namespace, m));
      }
    } else if (scope === 'Cluster') {
      if (params.namespace !== undefined && params.namespace !== null) {
        errs.push(forbidden(pp.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
      }
    }
  }
  return errs;
}

/** IngressClass rules: the controller cannot change. */
export const ingressClassValidation: KindValidation<IngressClass> = {
  name: nameIsDNSSubdomain,
  validate: validateIngressClassSpec,
  validateUpdate: (ic, old) => [
    ...validateImmutableField(ic.spec?.controller, old.spec?.controller, Path.root('spec').child('controller')),
    ...validateIngressClassSpec(ic),
  ],
};
