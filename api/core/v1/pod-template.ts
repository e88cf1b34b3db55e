// PodTemplateSpec and the complete PodSpec: the pod description embedded in workloads
// (StatefulSet, Deployment, Job, ...). The parts live beside this file, one concept each.
import { Type, type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, int64, list, object, opt, str, stringMap, type ListMarkers } from '../../schema.js';
import { resourceList } from '../../meta/v1/primitives.js';
import { ObjectMeta } from '../../meta/v1/types.js';
import { Affinity } from './affinity.js';
import { Container, EphemeralContainer } from './container.js';
import { LocalObjectReference } from './object-reference.js';
import { ResourceRequirements } from './resource-requirements.js';
import { PodSecurityContext } from './security-context.js';
import { Toleration } from './toleration.js';
import { TopologySpreadConstraint } from './topology-spread-constraint.js';
import { Volume } from './volume.js';

export { Container, EphemeralContainer, VolumeMount } from './container.js';
export { Volume } from './volume.js';
export { defaultPodTemplateSpec } from './pod-template-defaults.js';

const P = 'io.orch.api.core.v1';

export const RestartPolicies = ['Always', 'OnFailure', 'Never'] as const;
export const DNSPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'] as const;
export const PreemptionPolicies = ['PreemptLowerPriority', 'Never'] as const;
export const OSNames = ['linux', 'windows'] as const;

export const DefaultTerminationGracePeriodSeconds = 30;
export const DefaultSchedulerName = 'default-scheduler';

export const PodDNSConfigOption = object(`${P}.PodDNSConfigOption`, {
  name: opt(str(1)),
  value: opt(str(2)),
});

export const PodDNSConfig = object(`${P}.PodDNSConfig`, {
  nameservers: opt(list(1, Type.String(), { listType: 'atomic' })),
  searches: opt(list(2, Type.String(), { listType: 'atomic' })),
  options: opt(list(3, PodDNSConfigOption, { listType: 'atomic' })),
});
export type PodDNSConfig = Static<typeof PodDNSConfig>;

export const HostAlias = object(`${P}.HostAlias`, {
  ip: str(1),
  hostnames: opt(list(2, Type.String(), { listType: 'atomic' })),
}, { required: ['ip'] });

export const PodReadinessGate = object(`${P}.PodReadinessGate`, {
  conditionType: str(1),
}, { required: ['conditionType'] });

export const PodOS = object(`${P}.PodOS`, {
  name: enumOf(1, OSNames),
}, { required: ['name'] });

export const PodSchedulingGate = object(`${P}.PodSchedulingGate`, {
  name: str(1),
}, { required: ['name'] });

export const PodResourceClaim = object(`${P}.PodResourceClaim`, {
  name: str(1),
  resourceClaimName: opt(str(3)),
  resourceClaimTemplateName: opt(str(4)),
}, { required: ['name'] });
export type PodResourceClaim = Static<typeof PodResourceClaim>;

export const WorkloadReference = object(`${P}.WorkloadReference`, {
  name: str(1),
  podGroup: str(2),
  podGroupReplicaKey: opt(str(3)),
}, { required: ['name', 'podGroup'] });

/** Markers of the lists keyed and merged by `name`. */
const byName = (patchStrategy: ListMarkers['patchStrategy'] = 'merge'): ListMarkers =>
  ({ patchStrategy, patchMergeKey: 'name', listType: 'map', mapKeys: ['name'] });

export const PodSpec = object(`${P}.PodSpec`, {
  volumes: opt(list(1, Volume, byName('merge,retainKeys'))),
  initContainers: opt(list(20, Container, byName())),
  containers: list(2, Container, byName()),
  ephemeralContainers: opt(list(34, EphemeralContainer, byName())),
  restartPolicy: opt(enumOf(3, RestartPolicies, { default: 'Always' })),
  terminationGracePeriodSeconds: opt(int64(4, { default: DefaultTerminationGracePeriodSeconds })),
  activeDeadlineSeconds: opt(int64(5)),
  dnsPolicy: opt(enumOf(6, DNSPolicies, { default: 'ClusterFirst' })),
  nodeSelector: opt(stringMap(7, { 'x-orch-map-type': 'atomic' })),
  serviceAccountName: opt(str(8)),
  serviceAccount: opt(str(9)),
  automountServiceAccountToken: opt(bool(21)),
  nodeName: opt(str(10)),
  hostNetwork: opt(bool(11)),
  hostPID: opt(bool(12)),
  hostIPC: opt(bool(13)),
  shareProcessNamespace: opt(bool(27)),
  securityContext: opt(field(14, PodSecurityContext, { default: {} })),
  imagePullSecrets: opt(list(15, LocalObjectReference, byName())),
  hostname: opt(str(16)),
  subdomain: opt(str(17)),
  affinity: opt(field(18, Affinity)),
  schedulerName: opt(str(19, { default: DefaultSchedulerName })),
  tolerations: opt(list(22, Toleration, { listType: 'atomic' })),
  hostAliases: opt(list(23, HostAlias, {
    patchStrategy: 'merge', patchMergeKey: 'ip', listType: 'map', mapKeys: ['ip'],
  })),
  priorityClassName: opt(str(24)),
  priority: opt(int32(25)),
  dnsConfig: opt(field(26, PodDNSConfig)),
  readinessGates: opt(list(28, PodReadinessGate, { listType: 'atomic' })),
  runtimeClassName: opt(str(29)),
  enableServiceLinks: opt(bool(30)),
  preemptionPolicy: opt(enumOf(31, PreemptionPolicies)),
  overhead: opt(resourceList(32)),
  topologySpreadConstraints: opt(list(33, TopologySpreadConstraint, {
    patchStrategy: 'merge', patchMergeKey: 'topologyKey', listType: 'map', mapKeys: ['topologyKey', 'whenUnsatisfiable'],
  })),
  setHostnameAsFQDN: opt(bool(35)),
  os: opt(field(36, PodOS)),
  hostUsers: opt(bool(37)),
  schedulingGates: opt(list(38, PodSchedulingGate, byName())),
  resourceClaims: opt(list(39, PodResourceClaim, byName('merge,retainKeys'))),
  resources: opt(field(40, ResourceRequirements)),
  hostnameOverride: opt(str(41)),
  workloadRef: opt(field(42, WorkloadReference)),
}, { required: ['containers'] });
export type PodSpec = Static<typeof PodSpec>;

export const PodTemplateSpec = object(`${P}.PodTemplateSpec`, {
  metadata: opt(field(1, ObjectMeta)),
  spec: opt(field(2, PodSpec)),
});
export type PodTemplateSpec = Static<typeof PodTemplateSpec>;
