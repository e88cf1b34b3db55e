// Every Pod Security check at the policy versions where its behaviour differs, with upstream's
// reasons and details (the expected strings are those of upstream's policy tests and fixtures).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PodSpec } from '../../../../api/core/v1/pod-template.js';
import { apiDomain, defaultApiDomain } from '../../../../api/domain.js';
import type { PodMetadata } from '../check.js';
import { versionMinor } from '../level-version.js';
import { defaultChecks } from './index.js';

const upstream = apiDomain('k8s.io');

/** The result of check `id` at `version` (`v1.x` or `latest`) on a pod, or undefined when the check is not in force then. */
function run(id: string, version: string, spec: Partial<PodSpec>, meta: PodMetadata = {}, domain = upstream) {
  const check = defaultChecks(domain).find((c) => c.id === id);
  assert.ok(check, `no check ${id}`);
  const revision = check.versions.findLast((v) => v.minimumVersion <= versionMinor(version));
  if (!revision) return undefined;
  const r = revision.checkPod(meta, { containers: [], ...spec } as PodSpec);
  return r.allowed ? 'allowed' : [r.forbiddenReason, r.forbiddenDetail];
}

const c = (name: string, securityContext?: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ name, image: 'img', ...(securityContext ? { securityContext } : {}), ...extra });

type Row = [id: string, version: string, spec: Record<string, unknown>, expected: 'allowed' | [string, string] | undefined, meta?: PodMetadata];

const rows: Row[] = [
  ['hostNamespaces', 'latest', {}, 'allowed'],
  ['hostNamespaces', 'v1.0', { hostNetwork: true, hostPID: true, hostIPC: true }, ['host namespaces', 'hostNetwork=true, hostPID=true, hostIPC=true']],
  ['hostNamespaces', 'latest', { hostIPC: true, hostNetwork: false }, ['host namespaces', 'hostIPC=true']],

  ['privileged', 'latest', { containers: [c('a', { privileged: false })] }, 'allowed'],
  ['privileged', 'latest', { initContainers: [c('i', { privileged: true })], containers: [c('a', { privileged: true })] },
    ['privileged', 'containers "i", "a" must not set securityContext.privileged=true']],
  ['privileged', 'latest', { containers: [c('a')], ephemeralContainers: [c('debug', { privileged: true })] },
    ['privileged', 'container "debug" must not set securityContext.privileged=true']],

  ['windowsHostProcess', 'latest', { securityContext: { windowsOptions: { hostProcess: false } } }, 'allowed'],
  ['windowsHostProcess', 'latest', { securityContext: { windowsOptions: { hostProcess: true } }, containers: [c('a', { windowsOptions: { hostProcess: true } }), c('b')] },
    ['hostProcess', 'pod and container "a" must not set securityContext.windowsOptions.hostProcess=true']],

  ['hostPathVolumes', 'latest', { volumes: [{ name: 'e', emptyDir: {} }] }, 'allowed'],
  ['hostPathVolumes', 'latest', { volumes: [{ name: 'a', hostPath: { path: '/a' } }, { name: 'e', emptyDir: {} }, { name: 'b', hostPath: { path: '/b' } }] },
    ['hostPath volumes', 'volumes "a", "b"']],

  ['hostPorts', 'latest', { containers: [c('a', undefined, { ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 0 }] })] }, 'allowed'],
  ['hostPorts', 'latest', { containers: [c('a'), c('b', undefined, { ports: [{ containerPort: 20, hostPort: 20 }] })] }, ['hostPort', 'container "b" uses hostPort 20']],
  ['hostPorts', 'latest', { containers: [c('b', undefined, { ports: [{ containerPort: 20, hostPort: 20 }] }), c('c', undefined, { ports: [{ containerPort: 1, hostPort: 30 }, { containerPort: 2, hostPort: 10 }] })] },
    ['hostPort', 'containers "b", "c" use hostPorts 10, 20, 30']],

  ['procMount', 'latest', { containers: [c('a', { procMount: 'Default' }), c('b', {})] }, 'allowed'],
  ['procMount', 'latest', { containers: [c('a', { procMount: 'Unmasked' }), c('b', { procMount: 'Default' })] },
    ['procMount', 'container "a" must not set securityContext.procMount to "Unmasked"']],

  ['capabilities_baseline', 'latest', { containers: [c('a', { capabilities: { add: ['NET_BIND_SERVICE', 'CHOWN', 'KILL'] } })] }, 'allowed'],
  ['capabilities_baseline', 'latest', { containers: [c('a', { capabilities: { add: ['SYS_ADMIN', 'CHOWN'] } }), c('b', { capabilities: { add: ['NET_RAW', 'SYS_ADMIN'] } })] },
    ['non-default capabilities', 'containers "a", "b" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add']],

  ['capabilities_restricted', 'v1.21', { containers: [c('a')] }, undefined],
  ['capabilities_restricted', 'latest', { containers: [c('a', { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } })] }, 'allowed'],
  ['capabilities_restricted', 'v1.22', { containers: [c('a'), c('b', { capabilities: { drop: ['NET_RAW'] } }), c('c', { capabilities: { drop: ['ALL'], add: ['SYS_TIME', 'CHOWN'] } })] },
    ['unrestricted capabilities', 'containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "CHOWN", "SYS_TIME" in securityContext.capabilities.add']],
  ['capabilities_restricted', 'v1.24', { os: { name: 'windows' }, containers: [c('a')] },
    ['unrestricted capabilities', 'container "a" must set securityContext.capabilities.drop=["ALL"]']],
  ['capabilities_restricted', 'v1.25', { os: { name: 'windows' }, containers: [c('a')] }, 'allowed'],

  ['sysctls', 'latest', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_syncookies', value: '1' }, { name: 'net.ipv4.tcp_keepalive_probes', value: '3' }] } }, 'allowed'],
  ['sysctls', 'v1.26', { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }, { name: 'kernel.msgmax', value: '1' }] } },
    ['forbidden sysctls', 'net.ipv4.ip_local_reserved_ports, kernel.msgmax']],
  ['sysctls', 'v1.27', { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }, { name: 'net.ipv4.tcp_fin_timeout', value: '1' }] } },
    ['forbidden sysctls', 'net.ipv4.tcp_fin_timeout']],
  ['sysctls', 'v1.29', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_fin_timeout', value: '1' }, { name: 'net.ipv4.tcp_keepalive_intvl', value: '1' }] } }, 'allowed'],

  ['seLinuxOptions', 'latest', { securityContext: { seLinuxOptions: { type: 'container_t', level: 's0' } }, containers: [c('a', { seLinuxOptions: { type: 'container_init_t' } })] }, 'allowed'],
  ['seLinuxOptions', 'latest', {
    securityContext: { seLinuxOptions: { type: 'foo' } },
    containers: [c('d', { seLinuxOptions: { type: 'bar' } }), c('e', { seLinuxOptions: { user: 'u' } }), c('f', { seLinuxOptions: { role: 'r', type: 'foo' } }), c('g', { seLinuxOptions: {} })],
  }, ['seLinuxOptions', 'pod and containers "d", "e", "f" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set']],
  ['seLinuxOptions', 'latest', { securityContext: { seLinuxOptions: { role: 'r' } } }, ['seLinuxOptions', 'pod set forbidden securityContext.seLinuxOptions: role may not be set']],

  ['appArmorProfile', 'latest', { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [c('a', { appArmorProfile: { type: 'Localhost', localhostProfile: 'p' } })] }, 'allowed'],
  ['appArmorProfile', 'latest', { securityContext: { appArmorProfile: { type: 'Unconfined' } } }, ['forbidden AppArmor profile', 'pod must not set AppArmor profile type to "Unconfined"']],
  ['appArmorProfile', 'latest', { containers: [c('foo', { appArmorProfile: { type: 'Unconfined' } }), c('bar', { appArmorProfile: { type: 'Unconfined' } })] },
    ['forbidden AppArmor profile', 'containers "foo", "bar" must not set AppArmor profile type to "Unconfined"']],
  ['appArmorProfile', 'v1.0', {}, ['forbidden AppArmor profiles', 'annotations must not set AppArmor profile type to ' + [
    '"container.apparmor.security.beta.kubernetes.io/="bogus""',
    '"container.apparmor.security.beta.kubernetes.io/e="unconfined""',
    '"container.apparmor.security.beta.kubernetes.io/f="unknown""',
  ].join(', ')], { annotations: {
    'container.apparmor.security.beta.kubernetes.io/f': 'unknown',
    'container.apparmor.security.beta.kubernetes.io/': 'bogus',
    'container.apparmor.security.beta.kubernetes.io/a': '',
    'container.apparmor.security.beta.kubernetes.io/b': 'runtime/default',
    'container.apparmor.security.beta.kubernetes.io/c': 'localhost/',
    'container.apparmor.security.beta.kubernetes.io/e': 'unconfined',
    'other.example/e': 'unconfined',
  } }],
  ['appArmorProfile', 'latest', { securityContext: { appArmorProfile: { type: 'Unconfined' } } }, ['forbidden AppArmor profiles',
    'pod and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/a="unconfined""'],
  { annotations: { 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' } }],

  // Before v1.19 only the alpha annotations count; from v1.19 only the fields.
  ['seccompProfile_baseline', 'v1.18', { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a'), c('b')] },
    ['seccompProfile', 'forbidden annotations container.seccomp.security.alpha.kubernetes.io/a="unconfined", seccomp.security.alpha.kubernetes.io/pod="unconfined"'],
    { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/a': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/b': 'docker/default' } }],
  ['seccompProfile_baseline', 'v1.18', { containers: [c('a')] }, 'allowed', { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'localhost/x' } }],
  ['seccompProfile_baseline', 'v1.19', { containers: [c('a')] }, 'allowed', { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }],
  ['seccompProfile_baseline', 'latest', { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a', { seccompProfile: { type: 'Unconfined' } }), c('b', { seccompProfile: { type: 'RuntimeDefault' } })] },
    ['seccompProfile', 'pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"']],

  ['seccompProfile_restricted', 'v1.18', { containers: [c('a')] }, undefined],
  ['seccompProfile_restricted', 'latest', { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [c('a')] }, 'allowed'],
  ['seccompProfile_restricted', 'latest', { containers: [c('a', { seccompProfile: { type: 'Localhost', localhostProfile: 'p' } }), c('b'), c('c', {})] },
    ['seccompProfile', 'pod or containers "b", "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"']],
  ['seccompProfile_restricted', 'latest', { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a')] },
    ['seccompProfile', 'pod must not set securityContext.seccompProfile.type to "Unconfined"']],
  ['seccompProfile_restricted', 'v1.24', { os: { name: 'windows' }, containers: [c('a')] },
    ['seccompProfile', 'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"']],
  ['seccompProfile_restricted', 'v1.25', { os: { name: 'windows' }, containers: [c('a')] }, 'allowed'],

  ['allowPrivilegeEscalation', 'v1.7', { containers: [c('a')] }, undefined],
  ['allowPrivilegeEscalation', 'latest', { containers: [c('a', { allowPrivilegeEscalation: false })] }, 'allowed'],
  ['allowPrivilegeEscalation', 'v1.8', { containers: [c('a'), c('b', { allowPrivilegeEscalation: true }), c('c', { allowPrivilegeEscalation: false })] },
    ['allowPrivilegeEscalation != false', 'containers "a", "b" must set securityContext.allowPrivilegeEscalation=false']],
  ['allowPrivilegeEscalation', 'v1.24', { os: { name: 'windows' }, containers: [c('a')] },
    ['allowPrivilegeEscalation != false', 'container "a" must set securityContext.allowPrivilegeEscalation=false']],
  ['allowPrivilegeEscalation', 'v1.25', { os: { name: 'windows' }, containers: [c('a')] }, 'allowed'],

  ['runAsNonRoot', 'latest', { securityContext: { runAsNonRoot: true }, containers: [c('a'), c('b', { runAsNonRoot: true })] }, 'allowed'],
  ['runAsNonRoot', 'latest', { containers: [c('a', { runAsNonRoot: true }), c('b'), c('c', {})] },
    ['runAsNonRoot != true', 'pod or containers "b", "c" must set securityContext.runAsNonRoot=true']],
  ['runAsNonRoot', 'latest', { securityContext: { runAsNonRoot: false }, containers: [c('a', { runAsNonRoot: false }), c('b')] },
    ['runAsNonRoot != true', 'pod and container "a" must not set securityContext.runAsNonRoot=false']],
  ['runAsNonRoot', 'latest', { securityContext: { runAsNonRoot: true }, containers: [c('a', { runAsNonRoot: false })] },
    ['runAsNonRoot != true', 'container "a" must not set securityContext.runAsNonRoot=false']],
  // User namespaces do not relax the check: the UserNamespacesPodSecurityStandards gate is off in 1.30.
  ['runAsNonRoot', 'latest', { hostUsers: false, containers: [c('a')] }, ['runAsNonRoot != true', 'pod or container "a" must set securityContext.runAsNonRoot=true']],

  ['runAsUser', 'v1.22', { securityContext: { runAsUser: 0 } }, undefined],
  ['runAsUser', 'latest', { securityContext: { runAsUser: 1000 }, containers: [c('a', { runAsUser: 1 })] }, 'allowed'],
  ['runAsUser', 'v1.23', { securityContext: { runAsUser: 0 }, containers: [c('a', { runAsUser: 0 }), c('b', { runAsUser: 0 }), c('c', { runAsUser: 5 })] },
    ['runAsUser=0', 'pod and containers "a", "b" must not set runAsUser=0']],

  ['restrictedVolumes', 'latest', { volumes: ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'].map((s, i) => ({ name: `v${i}`, [s]: {} })) }, 'allowed'],
  ['restrictedVolumes', 'v1.0', { volumes: [{ name: 'a', hostPath: { path: '/' } }, { name: 'ok', secret: { secretName: 's' } }, { name: 'b', nfs: { server: 's', path: '/' } }, { name: 'c', hostPath: { path: '/c' } }, { name: 'd', image: { reference: 'x' } }] },
    ['restricted volume types', 'volumes "a", "b", "c", "d" use restricted volume types "hostPath", "nfs", "unknown"']],
  ['restrictedVolumes', 'latest', { volumes: [{ name: 'g', gitRepo: { repository: 'r' } }] }, ['restricted volume types', 'volume "g" uses restricted volume type "gitRepo"']],
];

test('each check allows and refuses as upstream\'s at each policy version', () => {
  for (const [id, version, spec, expected, meta] of rows) {
    assert.deepEqual(run(id, version, spec, meta), expected, `${id} at ${version} on ${JSON.stringify(spec)}`);
  }
});

test('the AppArmor and seccomp annotations are read under the platform\'s domain', () => {
  const ours = defaultApiDomain;
  assert.deepEqual(run('appArmorProfile', 'latest', {}, { annotations: { 'container.apparmor.security.beta.orch.io/a': 'unconfined', 'container.apparmor.security.beta.kubernetes.io/b': 'unconfined' } }, ours),
    ['forbidden AppArmor profile', 'annotation must not set AppArmor profile type to "container.apparmor.security.beta.orch.io/a="unconfined""']);
  assert.deepEqual(run('seccompProfile_baseline', 'v1.18', { containers: [c('a')] }, { annotations: { 'container.seccomp.security.alpha.orch.io/a': 'unconfined' } }, ours),
    ['seccompProfile', 'forbidden annotation container.seccomp.security.alpha.orch.io/a="unconfined"']);
  assert.deepEqual(run('seccompProfile_baseline', 'v1.18', { containers: [c('a')] }, { annotations: { 'container.seccomp.security.alpha.kubernetes.io/a': 'unconfined' } }, ours), 'allowed');
});

test('an annotation value is quoted as Go quotes it', () => {
  assert.deepEqual(run('appArmorProfile', 'latest', {}, { annotations: { 'container.apparmor.security.beta.kubernetes.io/a': 'bad"\n' } }),
    ['forbidden AppArmor profile', 'annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/a="bad\\"\\n""']);
});
