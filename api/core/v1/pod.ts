// Pod: a group of containers run together on one node, with the status the node reports, and
// Binding, the request that assigns a pod to a node. Field numbers follow upstream core/v1
// generated.proto; the spec is the PodSpec shared with pod templates.
import { Type, type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, int64, list, object, opt, str } from '../../schema.js';
import { resourceList, time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';
import { ObjectReference } from './object-reference.js';
import { PodSpec } from './pod-template.js';
import { defaultPodSpec } from './pod-template-defaults.js';
import { ResourceRequirements } from './resource-requirements.js';

const P = 'io.orch.api.core.v1';

export const PodPhases = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;
export const PodQOSClasses = ['Guaranteed', 'Burstable', 'BestEffort'] as const;
export const ConditionStatuses = ['True', 'False', 'Unknown'] as const;

export const PodCondition = object(`${P}.PodCondition`, {
  type: str(1, { description: 'Type of the condition, such as PodScheduled, Initialized, ContainersReady or Ready.' }),
  observedGeneration: opt(int64(7, { description: 'The metadata.generation of the pod the condition was set for.' })),
  status: enumOf(2, ConditionStatuses, { description: 'True, False or Unknown.' }),
  lastProbeTime: opt(time(3, { 'x-orch-emit': 'always', description: 'When the condition was last checked.' })),
  lastTransitionTime: opt(time(4, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(5, { description: 'Machine-readable CamelCase reason for the last transition.' })),
  message: opt(str(6, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of a pod at a point in time.' });

export const HostIP = object(`${P}.HostIP`, {
  ip: str(1, { description: 'An IP address of the node the pod runs on.' }),
}, { required: ['ip'], description: 'An IP address of the pod\'s node.' });

export const PodIP = object(`${P}.PodIP`, {
  ip: str(1, { description: 'An IP address given to the pod.' }),
}, { required: ['ip'], description: 'An IP address of the pod.' });

export const ContainerStateWaiting = object(`${P}.ContainerStateWaiting`, {
  reason: opt(str(1, { description: 'Why the container is not running yet, such as ContainerCreating or CrashLoopBackOff.' })),
  message: opt(str(2, { description: 'Human-readable details of why the container is not running yet.' })),
}, { description: 'A container that has not started yet or waits to be restarted.' });

export const ContainerStateRunning = object(`${P}.ContainerStateRunning`, {
  startedAt: opt(time(1, { 'x-orch-emit': 'always', description: 'When the container last (re)started.' })),
}, { description: 'A container that is running.' });

export const ContainerStateTerminated = object(`${P}.ContainerStateTerminated`, {
  exitCode: int32(1, { description: 'Exit status of the container\'s last run.' }),
  signal: opt(int32(2, { description: 'Signal that ended the container\'s last run, if one did.' })),
  reason: opt(str(3, { description: 'Machine-readable reason the container ended, such as Completed or OOMKilled.' })),
  message: opt(str(4, { description: 'Human-readable details of how the container ended.' })),
  startedAt: opt(time(5, { 'x-orch-emit': 'always', description: 'When the container\'s last run started.' })),
  finishedAt: opt(time(6, { 'x-orch-emit': 'always', description: 'When the container\'s last run ended.' })),
  containerID: opt(str(7, { description: 'Runtime ID of the container, as <type>://<id>.' })),
}, { required: ['exitCode'], description: 'A container that ran and ended.' });

export const ContainerState = object(`${P}.ContainerState`, {
  waiting: opt(field(1, ContainerStateWaiting, { description: 'Set while the container waits to start.' })),
  running: opt(field(2, ContainerStateRunning, { description: 'Set while the container runs.' })),
  terminated: opt(field(3, ContainerStateTerminated, { description: 'Set once the container has ended.' })),
}, { description: 'The state of a container: at most one of waiting, running and terminated; waiting when none is set.' });
export type ContainerState = Static<typeof ContainerState>;

export const VolumeMountStatus = object(`${P}.VolumeMountStatus`, {
  name: str(1, { description: 'Name of the mounted volume, as in the container\'s volumeMounts.' }),
  mountPath: str(2, { description: 'Path in the container at which the volume is mounted.' }),
  readOnly: opt(bool(3, { description: 'Whether the mount is read-only.' })),
  recursiveReadOnly: opt(str(4, {
    'x-orch-emit': 'pointer',
    description: 'How read-only applies to sub-mounts: Disabled, or Enabled when it is recursive.',
  })),
}, { required: ['name', 'mountPath'], description: 'How a volume is actually mounted in a container.' });

export const LinuxContainerUser = object(`${P}.LinuxContainerUser`, {
  uid: int64(1, { description: 'User ID the first process of the container runs as.' }),
  gid: int64(2, { description: 'Primary group ID of the first process of the container.' }),
  supplementalGroups: opt(list(3, Type.Integer({ format: 'int64' }), { listType: 'atomic' }, {
    description: 'Supplementary group IDs of the first process of the container.',
  })),
}, { required: ['uid', 'gid'], description: 'The Linux identity the container\'s first process runs with.' });

export const ContainerUser = object(`${P}.ContainerUser`, {
  linux: opt(field(1, LinuxContainerUser, { description: 'The identity on Linux.' })),
}, { description: 'The identity the container\'s first process actually runs with.' });

export const ResourceHealth = object(`${P}.ResourceHealth`, {
  resourceID: str(1, { description: 'ID of the device or resource, unique for its resource name.' }),
  health: opt(str(2, { description: 'Healthy, Unhealthy or Unknown.' })),
}, { required: ['resourceID'], description: 'The health of one resource allocated to a container.' });

export const ResourceStatus = object(`${P}.ResourceStatus`, {
  name: str(1, { description: 'Name of the resource: a name from the container\'s resources or a claim:<claim>/<request>.' }),
  resources: opt(list(2, ResourceHealth, { listType: 'map', mapKeys: ['resourceID'] }, {
    description: 'Health of each allocated resource of that name.',
  })),
}, { required: ['name'], description: 'The health of the resources of one name allocated to a container.' });

export const ContainerStatus = object(`${P}.ContainerStatus`, {
  name: str(1, { description: 'Name of the container, as in the pod\'s spec.' }),
  state: opt(field(2, ContainerState, { 'x-orch-emit': 'always', description: 'Current state of the container.' })),
  lastState: opt(field(3, ContainerState, {
    'x-orch-emit': 'always',
    description: 'State of the container\'s previous run, usually its termination; empty when it has not restarted.',
  })),
  ready: bool(4, { 'x-orch-emit': 'always', description: 'Whether the container passes its readiness probe.' }),
  restartCount: int32(5, { 'x-orch-emit': 'always', description: 'Number of times the container has been restarted.' }),
  image: str(6, { 'x-orch-emit': 'always', description: 'Image the container runs, as the runtime reports it.' }),
  imageID: str(7, { 'x-orch-emit': 'always', description: 'ID of the image the container runs.' }),
  containerID: opt(str(8, { description: 'Runtime ID of the container, as <type>://<id>.' })),
  started: opt(bool(9, {
    'x-orch-emit': 'pointer',
    description: 'Whether the container has passed its startup probe; reset when it restarts.',
  })),
  allocatedResources: opt(resourceList(10, { description: 'Compute resources the node allocated to the container.' })),
  resources: opt(field(11, ResourceRequirements, { description: 'Requests and limits actually applied to the running container.' })),
  volumeMounts: opt(list(12, VolumeMountStatus, {
    patchStrategy: 'merge', patchMergeKey: 'mountPath', listType: 'map', mapKeys: ['mountPath'],
  }, { description: 'How the container\'s volumes are mounted.' })),
  user: opt(field(13, ContainerUser, { description: 'The identity the container\'s first process runs with.' })),
  allocatedResourcesStatus: opt(list(14, ResourceStatus, {
    patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', mapKeys: ['name'],
  }, { description: 'Health of the resources allocated to the container.' })),
  stopSignal: opt(str(15, {
    'x-orch-emit': 'pointer',
    description: 'Signal sent to the container to stop it, from its lifecycle or the image.',
  })),
}, {
  required: ['name', 'ready', 'restartCount', 'image', 'imageID'],
  description: 'The observed state of one container of a pod.',
});
export type ContainerStatus = Static<typeof ContainerStatus>;

export const PodResourceClaimStatus = object(`${P}.PodResourceClaimStatus`, {
  name: str(1, { description: 'Name of the entry in spec.resourceClaims.' }),
  resourceClaimName: opt(str(2, {
    'x-orch-emit': 'pointer',
    description: 'Name of the ResourceClaim made for the pod from a template; unset when none is needed.',
  })),
}, { required: ['name'], description: 'The ResourceClaim made for one of the pod\'s claim templates.' });

export const ContainerExtendedResourceRequest = object(`${P}.ContainerExtendedResourceRequest`, {
  containerName: str(1, { description: 'Name of the container asking for the extended resource.' }),
  resourceName: str(2, { description: 'Name of the extended resource.' }),
  requestName: str(3, { description: 'Name of the request in the special ResourceClaim that serves it.' }),
}, { required: ['containerName', 'resourceName', 'requestName'], description: 'Which request of a claim serves an extended resource of a container.' });

export const PodExtendedResourceClaimStatus = object(`${P}.PodExtendedResourceClaimStatus`, {
  requestMappings: list(1, ContainerExtendedResourceRequest, { listType: 'atomic' }, {
    description: 'Which request of the claim serves each extended resource of each container.',
  }),
  resourceClaimName: str(2, { description: 'Name of the ResourceClaim made for the pod\'s extended resources.' }),
}, {
  required: ['requestMappings', 'resourceClaimName'],
  description: 'The ResourceClaim made to serve the pod\'s extended resources through dynamic resource allocation.',
});

export const PodStatus = object(`${P}.PodStatus`, {
  observedGeneration: opt(int64(17, { description: 'The metadata.generation of the pod this status was written for.' })),
  phase: opt(enumOf(1, PodPhases, {
    description: 'Where the pod is in its life: Pending, Running, Succeeded, Failed or Unknown.',
  })),
  conditions: opt(list(2, PodCondition, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', mapKeys: ['type'] }, {
    description: 'Current conditions of the pod.',
  })),
  message: opt(str(3, { description: 'Human-readable details of why the pod is in its state.' })),
  reason: opt(str(4, { description: 'Machine-readable CamelCase reason the pod is in its state, such as Evicted.' })),
  nominatedNodeName: opt(str(11, {
    description: 'Node on which the scheduler means to place the pod once it has preempted pods there; not a promise.',
  })),
  hostIP: opt(str(5, { description: 'Primary IP address of the node the pod is assigned to.' })),
  hostIPs: opt(list(16, HostIP, { patchStrategy: 'merge', patchMergeKey: 'ip', listType: 'atomic' }, {
    description: 'IP addresses of the node, at most one per address family; the first equals hostIP.',
  })),
  podIP: opt(str(6, { description: 'Primary IP address of the pod.' })),
  podIPs: opt(list(12, PodIP, { patchStrategy: 'merge', patchMergeKey: 'ip', listType: 'map', mapKeys: ['ip'] }, {
    description: 'IP addresses of the pod, at most one per address family; the first equals podIP.',
  })),
  startTime: opt(time(7, { 'x-orch-emit': 'pointer', description: 'When the node accepted the pod, before its images were pulled.' })),
  initContainerStatuses: opt(list(10, ContainerStatus, { listType: 'atomic' }, {
    description: 'Status of each init container, in spec order.',
  })),
  containerStatuses: opt(list(8, ContainerStatus, { listType: 'atomic' }, {
    description: 'Status of each app container.',
  })),
  qosClass: opt(enumOf(9, PodQOSClasses, {
    description: 'Quality of service class derived from the containers\' requests and limits: Guaranteed, Burstable or BestEffort.',
  })),
  ephemeralContainerStatuses: opt(list(13, ContainerStatus, { listType: 'atomic' }, {
    description: 'Status of each ephemeral container.',
  })),
  resize: opt(str(14, { description: 'Deprecated state of an in-place resize of the containers\' resources.' })),
  resourceClaimStatuses: opt(list(15, PodResourceClaimStatus, {
    patchStrategy: 'merge,retainKeys', patchMergeKey: 'name', listType: 'map', mapKeys: ['name'],
  }, { description: 'The ResourceClaims made for the pod\'s claim templates.' })),
  extendedResourceClaimStatus: opt(field(18, PodExtendedResourceClaimStatus, {
    description: 'The ResourceClaim that serves the pod\'s extended resources, if any.',
  })),
  allocatedResources: opt(resourceList(19, { description: 'Pod-level compute resources the node allocated.' })),
  resources: opt(field(20, ResourceRequirements, { description: 'Pod-level requests and limits actually applied.' })),
}, { description: 'The observed state of a pod, written by the node and the control plane; may lag behind.' });
export type PodStatus = Static<typeof PodStatus>;

export const Pod = topLevel(`${P}.Pod`, {
  spec: opt(field(2, PodSpec, { 'x-orch-emit': 'always', description: 'The desired state: containers, volumes and scheduling.' })),
  status: opt(field(3, PodStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written through the status sub-resource; may lag behind.',
  })),
}, { description: 'A group of containers that run together on one node, sharing network and storage.' });
export type Pod = Static<typeof Pod>;

/**
 * Upstream SetObjectDefaults_Pod beyond the schema: the PodSpec defaults that depend on other
 * fields, and enableServiceLinks true. (Phase and qosClass are set when the pod is created.)
 */
export function defaultPod(pod: Pod): void {
  const spec: unknown = pod.spec;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return;
  defaultPodSpec(spec as PodSpec);
  const s = spec as Record<string, unknown>;
  if (s.enableServiceLinks === undefined || s.enableServiceLinks === null) s.enableServiceLinks = true;
  // A container (or the pod) that only limits a resource requests as much as it limits.
  for (const key of ['initContainers', 'containers']) {
    const list = s[key];
    if (!Array.isArray(list)) continue;
    for (const c of list as unknown[]) {
      if (isObj(c)) requestsFromLimits(c.resources);
    }
  }
  requestsFromLimits(s.resources);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function requestsFromLimits(resources: unknown): void {
  if (!isObj(resources) || !isObj(resources.limits)) return;
  const requests: Obj = isObj(resources.requests) ? resources.requests : {};
  let changed = false;
  for (const [name, value] of Object.entries(resources.limits)) {
    if (requests[name] === undefined) {
      requests[name] = value;
      changed = true;
    }
  }
  if (changed || isObj(resources.requests)) resources.requests = requests;
}

export const Binding = topLevel(`${P}.Binding`, {
  target: field(2, ObjectReference, { 'x-orch-emit': 'always', description: 'The object (a Node) the pod is bound to.' }),
}, { required: ['target'], description: 'Binds a pod to a node: the scheduler\'s way of placing a pod. Only created, never stored.' });
export type Binding = Static<typeof Binding>;
