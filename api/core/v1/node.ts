// Node: a worker machine, as upstream core/v1 Node. Field numbers follow upstream core/v1
// generated.proto.
import { type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, int64, list, object, opt, str, stringList } from '../../schema.js';
import { resourceList, time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';
import { TaintEffects } from './toleration.js';

const P = 'io.orch.api.core.v1';

export const Taint = object(`${P}.Taint`, {
  key: str(1, { description: 'Key of the taint, a qualified name such as example.com/dedicated.' }),
  value: opt(str(2, { description: 'Value of the taint, a label value.' })),
  effect: enumOf(3, TaintEffects, { description: 'What happens to pods that do not tolerate the taint: NoSchedule, PreferNoSchedule or NoExecute.' }),
  timeAdded: opt(time(4, { 'x-orch-emit': 'pointer', description: 'When the taint was added; set for NoExecute taints only.' })),
}, { required: ['key', 'effect'], description: 'A mark on a node that repels pods which do not tolerate it.' });
export type Taint = Static<typeof Taint>;

export const ConfigMapNodeConfigSource = object(`${P}.ConfigMapNodeConfigSource`, {
  namespace: str(1, { description: 'Namespace of the referenced ConfigMap.' }),
  name: str(2, { description: 'Name of the referenced ConfigMap.' }),
  uid: opt(str(3, { description: 'UID of the referenced ConfigMap; forbidden in spec, required in status.' })),
  resourceVersion: opt(str(4, { description: 'resourceVersion of the referenced ConfigMap; forbidden in spec, required in status.' })),
  kubeletConfigKey: str(5, { description: 'The key of the ConfigMap that holds the node agent configuration.' }),
}, { required: ['namespace', 'name', 'kubeletConfigKey'], description: 'A ConfigMap holding the configuration of a node agent (deprecated dynamic configuration).' });

export const NodeConfigSource = object(`${P}.NodeConfigSource`, {
  configMap: opt(field(2, ConfigMapNodeConfigSource, { description: 'The ConfigMap the configuration comes from.' })),
}, { description: 'Where a node agent takes its configuration from (deprecated dynamic configuration).' });

export const NodeSpec = object(`${P}.NodeSpec`, {
  podCIDR: opt(str(1, { description: 'The IP range (CIDR) pods on this node take addresses from; the first of podCIDRs.' })),
  podCIDRs: opt(stringList(7, { listType: 'set', patchStrategy: 'merge' }, {
    description: 'The IP ranges (CIDRs) of pods on this node, at most one per IP family; cannot change once set.',
  })),
  providerID: opt(str(3, { description: 'ID of the node in its cloud provider, as <provider>://<id>; cannot change once set.' })),
  unschedulable: opt(bool(4, { description: 'Whether new pods are kept off the node (cordoned).' })),
  taints: opt(list(5, Taint, { listType: 'atomic' }, { description: 'Taints that repel pods which do not tolerate them.' })),
  configSource: opt(field(6, NodeConfigSource, { description: 'Deprecated: where the node agent took its configuration from.' })),
  externalID: opt(str(2, { description: 'Deprecated; not used.' })),
}, { description: 'The desired state of a node.' });
export type NodeSpec = Static<typeof NodeSpec>;

export const NodePhases = ['Pending', 'Running', 'Terminated'] as const;

export const NodeCondition = object(`${P}.NodeCondition`, {
  type: str(1, { description: 'Type of the condition, such as Ready, MemoryPressure, DiskPressure or PIDPressure.' }),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const, { description: 'True, False or Unknown.' }),
  lastHeartbeatTime: opt(time(3, { 'x-orch-emit': 'always', description: 'When the condition was last reported.' })),
  lastTransitionTime: opt(time(4, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(5, { description: 'Machine-readable reason for the last transition.' })),
  message: opt(str(6, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of a node, such as whether it is ready.' });
export type NodeCondition = Static<typeof NodeCondition>;

export const NodeAddress = object(`${P}.NodeAddress`, {
  type: opt(str(1, { 'x-orch-emit': 'always', description: 'Kind of address: Hostname, InternalIP, ExternalIP, InternalDNS or ExternalDNS.' })),
  address: opt(str(2, { 'x-orch-emit': 'always', description: 'The address itself.' })),
}, { description: 'One address at which the node can be reached.' });
export type NodeAddress = Static<typeof NodeAddress>;

export const DaemonEndpoint = object(`${P}.DaemonEndpoint`, {
  Port: opt(int32(1, { 'x-orch-emit': 'always', description: 'Port number of the endpoint.' })),
}, { description: 'A port on which a daemon of the node listens.' });

export const NodeDaemonEndpoints = object(`${P}.NodeDaemonEndpoints`, {
  kubeletEndpoint: opt(field(1, DaemonEndpoint, { 'x-orch-emit': 'always', description: 'The port the node agent listens on.' })),
}, { description: 'The ports of the daemons running on the node.' });

export const NodeSwapStatus = object(`${P}.NodeSwapStatus`, {
  capacity: opt(int64(1, { 'x-orch-emit': 'pointer', description: 'Total swap memory of the node in bytes.' })),
}, { description: 'Swap memory of the node.' });

// Upstream writes these even when empty, and a node agent that leaves some out is not refused.
const always = (proto: number, description: string) => opt(str(proto, { 'x-orch-emit': 'always', description }));

export const NodeSystemInfo = object(`${P}.NodeSystemInfo`, {
  machineID: always(1, 'Machine ID reported by the node (/etc/machine-id).'),
  systemUUID: always(2, 'System UUID reported by the node firmware.'),
  bootID: always(3, 'ID of the current boot of the node.'),
  kernelVersion: always(4, 'Kernel version reported by the node (uname -r).'),
  osImage: always(5, 'Operating system image reported by the node (/etc/os-release).'),
  containerRuntimeVersion: always(6, 'Container runtime and its version, as runtime://version.'),
  kubeletVersion: always(7, 'Version of the node agent.'),
  kubeProxyVersion: always(8, 'Deprecated: version of the service proxy; not reliable.'),
  operatingSystem: always(9, 'Operating system of the node, such as linux.'),
  architecture: always(10, 'CPU architecture of the node, such as amd64.'),
  swap: opt(field(11, NodeSwapStatus, { description: 'Swap memory of the node, when it has any.' })),
}, { description: 'Identifiers and versions of the software of a node.' });

export const ContainerImage = object(`${P}.ContainerImage`, {
  names: opt(stringList(1, { listType: 'atomic' }, { 'x-orch-emit': 'always', description: 'Names the image is known by, such as registry/name:tag and registry/name@sha256:....' })),
  sizeBytes: opt(int64(2, { description: 'Size of the image in bytes.' })),
}, { description: 'A container image present on the node.' });

export const AttachedVolume = object(`${P}.AttachedVolume`, {
  name: opt(str(1, { 'x-orch-emit': 'always', description: 'Unique name of the attached volume.' })),
  devicePath: opt(str(2, { 'x-orch-emit': 'always', description: 'Where the volume is available on the node.' })),
}, { description: 'A volume attached to the node.' });

export const NodeConfigStatus = object(`${P}.NodeConfigStatus`, {
  assigned: opt(field(1, NodeConfigSource, { description: 'The configuration source the node was told to use.' })),
  active: opt(field(2, NodeConfigSource, { description: 'The configuration source the node uses now.' })),
  lastKnownGood: opt(field(3, NodeConfigSource, { description: 'The configuration source the node falls back to on errors.' })),
  error: opt(str(4, { description: 'Error met while applying the assigned configuration.' })),
}, { description: 'Deprecated: the state of the dynamic configuration of the node agent.' });

export const NodeRuntimeHandlerFeatures = object(`${P}.NodeRuntimeHandlerFeatures`, {
  recursiveReadOnlyMounts: opt(bool(1, { 'x-orch-emit': 'pointer', description: 'Whether the handler supports recursive read-only mounts.' })),
  userNamespaces: opt(bool(2, { 'x-orch-emit': 'pointer', description: 'Whether the handler supports user namespaces for volumes.' })),
}, { description: 'Features a runtime handler supports.' });

export const NodeRuntimeHandler = object(`${P}.NodeRuntimeHandler`, {
  name: opt(str(1, { 'x-orch-emit': 'always', description: 'Name of the runtime handler; empty for the default one.' })),
  features: opt(field(2, NodeRuntimeHandlerFeatures, { description: 'Features the handler supports.' })),
}, { description: 'A container runtime handler available on the node.' });

export const NodeFeatures = object(`${P}.NodeFeatures`, {
  supplementalGroupsPolicy: opt(bool(1, { 'x-orch-emit': 'pointer', description: 'Whether the node supports the supplementalGroupsPolicy of pods.' })),
}, { description: 'Features the node supports.' });

export const NodeStatus = object(`${P}.NodeStatus`, {
  capacity: opt(resourceList(1, { description: 'Total amounts of the resources of the node, such as cpu, memory and pods.' })),
  allocatable: opt(resourceList(2, { description: 'Amounts of the resources of the node that pods may use.' })),
  phase: opt(enumOf(3, NodePhases, { description: 'Deprecated lifecycle phase of the node: Pending, Running or Terminated.' })),
  conditions: opt(list(4, NodeCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the state of the node, such as Ready.',
  })),
  addresses: opt(list(5, NodeAddress, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Addresses at which the node can be reached.',
  })),
  daemonEndpoints: opt(field(6, NodeDaemonEndpoints, { 'x-orch-emit': 'always', description: 'Ports of the daemons running on the node.' })),
  nodeInfo: opt(field(7, NodeSystemInfo, { 'x-orch-emit': 'always', description: 'Identifiers and software versions of the node.' })),
  images: opt(list(8, ContainerImage, { listType: 'atomic' }, { description: 'Container images present on the node.' })),
  volumesInUse: opt(stringList(9, { listType: 'atomic' }, { description: 'Unique names of the volumes attached and mounted on the node.' })),
  volumesAttached: opt(list(10, AttachedVolume, { listType: 'atomic' }, { description: 'Volumes attached to the node.' })),
  config: opt(field(11, NodeConfigStatus, { description: 'Deprecated: the state of the dynamic configuration of the node agent, as the agent reports it.' })),
  runtimeHandlers: opt(list(12, NodeRuntimeHandler, { listType: 'atomic' }, { description: 'Container runtime handlers available on the node.' })),
  features: opt(field(13, NodeFeatures, { description: 'Features the node reports it supports.' })),
  declaredFeatures: opt(stringList(14, { listType: 'atomic' }, { description: 'Names of the features the node declares it supports.' })),
}, { description: 'The observed state of a node, reported by its agent.' });
export type NodeStatus = Static<typeof NodeStatus>;

export const Node = topLevel(`${P}.Node`, {
  spec: opt(field(2, NodeSpec, { 'x-orch-emit': 'always', description: 'The desired state of the node: its pod ranges, taints and whether it takes new pods.' })),
  status: opt(field(3, NodeStatus, { 'x-orch-emit': 'always', description: 'The observed state of the node, reported by its agent.' })),
}, { description: 'A worker machine that runs pods; names are cluster-wide.' });
export type Node = Static<typeof Node>;
