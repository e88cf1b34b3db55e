// Validation of one container of a pod template (regular or init), following upstream's
// validateContainerCommon and the probe, lifecycle, resource and security context rules.
import { isIP } from 'node:net';
import type { Container, ContainerPort, VolumeDevice, VolumeMount } from '../../../api/core/v1/container.js';
import type { EnvFromSource, EnvVar } from '../../../api/core/v1/env.js';
import type { ExecAction, GRPCAction, HTTPGetAction, Lifecycle, Probe, SleepAction, TCPSocketAction } from '../../../api/core/v1/probe.js';
import type { ResourceRequirements } from '../../../api/core/v1/resource-requirements.js';
import type { AppArmorProfile, SeccompProfile, SecurityContext } from '../../../api/core/v1/security-context.js';
import {
  duplicate, forbidden, invalid, notFound, notSupported, required, tooLong, type FieldError, type Path,
} from '../../runtime/field-errors.js';
import { parseQuantity } from '../../runtime/quantity.js';
import {
  isDNS1123Label, isDNS1123Subdomain, isValidPortName, isValidPortNum, nameIsDNSSubdomain,
} from '../validation/names.js';
import { isConfigMapKey } from './config-key.js';
import {
  isHugePageResourceName, type ResourceNames,
} from './resource-names.js';
import {
  inclusiveRangeError, lookupVolume, validateLocalDescendingPath, validateObjectFieldSelector, validatePathNoBacksteps,
  validateResourceFieldSelector, type MountableVolumes,
} from './volume-validation.js';

export const isNegativeErrorMsg = 'must be greater than or equal to 0';
const isNotIntegerErrorMsg = 'must be an integer';

/** Upstream's RegexError: the message, examples and the regex used. */
function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${re}')`;
}

/** The context a container is validated in. */
export interface ContainerContext {
  volumes: MountableVolumes;
  /** Names of pod.spec.resourceClaims. */
  podClaimNames: ReadonlySet<string>;
  podRestartPolicy: string;
  /** The pod's terminationGracePeriodSeconds, bounding sleep actions. */
  gracePeriod: number | undefined;
  /** spec.hostUsers, true unless set to false. */
  hostUsers: boolean;
  resourceNames: ResourceNames;
  /** --allow-privileged */
  allowPrivileged: boolean;
}

/** The rules common to regular and init containers. */
export function validateContainerCommon(c: Container, path: Path, ctx: ContainerContext): FieldError[] {
  const errs: FieldError[] = [];
  const namePath = path.child('name');
  if (!c.name) errs.push(required(namePath, ''));
  else for (const m of isDNS1123Label(c.name)) errs.push(invalid(namePath, c.name, m));
  if (!c.image) errs.push(required(path.child('image'), ''));

  const tmp: string | undefined = c.terminationMessagePolicy;
  if (!tmp) errs.push(required(path.child('terminationMessagePolicy'), ''));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') {
    errs.push(notSupported(path.child('terminationMessagePolicy'), tmp, ['File', 'FallbackToLogsOnError']));
  }

  errs.push(...validateContainerPorts(c.ports ?? [], path.child('ports')));
  errs.push(...validateEnv(c.env ?? [], path.child('env')));
  errs.push(...validateEnvFrom(c.envFrom ?? [], path.child('envFrom')));
  errs.push(...validateVolumeMounts(c, ctx.volumes, path.child('volumeMounts')));
  errs.push(...validateVolumeDevices(c, ctx.volumes, path.child('volumeDevices')));
  errs.push(...validatePullPolicy(c.imagePullPolicy, path.child('imagePullPolicy')));
  errs.push(...validateResourceRequirements(c.resources ?? {}, ctx.podClaimNames, path.child('resources'), ctx.resourceNames));
  errs.push(...validateResizePolicy(c, ctx.podRestartPolicy, path.child('resizePolicy')));
  errs.push(...validateSecurityContext(c.securityContext, path.child('securityContext'), ctx));
  return errs;
}

const protocols = ['SCTP', 'TCP', 'UDP'];

function validateContainerPorts(ports: ContainerPort[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const idx = path.index(i);
    if (port.name) {
      const msgs = isValidPortName(port.name);
      for (const m of msgs) errs.push(invalid(idx.child('name'), port.name, m));
      if (msgs.length === 0) {
        if (names.has(port.name)) errs.push(duplicate(idx.child('name'), port.name));
        else names.add(port.name);
      }
    }
    if (!port.containerPort) errs.push(required(idx.child('containerPort'), ''));
    else for (const m of isValidPortNum(port.containerPort)) errs.push(invalid(idx.child('containerPort'), port.containerPort, m));
    if (port.hostPort) for (const m of isValidPortNum(port.hostPort)) errs.push(invalid(idx.child('hostPort'), port.hostPort, m));
    const protocol: string | undefined = port.protocol;
    if (!protocol) errs.push(required(idx.child('protocol'), ''));
    else if (!protocols.includes(protocol)) errs.push(notSupported(idx.child('protocol'), protocol, protocols));
    if (port.hostIP && isIP(port.hostIP) === 0) {
      errs.push(invalid(idx.child('hostIP'), port.hostIP, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    }
  });
  return errs;
}

/** Host ports (protocol/IP/port) may be used once among the given containers. */
export function checkHostPortConflicts(containers: Container[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((p, pi) => {
      if (!p.hostPort) return;
      const key = `${p.protocol ?? ''}/${p.hostIP ?? ''}/${p.hostPort}`;
      if (seen.has(key)) errs.push(duplicate(path.index(ci).child('ports').index(pi).child('hostPort'), key));
      else seen.add(key);
    });
  });
  return errs;
}

const relaxedEnvVarNameMsg = "a valid environment variable name must consist only of printable ASCII characters other than '='";

/** Environment variable names (and envFrom prefixes): printable ASCII except '='. */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push('environment variable name must be non-empty');
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || value[i] === '=') {
      errs.push(relaxedEnvVarNameMsg);
      break;
    }
  }
  return errs;
}

const envFieldPaths = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName',
  'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs',
];

function validateEnv(vars: EnvVar[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  vars.forEach((ev, i) => {
    const idx = path.index(i);
    if (!ev.name) errs.push(required(idx.child('name'), ''));
    else for (const m of isRelaxedEnvVarName(ev.name)) errs.push(invalid(idx.child('name'), ev.name, m));
    errs.push(...validateEnvVarValueFrom(ev, idx.child('valueFrom')));
  });
  return errs;
}

function validateEnvVarValueFrom(ev: EnvVar, path: Path): FieldError[] {
  const from = ev.valueFrom;
  if (!from) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  if (from.fieldRef) {
    sources++;
    errs.push(...validateObjectFieldSelector(from.fieldRef, envFieldPaths, path.child('fieldRef')));
  }
  if (from.resourceFieldRef) {
    sources++;
    errs.push(...validateResourceFieldSelector(from.resourceFieldRef, path.child('resourceFieldRef'), false));
  }
  for (const kind of ['configMapKeyRef', 'secretKeyRef'] as const) {
    const sel = from[kind];
    if (!sel) continue;
    sources++;
    const sp = path.child(kind);
    for (const m of isDNS1123Subdomain(sel.name ?? '')) errs.push(invalid(sp.child('name'), sel.name ?? '', m));
    if (!sel.key) errs.push(required(sp.child('key'), ''));
    else for (const m of isConfigMapKey(sel.key)) errs.push(invalid(sp.child('key'), sel.key, m));
  }
  if (from.fileKeyRef) sources++;
  if (sources === 0) {
    errs.push(invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  } else if (ev.value) {
    errs.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  } else if (sources > 1) {
    errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}

function validateEnvFrom(sources: EnvFromSource[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  sources.forEach((ev, i) => {
    const idx = path.index(i);
    if (ev.prefix) for (const m of isRelaxedEnvVarName(ev.prefix)) errs.push(invalid(idx.child('prefix'), ev.prefix, m));
    let count = 0;
    for (const kind of ['configMapRef', 'secretRef'] as const) {
      const ref = ev[kind];
      if (!ref) continue;
      count++;
      const np = idx.child(kind, 'name');
      if (!ref.name) errs.push(required(np, ''));
      else for (const m of nameIsDNSSubdomain(ref.name, true)) errs.push(invalid(np, ref.name, m));
    }
    // Upstream reports these at the list, not the item.
    if (count === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

const mountPropagations = ['Bidirectional', 'HostToContainer', 'None'];
const recursiveReadOnlyModes = ['Disabled', 'Enabled', 'IfPossible'];

function validateVolumeMounts(c: Container, vols: MountableVolumes, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const devices: VolumeDevice[] = c.volumeDevices ?? [];
  const mountPaths = new Set<string>();
  (c.volumeMounts ?? []).forEach((m: VolumeMount, i) => {
    const idx = path.index(i);
    if (!m.name) errs.push(required(idx.child('name'), ''));
    if (!lookupVolume(vols, m.name).found) errs.push(notFound(idx.child('name'), m.name));
    if (!m.mountPath) errs.push(required(idx.child('mountPath'), ''));
    if (mountPaths.has(m.mountPath)) errs.push(invalid(idx.child('mountPath'), m.mountPath, 'must be unique'));
    mountPaths.add(m.mountPath);
    if (devices.some((d) => d.name === m.name)) errs.push(invalid(idx.child('name'), m.name, 'must not already exist in volumeDevices'));
    if (devices.some((d) => d.devicePath === m.mountPath)) {
      errs.push(invalid(idx.child('mountPath'), m.mountPath, 'must not already exist as a path in volumeDevices'));
    }
    if (vols.volumes.get(m.name)?.image) {
      if (m.subPath) errs.push(invalid(idx.child('subPath'), m.subPath, 'not allowed in image volume sources'));
      if (m.subPathExpr) errs.push(invalid(idx.child('subPathExpr'), m.subPathExpr, 'not allowed in image volume sources'));
    }
    // Upstream reports the following at the list's path, not the item's.
    if (m.subPath) errs.push(...validateLocalDescendingPath(m.subPath, path.child('subPath')));
    if (m.subPathExpr) {
      if (m.subPath) errs.push(invalid(idx.child('subPathExpr'), m.subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(m.subPathExpr, path.child('subPathExpr')));
    }
    const propagation: string | undefined = m.mountPropagation;
    if (propagation !== undefined) {
      const pp = path.child('mountPropagation');
      if (!mountPropagations.includes(propagation)) errs.push(notSupported(pp, propagation, mountPropagations));
      if (propagation === 'Bidirectional' && c.securityContext?.privileged !== true) {
        errs.push(forbidden(pp, 'Bidirectional mount propagation is available only to privileged containers'));
      }
    }
    const rro: string | undefined = m.recursiveReadOnly;
    if (rro !== undefined && rro !== 'Disabled') {
      const rp = path.child('recursiveReadOnly');
      if (rro === 'Enabled' || rro === 'IfPossible') {
        if (!m.readOnly) errs.push(forbidden(rp, 'may only be specified when readOnly is true'));
        if (propagation !== undefined && propagation !== 'None') {
          errs.push(forbidden(rp, 'may only be specified when mountPropagation is None or not specified'));
        }
      } else errs.push(notSupported(rp, rro, recursiveReadOnlyModes));
    }
  });
  return errs;
}

function validateVolumeDevices(c: Container, vols: MountableVolumes, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const mounts: VolumeMount[] = c.volumeMounts ?? [];
  const devicePaths = new Set<string>();
  const deviceNames = new Set<string>();
  (c.volumeDevices ?? []).forEach((d, i) => {
    const idx = path.index(i);
    const { found, claim } = lookupVolume(vols, d.name);
    if (!d.name) errs.push(required(idx.child('name'), ''));
    if (deviceNames.has(d.name)) errs.push(invalid(idx.child('name'), d.name, 'must be unique'));
    if (found && !claim) {
      errs.push(invalid(idx.child('name'), d.name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (!found) errs.push(notFound(idx.child('name'), d.name));
    if (!d.devicePath) errs.push(required(idx.child('devicePath'), ''));
    if (devicePaths.has(d.devicePath)) errs.push(invalid(idx.child('devicePath'), d.devicePath, 'must be unique'));
    if (d.devicePath && validatePathNoBacksteps(d.devicePath, path).length > 0) {
      errs.push(invalid(idx.child('devicePath'), d.devicePath, "can not contain backsteps ('..')"));
    } else devicePaths.add(d.devicePath);
    if (mounts.some((m) => m.name === d.name)) errs.push(invalid(idx.child('name'), d.name, 'must not already exist in volumeMounts'));
    if (mounts.some((m) => m.mountPath === d.devicePath)) {
      errs.push(invalid(idx.child('devicePath'), d.devicePath, 'must not already exist as a path in volumeMounts'));
    }
    if (d.name) deviceNames.add(d.name);
  });
  return errs;
}

function validatePullPolicy(policy: string | undefined, path: Path): FieldError[] {
  if (!policy) return [required(path, '')];
  const supported = ['Always', 'IfNotPresent', 'Never'];
  return supported.includes(policy) ? [] : [notSupported(path, policy, supported)];
}

function validateQuantityValue(name: string, q: string | number, path: Path, names: ResourceNames): FieldError[] {
  const value = parseQuantity(q);
  if (value === undefined) return [invalid(path, q, 'must be a valid resource quantity')];
  const errs: FieldError[] = [];
  if (value < 0) errs.push(invalid(path, String(q), isNegativeErrorMsg));
  if (names.isInteger(name) && !Number.isInteger(Math.round(value * 1000) / 1000)) errs.push(invalid(path, String(q), isNotIntegerErrorMsg));
  return errs;
}

/** Container resources: names, non-negative quantities, requests within limits, claims of the pod. */
export function validateResourceRequirements(
  req: ResourceRequirements, podClaimNames: ReadonlySet<string> | undefined, path: Path, names: ResourceNames,
): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = req.limits ?? {};
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, q] of Object.entries(limits)) {
    errs.push(...names.validateContainerResourceName(name, limPath.key(name)));
    errs.push(...validateQuantityValue(name, q, limPath.key(name), names));
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, q] of Object.entries(req.requests ?? {})) {
    errs.push(...names.validateContainerResourceName(name, reqPath.key(name)));
    errs.push(...validateQuantityValue(name, q, reqPath.key(name), names));
    const limit = limits[name];
    if (limit !== undefined) {
      const r = parseQuantity(q);
      const l = parseQuantity(limit);
      if (r !== undefined && l !== undefined) {
        // Upstream reports these at `requests`, not at the resource's key.
        if (r !== l && !names.isOvercommitAllowed(name)) {
          errs.push(invalid(reqPath, String(q), `must be equal to ${name} limit of ${String(limit)}`));
        } else if (r > l) {
          errs.push(invalid(reqPath, String(q), `must be less than or equal to ${name} limit of ${String(limit)}`));
        }
      }
    } else if (!names.isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  if (podClaimNames) errs.push(...validateResourceClaimNames(req, podClaimNames, path.child('claims')));
  return errs;
}

function validateResourceClaimNames(req: ResourceRequirements, podClaimNames: ReadonlySet<string>, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (req.claims ?? []).forEach((claim, i) => {
    const idx = path.index(i);
    if (!claim.name) {
      errs.push(required(idx, ''));
      return;
    }
    let key = claim.name;
    if (claim.request) {
      for (const m of isDNS1123Label(claim.request)) errs.push(invalid(idx.child('request'), claim.request, m));
      key += `/${claim.request}`;
    }
    if (seen.has(key)) errs.push(duplicate(idx, claim.name));
    else seen.add(key);
    if (!podClaimNames.has(claim.name)) {
      const names = [...podClaimNames].sort();
      const detail = 'must be one of the names in pod.spec.resourceClaims' + (names.length === 0 ? ' which is empty' : `: ${names.join(', ')}`);
      errs.push({ ...notFound(idx, claim.name), detail });
    }
  });
  return errs;
}

function validateResizePolicy(c: Container, podRestartPolicy: string, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (c.resizePolicy ?? []).forEach((p, i) => {
    if (seen.has(p.resourceName)) errs.push(duplicate(path.index(i), p.resourceName));
    seen.add(p.resourceName);
    if (!p.resourceName) errs.push(required(path, ''));
    else if (p.resourceName !== 'cpu' && p.resourceName !== 'memory') errs.push(notSupported(path, p.resourceName, ['cpu', 'memory']));
    const restart: string = p.restartPolicy;
    if (!restart) errs.push(required(path, ''));
    else if (restart !== 'NotRequired' && restart !== 'RestartContainer') {
      errs.push(notSupported(path, restart, ['NotRequired', 'RestartContainer']));
    }
    if (podRestartPolicy === 'Never' && restart !== 'NotRequired') {
      errs.push(invalid(path, restart, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
    }
  });
  return errs;
}

/** A user or group ID: 0 to 2147483647. */
export function validateID(id: number | undefined, path: Path): FieldError[] {
  return id !== undefined && (id < 0 || id > 2147483647) ? [invalid(path, id, inclusiveRangeError(0, 2147483647))] : [];
}

/** A seccomp profile: a known type, and a local descending path exactly when the type is Localhost. */
export function validateSeccompProfile(sp: SeccompProfile | undefined, path: Path): FieldError[] {
  if (!sp) return [];
  const errs: FieldError[] = [];
  const type: string = sp.type;
  if (!type) errs.push(required(path.child('type'), 'type is required when seccompProfile is set'));
  else if (!['Localhost', 'RuntimeDefault', 'Unconfined'].includes(type)) {
    errs.push(notSupported(path.child('type'), type, ['Localhost', 'RuntimeDefault', 'Unconfined']));
  }
  if (type === 'Localhost') {
    if (sp.localhostProfile === undefined) errs.push(required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(sp.localhostProfile, path.child('localhostProfile')));
  } else if (sp.localhostProfile !== undefined) {
    errs.push(invalid(path.child('localhostProfile'), sp, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

/** An AppArmor profile: a local profile name exactly when the type is Localhost. */
export function validateAppArmorProfile(ap: AppArmorProfile | undefined, path: Path): FieldError[] {
  if (!ap) return [];
  const errs: FieldError[] = [];
  const lp = path.child('localhostProfile');
  if (ap.type === 'Localhost') {
    const profile = ap.localhostProfile;
    if (profile === undefined) errs.push(required(lp, 'must be set when AppArmor type is Localhost'));
    else {
      if (profile.trim() !== profile) errs.push(invalid(lp, profile, 'must not be padded with whitespace'));
      else if (profile === '') errs.push(required(lp, 'must be set when AppArmor type is Localhost'));
      if (profile.length > 4095) errs.push(tooLong(lp, '', 4095));
    }
  } else if (ap.localhostProfile !== undefined) {
    errs.push(invalid(lp, ap, 'can only be set when AppArmor type is Localhost'));
  }
  return errs;
}

function validateSecurityContext(sc: SecurityContext | undefined, path: Path, { hostUsers, allowPrivileged }: ContainerContext): FieldError[] {
  if (!sc) return [];
  const errs: FieldError[] = [];
  // Upstream's capabilities.AllowPrivileged, set by kube-apiserver's --allow-privileged.
  if (sc.privileged === true && !allowPrivileged) errs.push(forbidden(path.child('privileged'), 'disallowed by cluster policy'));
  errs.push(...validateID(sc.runAsUser, path.child('runAsUser')));
  errs.push(...validateID(sc.runAsGroup, path.child('runAsGroup')));
  const procMount: string | undefined = sc.procMount;
  if (procMount !== undefined) {
    if (procMount !== 'Default' && procMount !== 'Unmasked') errs.push(notSupported(path.child('procMount'), procMount, ['Default', 'Unmasked']));
    if (hostUsers && procMount === 'Unmasked') errs.push(invalid(path.child('procMount'), procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, path.child('seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) errs.push(invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    if ((sc.capabilities?.add ?? []).includes('CAP_SYS_ADMIN')) {
      errs.push(invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...validateAppArmorProfile(sc.appArmorProfile, path.child('appArmorProfile')));
  return errs;
}

interface Handler {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
  grpc?: GRPCAction;
  sleep?: SleepAction;
}

function validatePortNumOrName(port: number | string, path: Path): FieldError[] {
  // port is required by the schema; a missing (or null) one is reported there.
  if (port === undefined || port === null) return [];
  const msgs = typeof port === 'number' ? isValidPortNum(port) : isValidPortName(port);
  return msgs.map((m) => invalid(path, port, m));
}

function validateHandler(h: Handler, gracePeriod: number | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  const one = (name: keyof Handler, check: () => FieldError[]) => {
    if (h[name] === undefined) return;
    if (count > 0) {
      errs.push(forbidden(path.child(name), 'may not specify more than 1 handler type'));
      return;
    }
    count++;
    errs.push(...check());
  };
  one('exec', () => ((h.exec!.command ?? []).length === 0 ? [required(path.child('exec', 'command'), '')] : []));
  one('httpGet', () => {
    const g = h.httpGet!;
    const gp = path.child('httpGet');
    const out: FieldError[] = [];
    if (!g.path) out.push(required(gp.child('path'), ''));
    out.push(...validatePortNumOrName(g.port, gp.child('port')));
    const scheme: string | undefined = g.scheme;
    if (scheme !== 'HTTP' && scheme !== 'HTTPS') out.push(notSupported(gp.child('scheme'), scheme ?? '', ['HTTP', 'HTTPS']));
    for (const header of g.httpHeaders ?? []) {
      if (!/^[-A-Za-z0-9]+$/.test(header.name)) {
        out.push(invalid(gp.child('httpHeaders'), header.name,
          regexError("a valid HTTP header must consist of alphanumeric characters or '-'", '[-A-Za-z0-9]+', 'X-Header-Name')));
      }
    }
    return out;
  });
  one('tcpSocket', () => validatePortNumOrName(h.tcpSocket!.port, path.child('tcpSocket', 'port')));
  one('grpc', () => validatePortNumOrName(h.grpc!.port, path.child('grpc', 'port')));
  one('sleep', () => {
    const seconds = h.sleep!.seconds;
    if (gracePeriod !== undefined && (seconds < 0 || seconds > gracePeriod)) {
      return [invalid(path.child('sleep'), seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`)];
    }
    return [];
  });
  if (count === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

export function validateLifecycle(l: Lifecycle, gracePeriod: number | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (l.postStart) errs.push(...validateHandler(l.postStart, gracePeriod, path.child('postStart')));
  if (l.preStop) errs.push(...validateHandler(l.preStop, gracePeriod, path.child('preStop')));
  return errs;
}

function validateProbe(p: Probe, gracePeriod: number | undefined, path: Path): FieldError[] {
  const errs = validateHandler({
    ...(p.exec ? { exec: p.exec } : {}),
    ...(p.httpGet ? { httpGet: p.httpGet } : {}),
    ...(p.tcpSocket ? { tcpSocket: p.tcpSocket } : {}),
    ...(p.grpc ? { grpc: p.grpc } : {}),
  }, gracePeriod, path);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    const v = p[f];
    if (v !== undefined && v < 0) errs.push(invalid(path.child(f), v, isNegativeErrorMsg));
  }
  if (p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds <= 0) {
    errs.push(invalid(path.child('terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
  return errs;
}

/** The probes of a regular container or a restartable init container. */
export function validateProbes(c: Container, gracePeriod: number | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    const p = c[kind];
    if (!p) continue;
    const pp = path.child(kind);
    errs.push(...validateProbe(p, gracePeriod, pp));
    if (kind !== 'readinessProbe' && (p.successThreshold ?? 1) !== 1) {
      errs.push(invalid(pp.child('successThreshold'), p.successThreshold, 'must be 1'));
    }
    if (kind === 'readinessProbe' && p.terminationGracePeriodSeconds !== undefined) {
      errs.push(invalid(pp.child('terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
    }
  }
  return errs;
}
