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
  name: opt(str(1, { description: 'Name of the resolver option, e.g. ndots. Required.' })),
  value: opt(str(2, { 'x-orch-emit': 'pointer', description: 'Value of the option, if it takes one.' })),
}, { description: 'An option of the pod\'s DNS resolver.' });

export const PodDNSConfig = object(`${P}.PodDNSConfig`, {
  nameservers: opt(list(1, Type.String(), { listType: 'atomic' }, {
    description: 'IP addresses of DNS servers, added to those of the DNS policy; at most 3 in all.',
  })),
  searches: opt(list(2, Type.String(), { listType: 'atomic' }, {
    description: 'Search domains, added to those of the DNS policy without duplicates.',
  })),
  options: opt(list(3, PodDNSConfigOption, { listType: 'atomic' }, {
    description: 'Resolver options, merged with those of the DNS policy; one given here replaces the policy\'s of the same name.',
  })),
}, { description: 'DNS settings of a pod, merged into those its dnsPolicy produces.' });
export type PodDNSConfig = Static<typeof PodDNSConfig>;

export const HostAlias = object(`${P}.HostAlias`, {
  // Required, but upstream 1.30 tags it omitempty.
  ip: str(1, { 'x-orch-emit': 'omitempty', description: 'IP address the host names resolve to.' }),
  hostnames: opt(list(2, Type.String(), { listType: 'atomic' }, { description: 'Host names for that IP address.' })),
}, { required: ['ip'], description: 'An entry added to the pod\'s hosts file.' });

export const PodReadinessGate = object(`${P}.PodReadinessGate`, {
  conditionType: str(1, { description: 'Type of a condition in the pod\'s status conditions.' }),
}, { required: ['conditionType'], description: 'A pod condition that must be True, besides ready containers, for the pod to be ready.' });

export const PodOS = object(`${P}.PodOS`, {
  name: enumOf(1, OSNames, {
    description: 'linux or windows. Validation then checks the fields that only apply to the other operating system.',
  }),
}, { required: ['name'], description: 'The operating system the pod\'s containers need.' });

export const PodSchedulingGate = object(`${P}.PodSchedulingGate`, {
  name: str(1, { description: 'Name of the gate, unique in the pod.' }),
}, { required: ['name'], description: 'A gate that keeps the pod from being scheduled while it is present.' });

export const PodResourceClaim = object(`${P}.PodResourceClaim`, {
  name: str(1, { description: 'Name of the entry, unique in the pod; containers refer to the claim by it.' }),
  resourceClaimName: opt(str(3, {
    'x-orch-emit': 'pointer',
    description: 'Name of an existing ResourceClaim in the pod\'s namespace. Set either this or resourceClaimTemplateName.',
  })),
  resourceClaimTemplateName: opt(str(4, {
    'x-orch-emit': 'pointer',
    description: 'Name of a ResourceClaimTemplate from which a claim is made for this pod and deleted with it. Set ' +
      'either this or resourceClaimName.',
  })),
}, { required: ['name'], description: 'A resource claim the pod uses, under a name local to the pod.' });
export type PodResourceClaim = Static<typeof PodResourceClaim>;

export const WorkloadReference = object(`${P}.WorkloadReference`, {
  name: str(1, { description: 'Name of the Workload in the pod\'s namespace.' }),
  podGroup: str(2, { description: 'Name of the pod group within that Workload.' }),
  podGroupReplicaKey: opt(str(3, {
    description: 'Tells replicas of the same pod group apart; the group\'s policy applies to each replica on its own.',
  })),
}, { required: ['name', 'podGroup'], description: 'The Workload and pod group a pod belongs to, for scheduling the group together.' });

/** Markers of the lists keyed and merged by `name`. */
const byName = (patchStrategy: ListMarkers['patchStrategy'] = 'merge'): ListMarkers =>
  ({ patchStrategy, patchMergeKey: 'name', listType: 'map', mapKeys: ['name'] });

export const PodSpec = object(`${P}.PodSpec`, {
  volumes: opt(list(1, Volume, byName('merge,retainKeys'), { description: 'Volumes that the pod\'s containers can mount.' })),
  initContainers: opt(list(20, Container, byName(), {
    description: 'Containers run one by one, each to completion, before the app containers start. One with ' +
      'restartPolicy Always is a sidecar that keeps running. Cannot be added or removed later.',
  })),
  containers: list(2, Container, byName(), {
    description: 'The app containers of the pod; at least one. Cannot be added or removed later.',
  }),
  ephemeralContainers: opt(list(34, EphemeralContainer, byName(), {
    description: 'Debugging containers added to a running pod through its ephemeralcontainers subresource; not ' +
      'allowed at creation.',
  })),
  restartPolicy: opt(enumOf(3, RestartPolicies, {
    default: 'Always',
    description: 'When containers that exit are restarted: Always (the default), OnFailure or Never.',
  })),
  terminationGracePeriodSeconds: opt(int64(4, {
    default: DefaultTerminationGracePeriodSeconds,
    'x-orch-emit': 'pointer',
    description: 'Seconds the pod has to stop after it is asked to, before its processes are killed; 0 kills at ' +
      'once. Default 30.',
  })),
  activeDeadlineSeconds: opt(int64(5, {
    'x-orch-emit': 'pointer',
    description: 'Seconds, counted from the pod\'s start, after which it is stopped and marked failed. A positive integer.',
  })),
  dnsPolicy: opt(enumOf(6, DNSPolicies, {
    default: 'ClusterFirst',
    description: 'How the pod\'s DNS is set up: ClusterFirst (the default), ClusterFirstWithHostNet (for pods on the ' +
      'host network), Default (as on the node) or None (only dnsConfig).',
  })),
  nodeSelector: opt(stringMap(7, {
    'x-orch-map-type': 'atomic',
    description: 'Labels a node must carry for the pod to be placed there.',
  })),
  serviceAccountName: opt(str(8, { description: 'Service account the pod runs as.' })),
  serviceAccount: opt(str(9, { description: 'Deprecated alias of serviceAccountName.' })),
  automountServiceAccountToken: opt(bool(21, {
    'x-orch-emit': 'pointer',
    description: 'Whether a token of the service account is mounted automatically; overrides the service account\'s setting.',
  })),
  nodeName: opt(str(10, {
    description: 'Node the pod runs on, normally set by the scheduler. Setting it at creation bypasses the scheduler.',
  })),
  hostNetwork: opt(bool(11, {
    description: 'Use the node\'s network namespace; the pod\'s ports must then be free on the node. Default false.',
  })),
  hostPID: opt(bool(12, { description: 'Use the node\'s process ID namespace. Default false.' })),
  hostIPC: opt(bool(13, { description: 'Use the node\'s IPC namespace. Default false.' })),
  shareProcessNamespace: opt(bool(27, {
    'x-orch-emit': 'pointer',
    description: 'Put all containers in one process namespace, so they can see and signal each other\'s processes. ' +
      'Not with hostPID. Default false.',
  })),
  securityContext: opt(field(14, PodSecurityContext, {
    default: {},
    description: 'Security settings for all containers and for the pod\'s volumes.',
  })),
  imagePullSecrets: opt(list(15, LocalObjectReference, byName(), {
    description: 'Secrets in the pod\'s namespace with the credentials to pull the images.',
  })),
  hostname: opt(str(16, { description: 'Host name of the pod; a system-defined value when unset.' })),
  subdomain: opt(str(17, {
    description: 'Subdomain of the pod; with it the pod\'s full name is <hostname>.<subdomain>.<namespace>.svc.<cluster domain>.',
  })),
  affinity: opt(field(18, Affinity, { description: 'Node and pod affinity rules for scheduling.' })),
  schedulerName: opt(str(19, { default: DefaultSchedulerName, description: 'Scheduler that places the pod. Default default-scheduler.' })),
  tolerations: opt(list(22, Toleration, { listType: 'atomic' }, { description: 'Node taints the pod tolerates.' })),
  hostAliases: opt(list(23, HostAlias, {
    patchStrategy: 'merge', patchMergeKey: 'ip', listType: 'map', mapKeys: ['ip'],
  }, { description: 'Entries added to the pod\'s hosts file.' })),
  priorityClassName: opt(str(24, {
    description: 'PriorityClass that gives the pod its priority; the default class, or priority 0, when unset.',
  })),
  priority: opt(int32(25, {
    'x-orch-emit': 'pointer',
    description: 'Priority of the pod, filled in from priorityClassName on admission; higher is more important.',
  })),
  dnsConfig: opt(field(26, PodDNSConfig, { description: 'DNS settings merged into those of dnsPolicy.' })),
  readinessGates: opt(list(28, PodReadinessGate, { listType: 'atomic' }, {
    description: 'Extra conditions that must be True for the pod to be ready.',
  })),
  runtimeClassName: opt(str(29, {
    'x-orch-emit': 'pointer',
    description: 'RuntimeClass that runs the pod; the node\'s default runtime when unset.',
  })),
  enableServiceLinks: opt(bool(30, {
    'x-orch-emit': 'pointer',
    description: 'Whether environment variables describing the services of the namespace are set, as Docker links ' +
      'did. True when unset.',
  })),
  preemptionPolicy: opt(enumOf(31, PreemptionPolicies, {
    'x-orch-emit': 'pointer',
    description: 'Whether the pod may evict lower-priority pods to fit: PreemptLowerPriority (the default) or Never.',
  })),
  overhead: opt(resourceList(32, {
    description: 'Resources the pod\'s sandbox uses on top of its containers, filled in from the RuntimeClass on admission.',
  })),
  topologySpreadConstraints: opt(list(33, TopologySpreadConstraint, {
    patchStrategy: 'merge', patchMergeKey: 'topologyKey', listType: 'map', mapKeys: ['topologyKey', 'whenUnsatisfiable'],
  }, { description: 'How this pod and its peers are spread across topology domains; all constraints apply.' })),
  setHostnameAsFQDN: opt(bool(35, {
    'x-orch-emit': 'pointer',
    description: 'Make the host name seen in the pod its fully qualified domain name instead of the short name. Default false.',
  })),
  os: opt(field(36, PodOS, { description: 'Operating system of the pod; when set, validation applies its rules.' })),
  hostUsers: opt(bool(37, {
    'x-orch-emit': 'pointer',
    description: 'Whether the pod uses the node\'s user namespace; false gives it a user namespace of its own. ' +
      'Default true.',
  })),
  schedulingGates: opt(list(38, PodSchedulingGate, byName(), {
    description: 'Gates that keep the pod from being scheduled until all are removed. Only set at creation; may ' +
      'only be removed later.',
  })),
  resourceClaims: opt(list(39, PodResourceClaim, byName('merge,retainKeys'), {
    description: 'Dynamically allocated resources the containers may use, each under a name. Immutable.',
  })),
  resources: opt(field(40, ResourceRequirements, {
    description: 'Resources for the pod as a whole, shared by its containers: cpu, memory and hugepages only ' +
      '(PodLevelResources feature).',
  })),
  hostnameOverride: opt(str(41, {
    'x-orch-emit': 'pointer',
    description: 'Host name seen in the pod instead of the one from hostname and subdomain; DNS records are unchanged. ' +
      'A DNS subdomain of at most 64 characters; not with setHostnameAsFQDN or hostNetwork.',
  })),
  workloadRef: opt(field(42, WorkloadReference, { description: 'The Workload and pod group the pod belongs to.' })),
}, { required: ['containers'], description: 'Desired state of a pod: its containers, volumes, and scheduling and runtime settings.' });
export type PodSpec = Static<typeof PodSpec>;

export const PodTemplateSpec = object(`${P}.PodTemplateSpec`, {
  // Both are plain structs upstream, so a decoded template always has them.
  metadata: opt(field(1, ObjectMeta, {
    'x-orch-emit': 'always',
    description: 'Metadata of the pods made from the template, such as their labels.',
  })),
  spec: opt(field(2, PodSpec, { 'x-orch-emit': 'always', description: 'Desired state of the pods made from the template.' })),
}, { description: 'The pod a workload creates: its metadata and spec.' });
export type PodTemplateSpec = Static<typeof PodTemplateSpec>;
