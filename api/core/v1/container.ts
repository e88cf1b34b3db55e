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
  name: opt(str(1, {
    description: 'Name of the port, up to 15 lowercase letters, digits and dashes, unique in the pod; services can ' +
      'refer to the port by it.',
  })),
  hostPort: opt(int32(2, {
    description: 'Port on the node at which the container port is also reachable, from 1 to 65535. Rarely needed; ' +
      'with hostNetwork it must equal containerPort.',
  })),
  containerPort: int32(3, { description: 'Port number on the pod\'s IP address, from 1 to 65535.' }),
  protocol: opt(enumOf(4, Protocols, { default: 'TCP', description: 'TCP (the default), UDP or SCTP.' })),
  hostIP: opt(str(5, { description: 'Node IP address the host port is bound to.' })),
}, { required: ['containerPort'], description: 'A network port a container listens on.' });
export type ContainerPort = Static<typeof ContainerPort>;

export const VolumeMount = object(`${P}.VolumeMount`, {
  name: str(1, { description: 'Name of the pod volume to mount.' }),
  readOnly: opt(bool(2, { description: 'Mount read-only. Default false.' })),
  recursiveReadOnly: opt(enumOf(7, RecursiveReadOnlyModes, {
    'x-orch-emit': 'pointer',
    description: 'Whether submounts are read-only too: Disabled (the default), IfPossible or Enabled. The latter two ' +
      'need readOnly true and mountPropagation None.',
  })),
  mountPath: str(3, { description: 'Path in the container to mount the volume at; must not contain a colon.' }),
  subPath: opt(str(4, { description: 'Path inside the volume to mount instead of its root. Default empty (the root).' })),
  mountPropagation: opt(enumOf(5, MountPropagationModes, {
    'x-orch-emit': 'pointer',
    description: 'How mounts propagate between node and container: None (the default), HostToContainer, or ' +
      'Bidirectional (privileged containers only).',
  })),
  subPathExpr: opt(str(6, {
    description: 'Like subPath, but $(NAME) references to the container\'s environment are expanded. Not allowed ' +
      'together with subPath.',
  })),
}, { required: ['name', 'mountPath'], description: 'Where and how a volume of the pod is mounted in a container.' });
export type VolumeMount = Static<typeof VolumeMount>;

export const VolumeDevice = object(`${P}.VolumeDevice`, {
  name: str(1, { description: 'Name of a persistentVolumeClaim volume of the pod.' }),
  devicePath: str(2, { description: 'Path of the device in the container.' }),
}, { required: ['name', 'devicePath'], description: 'A raw block volume exposed to a container as a device.' });
export type VolumeDevice = Static<typeof VolumeDevice>;

export const ContainerResizePolicy = object(`${P}.ContainerResizePolicy`, {
  resourceName: str(1, { description: 'The resource the policy is for: cpu or memory.' }),
  restartPolicy: enumOf(2, ResizeRestartPolicies, {
    description: 'NotRequired (resize the running container) or RestartContainer (restart it with the new values).',
  }),
}, { required: ['resourceName', 'restartPolicy'], description: 'What happens to a container when one of its resources is resized.' });
export type ContainerResizePolicy = Static<typeof ContainerResizePolicy>;

export const ContainerRestartRuleOnExitCodes = object(`${P}.ContainerRestartRuleOnExitCodes`, {
  // Required, but upstream tags it omitempty.
  operator: enumOf(1, ['In', 'NotIn'] as const, {
    'x-orch-emit': 'omitempty',
    description: 'In: the rule matches when the exit code is one of values; NotIn: when it is none of them.',
  }),
  values: opt(list(2, Type.Integer({ format: 'int32' }), { listType: 'set' }, {
    description: 'Exit codes compared with, at most 255 and without duplicates.',
  })),
}, { required: ['operator'], description: 'The exit codes a restart rule matches.' });

export const ContainerRestartRule = object(`${P}.ContainerRestartRule`, {
  // Required, but upstream tags it omitempty.
  action: enumOf(1, ['Restart'] as const, {
    'x-orch-emit': 'omitempty',
    description: 'What to do when the rule matches; only Restart is supported.',
  }),
  exitCodes: opt(field(2, ContainerRestartRuleOnExitCodes, { description: 'Exit codes the rule matches.' })),
}, { required: ['action'], description: 'A rule on how a container exited that decides whether it is restarted.' });
export type ContainerRestartRule = Static<typeof ContainerRestartRule>;

/** The fields of Container; EphemeralContainer embeds the same set as EphemeralContainerCommon. */
const containerFields = {
  name: str(1, { description: 'Name of the container, a DNS label unique within the pod. Cannot be changed.' }),
  image: opt(str(2, {
    description: 'Image to run. May be left empty in templates so that configuration management can fill it in.',
  })),
  command: opt(list(3, Type.String(), { listType: 'atomic' }, {
    description: 'Entrypoint, run without a shell, replacing the image\'s ENTRYPOINT. $(NAME) references to ' +
      'environment variables are expanded and $$ escapes them. Cannot be changed.',
  })),
  args: opt(list(4, Type.String(), { listType: 'atomic' }, {
    description: 'Arguments of the entrypoint, replacing the image\'s CMD. $(NAME) references are expanded as in ' +
      'command. Cannot be changed.',
  })),
  workingDir: opt(str(5, { description: 'Working directory of the container; the image\'s when empty. Cannot be changed.' })),
  ports: opt(list(6, ContainerPort, {
    patchStrategy: 'merge', patchMergeKey: 'containerPort', listType: 'map', mapKeys: ['containerPort', 'protocol'],
  }, {
    description: 'Ports the container listens on. Informational: a port the container listens on is reachable ' +
      'whether it is listed or not. Cannot be changed.',
  })),
  envFrom: opt(list(19, EnvFromSource, { listType: 'atomic' }, {
    description: 'ConfigMaps and Secrets whose keys become environment variables. For a key defined twice the last ' +
      'source wins, and env wins over all of them. Cannot be changed.',
  })),
  env: opt(list(7, EnvVar, { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', mapKeys: ['name'] }, {
    description: 'Environment variables of the container. Cannot be changed.',
  })),
  // Upstream's resources is a plain struct, always present (and shown as {}) once decoded.
  resources: opt(field(8, ResourceRequirements, {
    default: {},
    'x-orch-emit': 'always',
    description: 'Compute resources the container needs and may use. Not allowed for ephemeral containers.',
  })),
  resizePolicy: opt(list(23, ContainerResizePolicy, { listType: 'atomic' }, {
    description: 'For each resource, what happens when it is resized in place.',
  })),
  restartPolicy: opt(enumOf(24, ContainerRestartPolicies, {
    'x-orch-emit': 'pointer',
    description: 'Restart behaviour of this container instead of the pod\'s. On an init container only Always is ' +
      'allowed, which makes it a sidecar that starts before and keeps running beside the app containers.',
  })),
  restartPolicyRules: opt(list(25, ContainerRestartRule, { listType: 'atomic' }, {
    description: 'Rules checked in order when the container exits; the first match decides, and restartPolicy ' +
      'applies when none matches. At most 20; restartPolicy must be set as well.',
  })),
  volumeMounts: opt(list(9, VolumeMount, {
    patchStrategy: 'merge', patchMergeKey: 'mountPath', listType: 'map', mapKeys: ['mountPath'],
  }, { description: 'Volumes of the pod mounted into the container\'s filesystem. Cannot be changed.' })),
  volumeDevices: opt(list(21, VolumeDevice, {
    patchStrategy: 'merge', patchMergeKey: 'devicePath', listType: 'map', mapKeys: ['devicePath'],
  }, { description: 'Block volumes of the pod exposed to the container as devices.' })),
  livenessProbe: opt(field(10, Probe, {
    description: 'Check of whether the container is alive; it is restarted when the check fails. Cannot be changed.',
  })),
  readinessProbe: opt(field(11, Probe, {
    description: 'Check of whether the container can serve; the pod is taken out of service endpoints while it ' +
      'fails. Cannot be changed.',
  })),
  startupProbe: opt(field(22, Probe, {
    description: 'Check that must pass once before the other probes start; the container is restarted when it fails. ' +
      'Cannot be changed.',
  })),
  lifecycle: opt(field(12, Lifecycle, { description: 'Hooks run after the container starts and before it stops. Cannot be changed.' })),
  terminationMessagePath: opt(str(13, {
    default: TerminationMessagePathDefault,
    description: 'File whose content becomes the container\'s termination message, at most 4096 bytes. Default ' +
      '/dev/termination-log. Cannot be changed.',
  })),
  terminationMessagePolicy: opt(enumOf(20, TerminationMessagePolicies, {
    default: 'File',
    description: 'File (the default) takes the message from the termination message file only; ' +
      'FallbackToLogsOnError uses the end of the log when the file is empty and the container failed.',
  })),
  // Defaulted by defaultPodTemplateSpec: Always for ':latest' or untagged images, else IfNotPresent.
  imagePullPolicy: opt(enumOf(14, PullPolicies, {
    description: 'When the image is pulled: Always, Never or IfNotPresent. Defaults to Always for a :latest or ' +
      'untagged image, otherwise IfNotPresent. Cannot be changed.',
  })),
  securityContext: opt(field(15, SecurityContext, { description: 'Security settings of the container, overriding the pod\'s.' })),
  stdin: opt(bool(16, { description: 'Keep a stdin buffer open for the container; reads see end of file when false. Default false.' })),
  stdinOnce: opt(bool(17, {
    description: 'Close stdin after the first attached client disconnects, until the container restarts. Needs stdin. ' +
      'Default false.',
  })),
  tty: opt(bool(18, { description: 'Give the container a terminal; needs stdin. Default false.' })),
};

export const Container = object(`${P}.Container`, containerFields, {
  required: ['name'],
  description: 'A container of a pod: the image it runs, with its command, environment, resources, ports, mounts and probes.',
});
export type Container = Static<typeof Container>;

export const EphemeralContainer = object(`${P}.EphemeralContainer`, {
  ...embedded(1, containerFields),
  targetContainerName: opt(str(2, {
    description: 'Container of the pod whose namespaces (IPC, PID, ...) the ephemeral container joins, where the ' +
      'runtime supports it. Unset means only the pod\'s shared namespaces.',
  })),
}, {
  required: ['name'],
  description: 'A temporary container added to a running pod, e.g. for debugging. It gets no resources, ports or ' +
    'probes, is never restarted, and cannot be removed.',
});
export type EphemeralContainer = Static<typeof EphemeralContainer>;
