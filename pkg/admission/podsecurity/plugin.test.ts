import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AttributesInit } from '../attributes.js';
import type { AdmissionObject } from '../interfaces.js';
import { StatusError } from '../../runtime/errors.js';
import { staticDeps } from '../testing/deps.js';
import { podAttrs, testUser } from '../testing/attrs.js';
import { podSecurityFactory } from './plugin.js';
import type { PodSecurityPlugin } from './plugin.js';

const label = (mode: string) => `pod-security.orch.io/${mode}`;
const ns = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels } });
const pod = (name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}) =>
  ({ metadata: { name, namespace: 'ns' }, spec: { containers: [{ name: 'app', image: 'img:1', ...container }], ...spec } });
const restrictedPod = (name: string) => pod(name, { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } },
  { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } });
const restrictedReasons = 'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

function setup(namespaces: AdmissionObject[], configuration?: unknown, pods: AdmissionObject[] = []) {
  const deps = staticDeps({ '/namespaces': namespaces, '/pods': pods });
  return podSecurityFactory(configuration, deps) as PodSecurityPlugin;
}

/** Runs the plug-in; what the client and the audit log would see. */
async function judge(p: PodSecurityPlugin, init: Partial<AttributesInit> & { object?: Record<string, unknown> }) {
  const warnings: string[] = [];
  const attrs = podAttrs({ warn: (w) => warnings.push(w), ...init });
  let error: StatusError | undefined;
  try {
    await p.validate(attrs);
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    error = e;
  }
  return { error, warnings, annotations: attrs.annotations() };
}

const workload = (resource: string, group: string, kind: string, object: Record<string, unknown>): Partial<AttributesInit> & { object: Record<string, unknown> } => ({
  kind: { group, version: 'v1', kind }, resource: { group, version: 'v1', resource }, object,
});

test('enforce refuses a pod as upstream words it, with the enforced policy in the audit annotations and no warning', async () => {
  const p = setup([ns('ns', { [label('enforce')]: 'restricted' })]);
  const r = await judge(p, { object: pod('web') });
  assert.equal(r.error?.code, 403);
  assert.equal(r.error?.message, `pods "web" is forbidden: violates PodSecurity "restricted:latest": ${restrictedReasons}`);
  assert.deepEqual(r.error?.status.details, { name: 'web', group: '', kind: 'pods' });
  assert.deepEqual(r.warnings, [], 'the warn level followed enforce, and a refused request gets no warnings');
  assert.deepEqual(r.annotations, { 'pod-security.orch.io/enforce-policy': 'restricted:latest' });
  const ok = await judge(p, { object: restrictedPod('good') });
  assert.equal(ok.error, undefined);
  const generated = await judge(p, { object: { ...pod(''), metadata: { generateName: 'web-' } }, name: '' });
  assert.match(generated.error!.message, /^pods is forbidden: violates PodSecurity "restricted:latest": /);
});

test('audit and warn levels annotate and warn without refusing; each level-version is named in its message', async () => {
  const p = setup([ns('ns', { [label('enforce')]: 'baseline', [label('enforce-version')]: 'v1.28', [label('audit')]: 'restricted', [label('warn')]: 'baseline', [label('warn-version')]: 'v1.28' })]);
  const r = await judge(p, { object: pod('sys', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '60' }] } }) });
  assert.equal(r.error?.message, 'pods "sys" is forbidden: violates PodSecurity "baseline:v1.28": forbidden sysctls (net.ipv4.tcp_keepalive_time)');
  const ok = await judge(p, { object: pod('web') });
  assert.equal(ok.error, undefined);
  assert.deepEqual(ok.warnings, []);
  assert.deepEqual(ok.annotations, {
    'pod-security.orch.io/enforce-policy': 'baseline:v1.28',
    'pod-security.orch.io/audit-violations': `would violate PodSecurity "restricted:latest": ${restrictedReasons}`,
  });
  const w = setup([ns('ns', { [label('warn')]: 'restricted' })]);
  const warned = await judge(w, { object: pod('web') });
  assert.equal(warned.error, undefined);
  assert.deepEqual(warned.warnings, [`would violate PodSecurity "restricted:latest": ${restrictedReasons}`]);
  assert.deepEqual(warned.annotations, { 'pod-security.orch.io/enforce-policy': 'privileged:latest' });
});

test('a fully privileged namespace lets pods through noting the policy; other namespaces\' labels do not matter', async () => {
  const p = setup([ns('ns'), ns('other', { [label('enforce')]: 'restricted' })]);
  const r = await judge(p, { object: pod('root', { hostPID: true }) });
  assert.equal(r.error, undefined);
  assert.deepEqual(r.annotations, { 'pod-security.orch.io/enforce-policy': 'privileged:latest' });
});

test('exempt users, namespaces and runtime classes pass with the reason noted', async () => {
  const config = {
    apiVersion: 'pod-security.admission.config.orch.io/v1', kind: 'PodSecurityConfiguration',
    defaults: { enforce: 'restricted' },
    exemptions: { usernames: ['ci-bot'], namespaces: ['tools'], runtimeClasses: ['kata'] },
  };
  const p = setup([ns('ns'), ns('tools')], config);
  assert.match((await judge(p, { object: pod('web') })).error!.message, /violates PodSecurity "restricted:latest"/, 'the default enforces restricted');
  const asBot = await judge(p, { object: pod('web'), userInfo: { ...testUser, name: 'ci-bot' } });
  assert.deepEqual([asBot.error, asBot.annotations], [undefined, { 'pod-security.orch.io/exempt': 'user' }]);
  const inTools = await judge(p, { object: pod('web'), namespace: 'tools' });
  assert.deepEqual([inTools.error, inTools.annotations], [undefined, { 'pod-security.orch.io/exempt': 'namespace' }]);
  const kata = await judge(p, { object: pod('web', { runtimeClassName: 'kata' }) });
  assert.deepEqual([kata.error, kata.annotations], [undefined, { 'pod-security.orch.io/exempt': 'runtimeClass' }]);
});

test('pod updates are judged only when an image or the containers change; ignored sub-resources pass; ephemeral containers are judged', async () => {
  const p = setup([ns('ns', { [label('enforce')]: 'baseline' })]);
  const old = pod('web', { hostNetwork: true });
  const relabelled = { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } };
  assert.equal((await judge(p, { operation: 'UPDATE', object: relabelled, oldObject: old })).error, undefined);
  const newImage = pod('web', { hostNetwork: true }, { image: 'img:2' });
  assert.match((await judge(p, { operation: 'UPDATE', object: newImage, oldObject: old })).error!.message, /violates PodSecurity "baseline:latest": host namespaces \(hostNetwork=true\)/);
  assert.equal((await judge(p, { operation: 'UPDATE', subresource: 'status', object: old, oldObject: old })).error, undefined);
  assert.equal((await judge(p, { operation: 'CREATE', subresource: 'binding', object: { target: { name: 'n' } } })).error, undefined);
  const running = pod('dbg');
  const withDebug = { ...running, spec: { ...running.spec, ephemeralContainers: [{ name: 'debug', image: 'busybox', securityContext: { privileged: true } }] } };
  const r = await judge(p, { operation: 'UPDATE', subresource: 'ephemeralcontainers', object: withDebug, oldObject: running });
  assert.equal(r.error?.message, 'pods "dbg" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debug" must not set securityContext.privileged=true)');
});

test('workload pod templates get warnings and audit annotations, never a refusal', async () => {
  const p = setup([ns('ns', { [label('enforce')]: 'restricted', [label('audit')]: 'restricted' })]);
  const template = { metadata: { labels: { app: 'web' } }, spec: pod('x').spec };
  const cases = [
    workload('deployments', 'apps', 'Deployment', { metadata: { name: 'web' }, spec: { template } }),
    workload('cronjobs', 'batch', 'CronJob', { metadata: { name: 'web' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template } } } }),
    workload('replicationcontrollers', '', 'ReplicationController', { metadata: { name: 'web' }, spec: { template } }),
  ];
  for (const attrs of cases) {
    const r = await judge(p, attrs);
    assert.equal(r.error, undefined, attrs.resource!.resource);
    assert.deepEqual(r.warnings, [`would violate PodSecurity "restricted:latest": ${restrictedReasons}`]);
    assert.deepEqual(r.annotations, { 'pod-security.orch.io/audit-violations': `would violate PodSecurity "restricted:latest": ${restrictedReasons}` }, 'no enforce-policy: templates are not enforced');
  }
  // No template (an optional one unset), a sub-resource, or a namespace that does not exist: allowed.
  assert.deepEqual(await judge(p, workload('replicationcontrollers', '', 'ReplicationController', { metadata: { name: 'web' }, spec: {} })), { error: undefined, warnings: [], annotations: {} });
  assert.deepEqual(await judge(p, { ...workload('deployments', 'apps', 'Scale', { spec: { replicas: 1 } }), subresource: 'scale' }), { error: undefined, warnings: [], annotations: {} });
  assert.deepEqual((await judge(p, { ...workload('deployments', 'apps', 'Deployment', { spec: { template } }), namespace: 'gone' })).annotations,
    { 'pod-security.orch.io/error': 'failed to lookup namespace "gone": namespaces "gone" not found' });
});

test('a pod in a namespace that does not exist is refused as not found', async () => {
  const r = await judge(setup([]), { object: pod('web') });
  assert.equal(r.error?.code, 404);
  assert.equal(r.error?.message, 'namespaces "ns" not found');
});

test('invalid labels: a pod is judged as restricted with the error noted; a namespace is refused as Invalid unless its errors are unchanged', async () => {
  const bad = { [label('enforce')]: 'strict' };
  const p = setup([ns('ns', bad)]);
  const r = await judge(p, { object: pod('web') });
  assert.match(r.error!.message, /violates PodSecurity "restricted:latest"/);
  assert.equal(r.annotations['pod-security.orch.io/error'],
    'Failed to parse policy: metadata.labels[pod-security.orch.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
  const nsAttrs = (operation: 'CREATE' | 'UPDATE', object: AdmissionObject, oldObject?: AdmissionObject) => ({
    kind: { group: '', version: 'v1', kind: 'Namespace' }, resource: { group: '', version: 'v1', resource: 'namespaces' },
    namespace: operation === 'UPDATE' ? 'team' : '', name: 'team', operation, object, ...(oldObject ? { oldObject } : {}),
  });
  const created = await judge(p, nsAttrs('CREATE', ns('team', { [label('warn-version')]: 'v1.x' })));
  assert.equal(created.error?.code, 422);
  assert.equal(created.error?.message, 'Namespace "team" is invalid: metadata.labels[pod-security.orch.io/warn-version]: Invalid value: "v1.x": must be "latest" or "v1.x"');
  assert.deepEqual(created.error?.status.details?.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "v1.x": must be "latest" or "v1.x"', field: 'metadata.labels[pod-security.orch.io/warn-version]' }]);
  const stillBad = await judge(p, nsAttrs('UPDATE', { ...ns('team', bad), spec: {} }, ns('team', bad)));
  assert.equal(stillBad.error, undefined, 'an edit that leaves the bad label alone passes');
  const worse = await judge(p, nsAttrs('UPDATE', ns('team', { ...bad, [label('audit')]: 'x' }), ns('team', bad)));
  assert.equal(worse.error?.code, 422);
  assert.equal((await judge(p, nsAttrs('UPDATE', ns('team', bad), ns('team')))).error?.code, 422);
});

test('a stricter enforce label is tried on the pods already in the namespace', async () => {
  const inNs = (o: ReturnType<typeof pod>, namespace: string) => ({ ...o, metadata: { ...o.metadata, namespace } });
  const p = setup([], undefined, [inNs(pod('a'), 'team'), inNs(pod('b'), 'team'), inNs(restrictedPod('c'), 'team'), inNs(pod('d'), 'elsewhere')]);
  const warningsFor = async (labels: Record<string, string>, oldLabels: Record<string, string> = {}) => (await judge(p, {
    kind: { group: '', version: 'v1', kind: 'Namespace' }, resource: { group: '', version: 'v1', resource: 'namespaces' },
    namespace: 'team', name: 'team', operation: 'UPDATE', object: ns('team', labels), oldObject: ns('team', oldLabels),
  })).warnings;
  const lines = ['existing pods in namespace "team" violate the new PodSecurity enforce level "restricted:latest"',
    'a (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile'];
  assert.deepEqual(await warningsFor({ [label('enforce')]: 'restricted' }), lines);
  assert.deepEqual(await warningsFor({ [label('enforce')]: 'restricted' }, { [label('enforce')]: 'baseline' }), lines);
  assert.deepEqual(await warningsFor({ [label('enforce')]: 'restricted', [label('enforce-version')]: 'v1.0' }, { [label('enforce')]: 'restricted' }),
    ['existing pods in namespace "team" violate the new PodSecurity enforce level "restricted:v1.0"', 'a (and 1 other pod): runAsNonRoot != true']);
  // Unchanged, loosened at the same version, or privileged: nothing is tried.
  assert.deepEqual(await warningsFor({ [label('enforce')]: 'restricted', x: 'y' }, { [label('enforce')]: 'restricted' }), []);
  assert.deepEqual(await warningsFor({ [label('enforce')]: 'baseline' }, { [label('enforce')]: 'restricted' }), []);
  assert.deepEqual(await warningsFor({ [label('enforce')]: 'privileged', [label('enforce-version')]: 'v1.20' }, { [label('enforce')]: 'baseline' }), []);
});

test('an exempt namespace is told its labels will be ignored', async () => {
  const config = { apiVersion: 'pod-security.admission.config.orch.io/v1', kind: 'PodSecurityConfiguration', exemptions: { namespaces: ['tools'] } };
  const p = setup([], config);
  const nsAttrs = (operation: 'CREATE' | 'UPDATE', labels: Record<string, string>) => ({
    kind: { group: '', version: 'v1', kind: 'Namespace' }, resource: { group: '', version: 'v1', resource: 'namespaces' },
    namespace: operation === 'CREATE' ? '' : 'tools', name: 'tools', operation, object: ns('tools', labels), oldObject: ns('tools'),
  });
  const labels = { [label('enforce')]: 'restricted', [label('enforce-version')]: 'v1.0', [label('audit-version')]: 'v1.25', [label('warn')]: 'baseline' };
  for (const op of ['CREATE', 'UPDATE'] as const) {
    assert.deepEqual((await judge(p, nsAttrs(op, labels))).warnings,
      ['namespace "tools" is exempt from Pod Security, and the policy (enforce=restricted:v1.0, warn=baseline:latest) will be ignored'], op);
  }
  assert.deepEqual((await judge(p, nsAttrs('CREATE', { [label('enforce')]: 'privileged' }))).warnings, []);
});

test('a configuration that fails validation stops the plug-in from being made', () => {
  assert.throws(() => setup([], { apiVersion: 'pod-security.admission.config.orch.io/v1', kind: 'PodSecurityConfiguration', defaults: { warn: 'loud' } }),
    /PodSecurity configuration error: warn: must be one of privileged, baseline, restricted/);
});
