// Validation of a pod template (the pod description embedded in StatefulSets, Deployments, Jobs,
// ...), following upstream's ValidatePodTemplateSpec and ValidatePodSpec: the rules people most
// often trip on, in upstream's words and at upstream's field paths.
import { isIP } from 'node:net';
import type { PodSpec, PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { Container } from '../../../api/core/v1/container.js';
import type { Affinity, NodeSelector, NodeSelectorTerm, PodAffinityTerm, WeightedPodAffinityTerm } from '../../../api/core/v1/affinity.js';
import type { PodSecurityContext } from '../../../api/core/v1/security-context.js';
import type { Toleration } from '../../../api/core/v1/toleration.js';
import type { TopologySpreadConstraint } from '../../../api/core/v1/topology-spread-constraint.js';
import {
  duplicate, forbidden, invalid, notSupported, required, type FieldError, type Path,
} from '../../runtime/field-errors.js';
import { validateAnnotations } from '../validation/annotations.js';
import { validateLabelSelector, validateLabels } from '../validation/label-selector.js';
import { isDNS1123Label, isDNS1123Subdomain, isLabelValue, isQualifiedName } from '../validation/names.js';
import {
  checkHostPortConflicts, isNegativeErrorMsg, validateAppArmorProfile, validateContainerCommon, validateID,
  validateLifecycle, validateProbes, validateResourceRequirements, validateSeccompProfile, type ContainerContext,
} from './container-validation.js';
import { validateContainerOnlyForPod, validateEphemeralContainers } from './ephemeral-container-validation.js';
import type { ResourceNames } from './resource-names.js';
import { inclusiveRangeError, validateVolumes } from './volume-validation.js';

/** What the server's configuration decides for every pod spec it validates, in pods and in templates alike. */
export interface PodSpecPolicy {
  /** Resource-name rules of the platform's domain. */
  resourceNames: ResourceNames;
  /** --allow-privileged: whether a container may run privileged. */
  allowPrivileged: boolean;
}

export interface PodTemplateValidationOptions extends PodSpecPolicy {
  /**
   * Volume names that containers may mount although spec.volumes does not declare them: the
   * claims of a StatefulSet's volumeClaimTemplates.
   */
  extraVolumeNames?: Set<string>;
  /** A pod's own spec: ephemeral containers and the pod-only container rules are checked too. */
  pod?: boolean;
}

/** Validates a pod template; `path` points at the template, e.g. `spec.template`. */
export function validatePodTemplateSpec(
  t: PodTemplateSpec, path: Path, opts: PodTemplateValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  // Upstream reports template metadata at `<template>.labels`, without `metadata`.
  errs.push(...validateLabels(t.metadata?.labels, path.child('labels')));
  errs.push(...validateAnnotations(t.metadata?.annotations, path.child('annotations')));
  const specPath = path.child('spec');
  if (!t.spec) {
    errs.push(required(specPath.child('containers'), ''));
    return errs;
  }
  errs.push(...validatePodSpec(t.spec, specPath, opts));
  if ((t.spec.ephemeralContainers ?? []).length > 0) {
    errs.push(forbidden(specPath.child('ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const preemptionPolicies = ['PreemptLowerPriority', 'Never'];
const maxInt32 = 2147483647;

/** Validates a PodSpec of a template (not of a pod: images may carry whitespace, hostPort may be 0). */
export function validatePodSpec(spec: PodSpec, path: Path, opts: PodTemplateValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const grace = spec.terminationGracePeriodSeconds;
  if (grace === undefined) errs.push(required(path.child('terminationGracePeriodSeconds'), ''));
  else if (grace < 0) errs.push(invalid(path.child('terminationGracePeriodSeconds'), grace, isNegativeErrorMsg));

  const { volumes, errs: volumeErrs } = validateVolumes(spec.volumes, path.child('volumes'));
  errs.push(...volumeErrs);
  const podClaimNames = new Set((spec.resourceClaims ?? []).map((c) => c.name).filter((n) => n));
  errs.push(...validatePodResourceClaims(spec, path.child('resourceClaims')));

  const restartPolicy: string = spec.restartPolicy ?? '';
  const ctx: ContainerContext = {
    volumes: { volumes, extra: opts.extraVolumeNames ?? new Set() },
    podClaimNames,
    podRestartPolicy: restartPolicy,
    gracePeriod: grace,
    hostUsers: spec.hostUsers !== false,
    resourceNames: opts.resourceNames,
    allowPrivileged: opts.allowPrivileged,
  };
  errs.push(...validateContainers(spec.containers ?? [], path.child('containers'), ctx));
  errs.push(...validateInitContainers(spec.initContainers ?? [], spec.containers ?? [], path.child('initContainers'), ctx));
  if (opts.pod) {
    (spec.containers ?? []).forEach((c, i) => errs.push(...validateContainerOnlyForPod(c, path.child('containers').index(i))));
    (spec.initContainers ?? []).forEach((c, i) => errs.push(...validateContainerOnlyForPod(c, path.child('initContainers').index(i))));
    errs.push(...validateEphemeralContainers(spec, path.child('ephemeralContainers'), ctx));
  }
  if (spec.resources) errs.push(...validatePodResources(spec, path.child('resources'), opts.resourceNames));
  errs.push(...validateHostNetworkPorts(spec, path));

  if (!restartPolicy) errs.push(required(path.child('restartPolicy'), ''));
  else if (!restartPolicies.includes(restartPolicy)) errs.push(notSupported(path.child('restartPolicy'), restartPolicy, restartPolicies));
  const dnsPolicy: string = spec.dnsPolicy ?? '';
  if (!dnsPolicy) errs.push(required(path.child('dnsPolicy'), ''));
  else if (!dnsPolicies.includes(dnsPolicy)) errs.push(notSupported(path.child('dnsPolicy'), dnsPolicy, dnsPolicies));

  errs.push(...validateLabels(spec.nodeSelector, path.child('nodeSelector')));
  errs.push(...validatePodSecurityContext(spec, path.child('securityContext')));
  errs.push(...validateAffinity(spec.affinity, path.child('affinity')));
  errs.push(...validateDNSConfig(spec, path.child('dnsConfig')));
  (spec.readinessGates ?? []).forEach((g, i) => {
    const p = path.child('readinessGates').index(i).child('conditionType');
    for (const m of isQualifiedName(g.conditionType)) errs.push(invalid(p, g.conditionType, m));
  });
  const gates = new Set<string>();
  (spec.schedulingGates ?? []).forEach((g, i) => {
    const p = path.child('schedulingGates').index(i);
    for (const m of isQualifiedName(g.name)) errs.push(invalid(p, g.name, m));
    if (gates.has(g.name)) errs.push(duplicate(p, g.name));
    gates.add(g.name);
  });
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints ?? [], path.child('topologySpreadConstraints')));
  if (spec.hostUsers === false) {
    for (const f of ['hostNetwork', 'hostPID', 'hostIPC'] as const) {
      // Upstream spells two of these paths with capitals.
      const name = f === 'hostNetwork' ? f : f === 'hostPID' ? 'HostPID' : 'HostIPC';
      if (spec[f]) errs.push(forbidden(path.child(name), 'when `pod.Spec.HostUsers` is false'));
    }
  }

  const subdomainFields = ['serviceAccountName', 'nodeName', 'priorityClassName'] as const;
  for (const f of subdomainFields) {
    const v = spec[f];
    if (v) for (const m of isDNS1123Subdomain(v)) errs.push(invalid(path.child(f), v, m));
  }
  if (spec.activeDeadlineSeconds !== undefined) {
    const v = spec.activeDeadlineSeconds;
    if (v < 1 || v > maxInt32) errs.push(invalid(path.child('activeDeadlineSeconds'), v, inclusiveRangeError(1, maxInt32)));
  }
  for (const f of ['hostname', 'subdomain'] as const) {
    const v = spec[f];
    if (v) for (const m of isDNS1123Label(v)) errs.push(invalid(path.child(f), v, m));
  }
  errs.push(...validateTolerations(spec.tolerations ?? [], path.child('tolerations')));
  (spec.hostAliases ?? []).forEach((a, i) => {
    const p = path.child('hostAliases').index(i);
    if (isIP(a.ip ?? '') === 0) errs.push(invalid(p.child('ip'), a.ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    (a.hostnames ?? []).forEach((h, j) => {
      for (const m of isDNS1123Subdomain(h)) errs.push(invalid(p.child('hostnames').index(j), h, m));
    });
  });
  if (spec.runtimeClassName !== undefined) {
    for (const m of isDNS1123Subdomain(spec.runtimeClassName)) errs.push(invalid(path.child('runtimeClassName'), spec.runtimeClassName, m));
  }
  const preemption: string | undefined = spec.preemptionPolicy;
  if (preemption !== undefined) {
    if (!preemption) errs.push(required(path.child('preemptionPolicy'), ''));
    else if (!preemptionPolicies.includes(preemption)) errs.push(notSupported(path.child('preemptionPolicy'), preemption, preemptionPolicies));
  }
  if (spec.overhead) errs.push(...validateResourceRequirements({ limits: spec.overhead }, undefined, path.child('overhead'), opts.resourceNames));
  errs.push(...validateOS(spec, path));
  return errs;
}

function validateContainers(containers: Container[], path: Path, ctx: ContainerContext): FieldError[] {
  if (containers.length === 0) return [required(path, '')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, p, ctx));
    if (names.has(c.name)) errs.push(duplicate(p.child('name'), c.name));
    else names.add(c.name);
    if (c.lifecycle) errs.push(...validateLifecycle(c.lifecycle, ctx.gracePeriod, p.child('lifecycle')));
    errs.push(...validateProbes(c, ctx.gracePeriod, p));
    if (c.restartPolicy !== undefined) errs.push(forbidden(p.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

const initOnly = 'may not be set for init containers without restartPolicy=Always';

function validateInitContainers(inits: Container[], regular: Container[], path: Path, ctx: ContainerContext): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(regular.map((c) => c.name));
  inits.forEach((c, i) => {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, p, ctx));
    const restart: string | undefined = c.restartPolicy;
    if (restart !== undefined && restart !== 'Always') errs.push(notSupported(p.child('restartPolicy'), restart, ['Always']));
    if (names.has(c.name)) errs.push(duplicate(p.child('name'), c.name));
    else if (c.name) names.add(c.name);
    // Init containers run one at a time, so each is checked for host port conflicts alone.
    errs.push(...checkHostPortConflicts([c], path));
    if (restart === 'Always') {
      if (c.lifecycle) errs.push(...validateLifecycle(c.lifecycle, ctx.gracePeriod, p.child('lifecycle')));
      errs.push(...validateProbes(c, ctx.gracePeriod, p));
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        if (c[f] !== undefined) errs.push(forbidden(p.child(f), initOnly));
      }
    }
  });
  return errs;
}

function validatePodResourceClaims(spec: PodSpec, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (spec.resourceClaims ?? []).forEach((claim, i) => {
    const p = path.index(i);
    if (!claim.name) errs.push(required(p.child('name'), ''));
    else if (names.has(claim.name)) errs.push(duplicate(p.child('name'), claim.name));
    else {
      for (const m of isDNS1123Label(claim.name)) errs.push(invalid(p.child('name'), claim.name, m));
      names.add(claim.name);
    }
    const byName = claim.resourceClaimName !== undefined;
    const byTemplate = claim.resourceClaimTemplateName !== undefined;
    if (byName && byTemplate) errs.push(invalid(p, claim, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (!byName && !byTemplate) errs.push(invalid(p, claim, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    for (const f of ['resourceClaimName', 'resourceClaimTemplateName'] as const) {
      const v = claim[f];
      if (v !== undefined) for (const m of isDNS1123Subdomain(v)) errs.push(invalid(p.child(f), v, m));
    }
  });
  return errs;
}

// Pod-level resources: only the request/limit relation and the ban on claims are checked here.
function validatePodResources(spec: PodSpec, path: Path, names: ResourceNames): FieldError[] {
  const errs: FieldError[] = [];
  const res = spec.resources!;
  if (res.claims !== undefined) errs.push(forbidden(path.child('claims'), 'claims cannot be set for Resources at pod-level'));
  const { claims: _claims, ...rest } = res;
  for (const e of validateResourceRequirements(rest, undefined, path, names)) {
    if (e.detail !== 'must be a standard resource for containers') errs.push(e);
  }
  return errs;
}

function validateHostNetworkPorts(spec: PodSpec, path: Path): FieldError[] {
  if (!spec.hostNetwork) return [];
  const errs: FieldError[] = [];
  (spec.containers ?? []).forEach((c, i) => {
    (c.ports ?? []).forEach((port, j) => {
      // In a template an unset hostPort is fine: it is defaulted when the pod is created.
      if (port.hostPort && port.hostPort !== port.containerPort) {
        errs.push(invalid(path.child('containers').index(i).child('ports').index(j).child('hostPort'), port.hostPort,
          'must match `containerPort` when `hostNetwork` is true'));
      }
    });
  });
  return errs;
}

function validatePodSecurityContext(spec: PodSpec, path: Path): FieldError[] {
  const sc: PodSecurityContext | undefined = spec.securityContext;
  if (!sc) return [];
  const errs: FieldError[] = [];
  errs.push(...validateID(sc.fsGroup, path.child('fsGroup')));
  errs.push(...validateID(sc.runAsUser, path.child('runAsUser')));
  errs.push(...validateID(sc.runAsGroup, path.child('runAsGroup')));
  (sc.supplementalGroups ?? []).forEach((g, i) => errs.push(...validateID(g, path.child('supplementalGroups').index(i))));
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(invalid(path.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  const fsPolicy: string | undefined = sc.fsGroupChangePolicy;
  if (fsPolicy !== undefined && fsPolicy !== 'OnRootMismatch' && fsPolicy !== 'Always') {
    errs.push(notSupported(path.child('fsGroupChangePolicy'), fsPolicy, ['Always', 'OnRootMismatch']));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, path.child('seccompProfile')));
  errs.push(...validateAppArmorProfile(sc.appArmorProfile, path.child('appArmorProfile')));
  return errs;
}

function validateOS(spec: PodSpec, path: Path): FieldError[] {
  if (!spec.os) return [];
  const name: string = spec.os.name;
  if (name !== 'linux' && name !== 'windows') return [notSupported(path.child('os', 'name'), name, ['linux', 'windows'])];
  const errs: FieldError[] = [];
  const containers = [
    ...(spec.containers ?? []).map((c, i): [Container, Path] => [c, path.child('containers').index(i)]),
    ...(spec.initContainers ?? []).map((c, i): [Container, Path] => [c, path.child('initContainers').index(i)]),
  ];
  if (name === 'linux') {
    const msg = 'windows options cannot be set for a linux pod';
    if (spec.securityContext?.windowsOptions) errs.push(forbidden(path.child('securityContext', 'windowsOptions'), msg));
    for (const [c, p] of containers) {
      if (c.securityContext?.windowsOptions) errs.push(forbidden(p.child('securityContext', 'windowsOptions'), msg));
    }
    return errs;
  }
  const msg = 'cannot be set for a windows pod';
  const sc = spec.securityContext ?? {};
  for (const f of ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'fsGroup', 'fsGroupChangePolicy', 'runAsUser',
    'runAsGroup', 'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy'] as const) {
    if (sc[f] !== undefined) errs.push(forbidden(path.child('securityContext', f), msg));
  }
  if ((sc.sysctls ?? []).length > 0) errs.push(forbidden(path.child('securityContext', 'sysctls'), msg));
  if (spec.hostUsers !== undefined) errs.push(forbidden(path.child('hostUsers'), msg));
  if (spec.hostPID) errs.push(forbidden(path.child('hostPID'), msg));
  if (spec.hostIPC) errs.push(forbidden(path.child('hostIPC'), msg));
  if (spec.shareProcessNamespace !== undefined) errs.push(forbidden(path.child('shareProcessNamespace'), msg));
  for (const [c, p] of containers) {
    const csc = c.securityContext;
    if (!csc) continue;
    for (const f of ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem',
      'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'] as const) {
      if (csc[f] !== undefined) errs.push(forbidden(p.child('securityContext', f), msg));
    }
  }
  return errs;
}

const maxDNSNameservers = 3;
const maxDNSSearchPaths = 32;
const maxDNSSearchListChars = 2048;

function validateDNSConfig(spec: PodSpec, path: Path): FieldError[] {
  const cfg = spec.dnsConfig;
  if (spec.dnsPolicy === 'None') {
    if (!cfg) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if ((cfg.nameservers ?? []).length === 0) {
      return [required(path.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
    }
  }
  if (!cfg) return [];
  const errs: FieldError[] = [];
  const nameservers = cfg.nameservers ?? [];
  if (nameservers.length > maxDNSNameservers) {
    errs.push(invalid(path.child('nameservers'), nameservers, `must not have more than ${maxDNSNameservers} nameservers`));
  }
  nameservers.forEach((ns, i) => {
    if (isIP(ns) === 0) errs.push(invalid(path.child('nameservers').index(i), ns, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  const searches = cfg.searches ?? [];
  if (searches.length > maxDNSSearchPaths) {
    errs.push(invalid(path.child('searches'), searches, `must not have more than ${maxDNSSearchPaths} search paths`));
  }
  if (searches.join(' ').length > maxDNSSearchListChars) {
    errs.push(invalid(path.child('searches'), searches,
      `must not have more than ${maxDNSSearchListChars} characters (including spaces) in the search list`));
  }
  searches.forEach((s, i) => {
    const trimmed = s.endsWith('.') ? s.slice(0, -1) : s;
    for (const m of isDNS1123Subdomain(trimmed)) errs.push(invalid(path.child('searches').index(i), trimmed, m));
  });
  (cfg.options ?? []).forEach((o, i) => {
    if (!o.name) errs.push(required(path.child('options').index(i), 'must not be empty'));
  });
  return errs;
}

const labelName = (key: string, path: Path): FieldError[] => isQualifiedName(key).map((m) => invalid(path, key, m));

/** Validates tolerations: keys, operator and value, effect, and tolerationSeconds only with NoExecute. */
export function validateTolerations(tolerations: Toleration[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const p = path.index(i);
    const operator: string = t.operator ?? '';
    const effect: string = t.effect ?? '';
    const value = t.value ?? '';
    if (t.key) errs.push(...labelName(t.key, p.child('key')));
    if (!t.key && operator !== 'Exists') {
      errs.push(invalid(p.child('operator'), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && effect !== 'NoExecute') {
      errs.push(invalid(p.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isLabelValue(value);
      if (msgs.length > 0) errs.push(invalid(p.child('operator'), value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value) errs.push(invalid(p.child('operator'), value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(notSupported(p.child('operator'), operator, ['Equal', 'Exists']));
    }
    if (effect && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect)) {
      errs.push(notSupported(p.child('effect'), effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']));
    }
  });
  return errs;
}

function validateAffinity(a: Affinity | undefined, path: Path): FieldError[] {
  if (!a) return [];
  const errs: FieldError[] = [];
  const na = a.nodeAffinity;
  if (na) {
    const np = path.child('nodeAffinity');
    if (na.requiredDuringSchedulingIgnoredDuringExecution) {
      errs.push(...validateNodeSelector(na.requiredDuringSchedulingIgnoredDuringExecution,
        np.child('requiredDuringSchedulingIgnoredDuringExecution')));
    }
    (na.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      const p = np.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      if (term.weight <= 0 || term.weight > 100) errs.push(invalid(p.child('weight'), term.weight, 'must be in the range 1-100'));
      // Preferred terms may name label values that do not exist; only structure is checked.
      errs.push(...validateNodeSelectorTerm(term.preference, p.child('preference'), true));
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const pa = a[kind];
    if (!pa) continue;
    const pp = path.child(kind);
    (pa.requiredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      errs.push(...validatePodAffinityTerm(term, pp.child('requiredDuringSchedulingIgnoredDuringExecution').index(i)));
    });
    (pa.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((wt: WeightedPodAffinityTerm, i) => {
      const p = pp.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      if (wt.weight <= 0 || wt.weight > 100) errs.push(invalid(p.child('weight'), wt.weight, 'must be in the range 1-100'));
      errs.push(...validatePodAffinityTerm(wt.podAffinityTerm, p.child('podAffinityTerm')));
    });
  }
  return errs;
}

export function validateNodeSelector(sel: NodeSelector, path: Path): FieldError[] {
  const termsPath = path.child('nodeSelectorTerms');
  if ((sel.nodeSelectorTerms ?? []).length === 0) return [required(termsPath, 'must have at least one node selector term')];
  return sel.nodeSelectorTerms.flatMap((term, i) => validateNodeSelectorTerm(term, termsPath.index(i), false));
}

function validateNodeSelectorTerm(term: NodeSelectorTerm, path: Path, allowInvalidValues: boolean): FieldError[] {
  const errs: FieldError[] = [];
  (term.matchExpressions ?? []).forEach((req, i) => {
    const p = path.child('matchExpressions').index(i);
    const values = req.values ?? [];
    const operator: string = req.operator;
    switch (operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      case 'Gt':
      case 'Lt':
        if (values.length !== 1) errs.push(required(p.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        break;
      default:
        errs.push(invalid(p.child('operator'), operator, 'not a valid selector operator'));
    }
    errs.push(...labelName(req.key, p.child('key')));
    if (!allowInvalidValues) {
      values.forEach((v, j) => {
        for (const m of isLabelValue(v)) errs.push(invalid(p.child('values').index(j), v, m));
      });
    }
  });
  (term.matchFields ?? []).forEach((req, i) => {
    const p = path.child('matchFields').index(i);
    const operator: string = req.operator;
    if (operator === 'In' || operator === 'NotIn') {
      if ((req.values ?? []).length !== 1) {
        errs.push(required(p.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
      }
    } else errs.push(invalid(p.child('operator'), operator, 'not a valid selector operator'));
    if (req.key !== 'metadata.name') errs.push(invalid(p.child('key'), req.key, 'not a valid field selector key'));
    else {
      (req.values ?? []).forEach((v, j) => {
        for (const m of isDNS1123Subdomain(v)) errs.push(invalid(p.child('values').index(j), v, m));
      });
    }
  });
  return errs;
}

function validatePodAffinityTerm(term: PodAffinityTerm, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(term.labelSelector, path.child('labelSelector')));
  errs.push(...validateLabelSelector(term.namespaceSelector, path.child('namespaceSelector')));
  for (const ns of term.namespaces ?? []) {
    // Upstream reports every namespace at `namespace`, without an index.
    for (const m of isDNS1123Label(ns)) errs.push(invalid(path.child('namespace'), ns, m));
  }
  errs.push(...validateMatchLabelKeys(term, path));
  if (!term.topologyKey) errs.push(required(path.child('topologyKey'), 'can not be empty'));
  errs.push(...labelName(term.topologyKey ?? '', path.child('topologyKey')));
  return errs;
}

function selectorKeys(term: { labelSelector?: PodAffinityTerm['labelSelector'] }): Set<string> {
  const sel = term.labelSelector;
  return new Set([...Object.keys(sel?.matchLabels ?? {}), ...(sel?.matchExpressions ?? []).map((e) => e.key)]);
}

function validateMatchLabelKeys(term: PodAffinityTerm, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const match = term.matchLabelKeys ?? [];
  const mismatch = term.mismatchLabelKeys ?? [];
  if (!term.labelSelector) {
    if (match.length > 0) errs.push(forbidden(path.child('matchLabelKeys'), 'must not be specified when labelSelector is not set'));
    if (mismatch.length > 0) errs.push(forbidden(path.child('mismatchLabelKeys'), 'must not be specified when labelSelector is not set'));
    return errs;
  }
  const keys = selectorKeys(term);
  for (const [field, list] of [['matchLabelKeys', match], ['mismatchLabelKeys', mismatch]] as const) {
    list.forEach((k, i) => {
      errs.push(...labelName(k, path.child(field).index(i)));
      if (keys.has(k)) errs.push(invalid(path.child(field).index(i), k, 'exists in both matchLabelKeys and labelSelector'));
    });
  }
  const mismatchSet = new Set(mismatch);
  match.forEach((k, i) => {
    if (mismatchSet.has(k)) errs.push(invalid(path.child('matchLabelKeys').index(i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errs;
}

function validateTopologySpreadConstraints(constraints: TopologySpreadConstraint[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  constraints.forEach((c, i) => {
    const p = path.index(i);
    const action: string = c.whenUnsatisfiable;
    if (c.maxSkew <= 0) errs.push(invalid(p.child('maxSkew'), c.maxSkew, 'must be greater than zero'));
    if (!c.topologyKey) errs.push(required(p.child('topologyKey'), 'can not be empty'));
    if (action !== 'DoNotSchedule' && action !== 'ScheduleAnyway') {
      errs.push(notSupported(p.child('whenUnsatisfiable'), action, ['DoNotSchedule', 'ScheduleAnyway']));
    }
    if (constraints.slice(i + 1).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)) {
      errs.push(duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${c.topologyKey}, ${action}}`));
    }
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0) errs.push(invalid(p.child('minDomains'), c.minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') {
        errs.push(invalid(p.child('minDomains'), c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
      }
    }
    for (const f of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v: string | undefined = c[f];
      if (v !== undefined && v !== 'Honor' && v !== 'Ignore') errs.push(notSupported(p.child(f), v, ['Honor', 'Ignore']));
    }
    const keys = c.matchLabelKeys ?? [];
    if (keys.length > 0) {
      if (!c.labelSelector) errs.push(forbidden(p.child('matchLabelKeys'), 'must not be specified when labelSelector is not set'));
      else {
        const inSelector = selectorKeys(c);
        keys.forEach((k, j) => {
          errs.push(...labelName(k, p.child('matchLabelKeys').index(j)));
          if (inSelector.has(k)) errs.push(invalid(p.child('matchLabelKeys').index(j), k, 'exists in both matchLabelKeys and labelSelector'));
        });
      }
    }
    errs.push(...validateLabelSelector(c.labelSelector, p.child('labelSelector')));
  });
  return errs;
}
