// Security settings of a pod (PodSecurityContext) and of one container (SecurityContext), with
// the Linux (capabilities, SELinux, seccomp, AppArmor, sysctls, ulimits) and Windows options.
import { Type, type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int64, list, object, opt, str } from '../../schema.js';

const P = 'io.orch.api.core.v1';

export const Capabilities = object(`${P}.Capabilities`, {
  add: opt(list(1, Type.String(), { listType: 'atomic' }, { description: 'Capabilities to add, e.g. NET_ADMIN.' })),
  drop: opt(list(2, Type.String(), { listType: 'atomic' }, { description: 'Capabilities to remove; ALL removes every one.' })),
}, { description: 'Linux capabilities added to or removed from the container runtime\'s default set.' });
export type Capabilities = Static<typeof Capabilities>;

export const SELinuxOptions = object(`${P}.SELinuxOptions`, {
  user: opt(str(1, { description: 'SELinux user part of the label.' })),
  role: opt(str(2, { description: 'SELinux role part of the label.' })),
  type: opt(str(3, { description: 'SELinux type part of the label.' })),
  level: opt(str(4, { description: 'SELinux level part of the label.' })),
}, { description: 'The SELinux label given to a container.' });
export type SELinuxOptions = Static<typeof SELinuxOptions>;

export const ProfileTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'] as const;

export const SeccompProfile = object(`${P}.SeccompProfile`, {
  type: enumOf(1, ProfileTypes, {
    description: 'Localhost (a profile file on the node), RuntimeDefault (the container runtime\'s profile) or Unconfined (none).',
  }),
  localhostProfile: opt(str(2, {
    'x-orch-emit': 'pointer',
    description: 'Path of the profile, relative to the node\'s seccomp profile directory. Set exactly when type is Localhost.',
  })),
}, { required: ['type'], description: 'The seccomp profile a container runs with.' });
export type SeccompProfile = Static<typeof SeccompProfile>;

export const AppArmorProfile = object(`${P}.AppArmorProfile`, {
  type: enumOf(1, ProfileTypes, {
    description: 'Localhost (a profile loaded on the node), RuntimeDefault (the container runtime\'s profile) or Unconfined (none).',
  }),
  localhostProfile: opt(str(2, {
    'x-orch-emit': 'pointer',
    description: 'Name of the profile loaded on the node. Set exactly when type is Localhost.',
  })),
}, { required: ['type'], description: 'The AppArmor profile a container runs with.' });
export type AppArmorProfile = Static<typeof AppArmorProfile>;

export const WindowsSecurityContextOptions = object(`${P}.WindowsSecurityContextOptions`, {
  gmsaCredentialSpecName: opt(str(1, { 'x-orch-emit': 'pointer', description: 'Name of the GMSA credential spec to use.' })),
  gmsaCredentialSpec: opt(str(2, {
    'x-orch-emit': 'pointer',
    description: 'Content of the GMSA credential spec named by gmsaCredentialSpecName, usually filled in by a webhook.',
  })),
  runAsUserName: opt(str(3, {
    'x-orch-emit': 'pointer',
    description: 'Windows user name that runs the container\'s entrypoint; the image\'s default when unset.',
  })),
  hostProcess: opt(bool(4, {
    'x-orch-emit': 'pointer',
    description: 'Run as a Windows host process container. All containers of such a pod must set it, and the pod ' +
      'must use the host network.',
  })),
}, { description: 'Security settings that apply to Windows containers only.' });
export type WindowsSecurityContextOptions = Static<typeof WindowsSecurityContextOptions>;

export const Sysctl = object(`${P}.Sysctl`, {
  name: str(1, { description: 'Name of the kernel parameter, e.g. net.core.somaxconn.' }),
  value: str(2, { description: 'Value to set.' }),
}, { required: ['name', 'value'], description: 'A namespaced kernel parameter set for the pod.' });
export type Sysctl = Static<typeof Sysctl>;

export const Ulimit = object(`${P}.Ulimit`, {
  name: str(1, { description: 'Name of the limit, e.g. nofile.' }),
  hard: int64(2, { description: 'Hard limit, the ceiling the soft limit can be raised to.' }),
  soft: int64(3, { description: 'Soft limit the container\'s processes start with.' }),
}, { required: ['name', 'hard', 'soft'], description: 'A resource limit (ulimit) applied to the processes of a container.' });
export type Ulimit = Static<typeof Ulimit>;

export const ProcMountTypes = ['Default', 'Unmasked'] as const;

export const SecurityContext = object(`${P}.SecurityContext`, {
  capabilities: opt(field(1, Capabilities, {
    description: 'Capabilities to add and drop; the runtime\'s default set when unset. Not for Windows.',
  })),
  privileged: opt(bool(2, {
    'x-orch-emit': 'pointer',
    description: 'Run privileged, which is close to root on the node. Default false. Not for Windows.',
  })),
  seLinuxOptions: opt(field(3, SELinuxOptions, {
    description: 'SELinux label of the container, overriding the pod\'s; the runtime picks one when both are unset.',
  })),
  windowsOptions: opt(field(10, WindowsSecurityContextOptions, {
    description: 'Windows settings of the container, overriding the pod\'s.',
  })),
  runAsUser: opt(int64(4, {
    'x-orch-emit': 'pointer',
    description: 'UID that runs the entrypoint, overriding the pod\'s; the image\'s user when both are unset.',
  })),
  runAsGroup: opt(int64(8, {
    'x-orch-emit': 'pointer',
    description: 'Primary GID of the entrypoint, overriding the pod\'s; the runtime\'s default when both are unset.',
  })),
  runAsNonRoot: opt(bool(5, {
    'x-orch-emit': 'pointer',
    description: 'When true, the container is refused if it would run as UID 0. Overrides the pod\'s setting.',
  })),
  readOnlyRootFilesystem: opt(bool(6, {
    'x-orch-emit': 'pointer',
    description: 'Mount the container\'s root filesystem read-only. Default false.',
  })),
  allowPrivilegeEscalation: opt(bool(7, {
    'x-orch-emit': 'pointer',
    description: 'Whether a process may gain more privileges than its parent (no_new_privs is set when false). ' +
      'Always true for privileged containers or those with CAP_SYS_ADMIN.',
  })),
  procMount: opt(enumOf(9, ProcMountTypes, {
    'x-orch-emit': 'pointer',
    description: 'How /proc is mounted: Default (with the runtime\'s masked and read-only paths) or Unmasked.',
  })),
  seccompProfile: opt(field(11, SeccompProfile, { description: 'Seccomp profile of the container, overriding the pod\'s.' })),
  appArmorProfile: opt(field(12, AppArmorProfile, { description: 'AppArmor profile of the container, overriding the pod\'s.' })),
  ulimits: opt(list(13, Ulimit, { listType: 'map', mapKeys: ['name'] }, {
    description: 'Resource limits for the container\'s processes, at most one per name.',
  })),
}, { description: 'Security settings of one container; where they overlap with the pod\'s, these win.' });
export type SecurityContext = Static<typeof SecurityContext>;

export const FSGroupChangePolicies = ['OnRootMismatch', 'Always'] as const;
export const SupplementalGroupsPolicies = ['Merge', 'Strict'] as const;
export const SELinuxChangePolicies = ['MountOption', 'Recursive'] as const;

export const PodSecurityContext = object(`${P}.PodSecurityContext`, {
  seLinuxOptions: opt(field(1, SELinuxOptions, { description: 'SELinux label of every container that sets none itself.' })),
  windowsOptions: opt(field(8, WindowsSecurityContextOptions, {
    description: 'Windows settings of every container that sets none itself.',
  })),
  runAsUser: opt(int64(2, {
    'x-orch-emit': 'pointer',
    description: 'UID that runs the entrypoint of every container that sets none itself; the image\'s user when unset.',
  })),
  runAsGroup: opt(int64(6, {
    'x-orch-emit': 'pointer',
    description: 'Primary GID of the entrypoint of every container that sets none itself.',
  })),
  runAsNonRoot: opt(bool(3, {
    'x-orch-emit': 'pointer',
    description: 'When true, containers that would run as UID 0 are refused.',
  })),
  supplementalGroups: opt(list(4, Type.Integer({ format: 'int64' }), { listType: 'atomic' }, {
    description: 'Group IDs added to the first process of every container, besides its primary GID.',
  })),
  supplementalGroupsPolicy: opt(enumOf(12, SupplementalGroupsPolicies, {
    'x-orch-emit': 'pointer',
    description: 'How the supplementary groups are worked out: Merge (the default) also adds the groups of the ' +
      'image\'s /etc/group; Strict uses only those listed here, fsGroup and runAsGroup.',
  })),
  fsGroup: opt(int64(5, {
    'x-orch-emit': 'pointer',
    description: 'Group ID added to every container and given ownership of supported volumes; new files there belong to it.',
  })),
  sysctls: opt(list(7, Sysctl, { listType: 'atomic' }, {
    description: 'Namespaced kernel parameters for the pod. One the runtime does not support keeps the pod from starting.',
  })),
  fsGroupChangePolicy: opt(enumOf(9, FSGroupChangePolicies, {
    'x-orch-emit': 'pointer',
    description: 'When volume ownership and permissions are changed to fsGroup: OnRootMismatch (only when the volume ' +
      'root differs) or Always (the default).',
  })),
  seccompProfile: opt(field(10, SeccompProfile, { description: 'Seccomp profile of every container that sets none itself.' })),
  appArmorProfile: opt(field(11, AppArmorProfile, { description: 'AppArmor profile of every container that sets none itself.' })),
  seLinuxChangePolicy: opt(enumOf(13, SELinuxChangePolicies, {
    'x-orch-emit': 'pointer',
    description: 'How volumes get the pod\'s SELinux label: MountOption (a mount option, quick) or Recursive (every ' +
      'file relabelled).',
  })),
}, { description: 'Security settings for the whole pod: defaults for its containers, and ownership of its volumes.' });
export type PodSecurityContext = Static<typeof PodSecurityContext>;
