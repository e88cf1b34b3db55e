// Security settings of a pod (PodSecurityContext) and of one container (SecurityContext), with
// the Linux (capabilities, SELinux, seccomp, AppArmor, sysctls, ulimits) and Windows options.
import { Type, type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int64, list, object, opt, str } from '../../schema.js';

const P = 'io.orch.api.core.v1';

export const Capabilities = object(`${P}.Capabilities`, {
  add: opt(list(1, Type.String(), { listType: 'atomic' })),
  drop: opt(list(2, Type.String(), { listType: 'atomic' })),
});
export type Capabilities = Static<typeof Capabilities>;

export const SELinuxOptions = object(`${P}.SELinuxOptions`, {
  user: opt(str(1)),
  role: opt(str(2)),
  type: opt(str(3)),
  level: opt(str(4)),
});
export type SELinuxOptions = Static<typeof SELinuxOptions>;

export const ProfileTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'] as const;

export const SeccompProfile = object(`${P}.SeccompProfile`, {
  type: enumOf(1, ProfileTypes),
  localhostProfile: opt(str(2)),
}, { required: ['type'] });
export type SeccompProfile = Static<typeof SeccompProfile>;

export const AppArmorProfile = object(`${P}.AppArmorProfile`, {
  type: enumOf(1, ProfileTypes),
  localhostProfile: opt(str(2)),
}, { required: ['type'] });
export type AppArmorProfile = Static<typeof AppArmorProfile>;

export const WindowsSecurityContextOptions = object(`${P}.WindowsSecurityContextOptions`, {
  gmsaCredentialSpecName: opt(str(1)),
  gmsaCredentialSpec: opt(str(2)),
  runAsUserName: opt(str(3)),
  hostProcess: opt(bool(4)),
});
export type WindowsSecurityContextOptions = Static<typeof WindowsSecurityContextOptions>;

export const Sysctl = object(`${P}.Sysctl`, {
  name: str(1),
  value: str(2),
}, { required: ['name', 'value'] });
export type Sysctl = Static<typeof Sysctl>;

export const Ulimit = object(`${P}.Ulimit`, {
  name: str(1),
  hard: int64(2),
  soft: int64(3),
}, { required: ['name', 'hard', 'soft'] });
export type Ulimit = Static<typeof Ulimit>;

export const ProcMountTypes = ['Default', 'Unmasked'] as const;

export const SecurityContext = object(`${P}.SecurityContext`, {
  capabilities: opt(field(1, Capabilities)),
  privileged: opt(bool(2)),
  seLinuxOptions: opt(field(3, SELinuxOptions)),
  windowsOptions: opt(field(10, WindowsSecurityContextOptions)),
  runAsUser: opt(int64(4)),
  runAsGroup: opt(int64(8)),
  runAsNonRoot: opt(bool(5)),
  readOnlyRootFilesystem: opt(bool(6)),
  allowPrivilegeEscalation: opt(bool(7)),
  procMount: opt(enumOf(9, ProcMountTypes)),
  seccompProfile: opt(field(11, SeccompProfile)),
  appArmorProfile: opt(field(12, AppArmorProfile)),
  ulimits: opt(list(13, Ulimit, { listType: 'map', mapKeys: ['name'] })),
});
export type SecurityContext = Static<typeof SecurityContext>;

export const FSGroupChangePolicies = ['OnRootMismatch', 'Always'] as const;
export const SupplementalGroupsPolicies = ['Merge', 'Strict'] as const;
export const SELinuxChangePolicies = ['MountOption', 'Recursive'] as const;

export const PodSecurityContext = object(`${P}.PodSecurityContext`, {
  seLinuxOptions: opt(field(1, SELinuxOptions)),
  windowsOptions: opt(field(8, WindowsSecurityContextOptions)),
  runAsUser: opt(int64(2)),
  runAsGroup: opt(int64(6)),
  runAsNonRoot: opt(bool(3)),
  supplementalGroups: opt(list(4, Type.Integer({ format: 'int64' }), { listType: 'atomic' })),
  supplementalGroupsPolicy: opt(enumOf(12, SupplementalGroupsPolicies)),
  fsGroup: opt(int64(5)),
  sysctls: opt(list(7, Sysctl, { listType: 'atomic' })),
  fsGroupChangePolicy: opt(enumOf(9, FSGroupChangePolicies)),
  seccompProfile: opt(field(10, SeccompProfile)),
  appArmorProfile: opt(field(11, AppArmorProfile)),
  seLinuxChangePolicy: opt(enumOf(13, SELinuxChangePolicies)),
});
export type PodSecurityContext = Static<typeof PodSecurityContext>;
