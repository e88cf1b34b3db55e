// A container of a pod (regular or init) and an ephemeral debugging container, with their ports,
// mounts and restart settings.
import { Type, type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, list, object, opt, str } from '../../schema.js';
import { embedded } from '../../embedded-fields.js';
import { EnvFromSource, EnvVar } from './env.js';
import { Lifecycle, Probe } from './probe.js';
import { ResourceRequirements } from './resource-requirements.js';
import { SecurityContext } from './security-context.js';

const P = 'io.orch.api.core.v1';

export const PullPolicies = ['Always', 'Never', 'IfNotPresent'] as const;
export const Protocols = ['TCP', 'UDP', 'SCTP'] as const;
export const TerminationMessagePolicies = ['File', 'FallbackToLogsOnError'] as const;
export const MountPropagationModes = ['None', 'HostToContainer', 'Bidirectional'] as const;
export const RecursiveReadOnlyModes = ['Disabled', 'IfPossible', 'Enabled'] as const;
export const ContainerRestartPolicies = ['Always', 'OnFailure', 'Never'] as const;
export const ResizeRestartPolicies = ['NotRequired', 'RestartContainer'] as const;

export const TerminationMessagePathDefault = '/dev/termination-log';

export const ContainerPort = object(`${P}.ContainerPort`, {
  name: opt(str(1)),
  hostPort: opt(int32(2)),
  containerPort: int32(3),
  protocol: opt(enumOf(4, Protocols, { default: 'TCP' })),
  hostIP: opt(str(5)),
}, { required: ['containerPort'] });
export type ContainerPort = Static<typeof ContainerPort>;

export const VolumeMount = object(`${P}.VolumeMount`, {
  name: str(1),
  readOnly: opt(bool(2)),
  recursiveReadOnly: opt(enumOf(7, RecursiveReadOnlyModes)),
  mountPath: str(3),
  subPath: opt(str(4)),
  mountPropagation: opt(enumOf(5, MountPropagationModes)),
  subPathExpr: opt(str(6)),
}, { required: ['name', 'mountPath'] });
export type VolumeMount = Static<typeof VolumeMount>;

export const VolumeDevice = object(`${P}.VolumeDevice`, {
  name: str(1),
  devicePath: str(2),
}, { required: ['name', 'devicePath'] });
export type VolumeDevice = Static<typeof VolumeDevice>;

export const ContainerResizePolicy = object(`${P}.ContainerResizePolicy`, {
  resourceName: str(1),
  restartPolicy: enumOf(2, ResizeRestartPolicies),
}, { required: ['resourceName', 'restartPolicy'] });
export type ContainerResizePolicy = Static<typeof ContainerResizePolicy>;

export const ContainerRestartRuleOnExitCodes = object(`${P}.ContainerRestartRuleOnExitCodes`, {
  operator: enumOf(1, ['In', 'NotIn'] as const),
  values: opt(list(2, Type.Integer({ format: 'int32' }), { listType: 'set' })),
}, { required: ['operator'] });

export const ContainerRestartRule = object(`${P}.ContainerRestartRule`, {
  action: enumOf(1, ['Restart'] as const),
  exitCodes: opt(field(2, ContainerRestartRuleOnExitCodes)),
}, { required: ['action'] });
export type ContainerRestartRule = Static<typeof ContainerRestartRule>;

/** The fields of Container; EphemeralContainer embeds the same set as EphemeralContainerCommon. */
const containerFields = {
  name: str(1),
  image: opt(str(2)),
  command: opt(list(3, Type.String(), { listType: 'atomic' })),
  args: opt(list(4, Type.String(), { listType: 'atomic' })),
  workingDir: opt(str(5)),
  ports: opt(list(6, ContainerPort, {
    patchStrategy: 'merge', patchMergeKey: 'containerPort', listType: 'map', mapKeys: ['containerPort', 'protocol'],
  })),
  envFrom: opt(list(19, EnvFromSource, { listType: 'atomic' })),
  env: opt(list(7, EnvVar, { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', mapKeys: ['name'] })),
  // Upstream's resources is a plain struct, always present (and shown as {}) once decoded.
  resources: opt(field(8, ResourceRequirements, { default: {} })),
  resizePolicy: opt(list(23, ContainerResizePolicy, { listType: 'atomic' })),
  restartPolicy: opt(enumOf(24, ContainerRestartPolicies)),
  restartPolicyRules: opt(list(25, ContainerRestartRule, { listType: 'atomic' })),
  volumeMounts: opt(list(9, VolumeMount, {
    patchStrategy: 'merge', patchMergeKey: 'mountPath', listType: 'map', mapKeys: ['mountPath'],
  })),
  volumeDevices: opt(list(21, VolumeDevice, {
    patchStrategy: 'merge', patchMergeKey: 'devicePath', listType: 'map', mapKeys: ['devicePath'],
  })),
  livenessProbe: opt(field(10, Probe)),
  readinessProbe: opt(field(11, Probe)),
  startupProbe: opt(field(22, Probe)),
  lifecycle: opt(field(12, Lifecycle)),
  terminationMessagePath: opt(str(13, { default: TerminationMessagePathDefault })),
  terminationMessagePolicy: opt(enumOf(20, TerminationMessagePolicies, { default: 'File' })),
  // Defaulted by defaultPodTemplateSpec: Always for ':latest' or untagged images, else IfNotPresent.
  imagePullPolicy: opt(enumOf(14, PullPolicies)),
  securityContext: opt(field(15, SecurityContext)),
  stdin: opt(bool(16)),
  stdinOnce: opt(bool(17)),
  tty: opt(bool(18)),
};

export const Container = object(`${P}.Container`, containerFields, { required: ['name'] });
export type Container = Static<typeof Container>;

export const EphemeralContainer = object(`${P}.EphemeralContainer`, {
  ...embedded(1, containerFields),
  targetContainerName: opt(str(2)),
}, { required: ['name'] });
export type EphemeralContainer = Static<typeof EphemeralContainer>;
