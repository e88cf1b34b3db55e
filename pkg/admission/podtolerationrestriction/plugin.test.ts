import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiDomain } from '../../../api/domain.js';
import type { Toleration } from '../../../api/core/v1/toleration.js';
import { AttributesRecord } from '../attributes.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, ObjectLister, Operation } from '../interfaces.js';
import { staticDeps } from '../testing/deps.js';
import { rejection } from '../testing/rejection.js';
import { loadConfiguration } from './config.js';
import { podTolerationRestrictionFactory, type PodTolerationRestriction } from './plugin.js';
import { isSuperset, mergeTolerations, verifyAgainstWhitelist } from '../podutil/tolerations.js';

const user = { name: 'jane', groups: [], extra: {} };
const DEF = 'scheduler.alpha.orch.io/defaultTolerations';
const WL = 'scheduler.alpha.orch.io/tolerationsWhitelist';
const memoryPressure = { key: 'node.orch.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

function attrs(op: Operation, object: AdmissionObject, init: { namespace?: string; resource?: string; group?: string; subresource?: string; dryRun?: boolean } = {}) {
  return new AttributesRecord({
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: init.group ?? '', version: 'v1', resource: init.resource ?? 'pods' },
    subresource: init.subresource ?? '', name: 'p', namespace: init.namespace ?? 'team', operation: op, object,
    dryRun: init.dryRun ?? false, userInfo: user,
  });
}
const ns = (name: string, annotations?: Record<string, string>): AdmissionObject =>
  ({ metadata: { name, ...(annotations ? { annotations } : {}) }, status: { phase: 'Active' } });
/** A BestEffort pod unless `resources` is given. */
const pod = (tolerations?: Toleration[], resources?: Record<string, unknown>): AdmissionObject =>
  ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', ...(resources ? { resources } : {}) }], ...(tolerations ? { tolerations } : {}) } });
const tolerations = (o: AdmissionObject) => (o['spec'] as { tolerations?: Toleration[] }).tolerations;
const make = (namespaces: AdmissionObject[], config?: unknown, domain = 'orch.io') =>
  podTolerationRestrictionFactory(config, staticDeps({ '/namespaces': namespaces }, apiDomain(domain))) as PodTolerationRestriction;

const gpu: Toleration = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };
const dedicated: Toleration = { key: 'dedicated', operator: 'Equal', value: 'team', effect: 'NoSchedule' };

test('registered; mutating and validating on creates and updates', () => {
  assert.ok(builtinPlugins().has('PodTolerationRestriction'));
  const p = make([]);
  assert.equal(p.name, 'PodTolerationRestriction');
  assert.equal(typeof p.admit, 'function');
  assert.equal(typeof p.validate, 'function');
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as Operation[]).map((o) => p.handles(o)), [true, true, false, false]);
  assert.equal(p.defaultsAnnotation, DEF);
  assert.equal(p.whitelistAnnotation, WL);
});

test('on create the namespace defaults are merged after the pod\'s own, dry run included', async () => {
  const p = make([ns('team', { [DEF]: JSON.stringify([gpu, dedicated]) })]);
  for (const dryRun of [false, true]) {
    const o = pod([{ key: 'mine', operator: 'Exists' }]);
    await p.admit(attrs('CREATE', o, { dryRun }));
    assert.deepEqual(tolerations(o), [{ key: 'mine', operator: 'Exists' }, gpu, dedicated]);
  }
  // A pod toleration that covers a default makes the default redundant; so does an equal one.
  const o = pod([{ key: 'gpu', operator: 'Exists' }, dedicated]);
  await p.admit(attrs('CREATE', o));
  assert.deepEqual(tolerations(o), [{ key: 'gpu', operator: 'Exists' }, dedicated]);
  // A default that covers the pod's toleration replaces it.
  const narrow: Toleration = { key: 'gpu', operator: 'Equal', value: 'a100', effect: 'NoSchedule' };
  const o2 = pod([narrow]);
  await p.admit(attrs('CREATE', o2));
  assert.deepEqual(tolerations(o2), [gpu, dedicated]);
});

test('on update the defaults are not merged', async () => {
  const p = make([ns('team', { [DEF]: JSON.stringify([gpu]) })]);
  const o = pod();
  await p.admit(attrs('UPDATE', o));
  assert.equal(tolerations(o), undefined);
});

test('pods that are not BestEffort get the memory-pressure toleration, on create and update', async () => {
  const p = make([ns('team')]);
  for (const op of ['CREATE', 'UPDATE'] as Operation[]) {
    const o = pod(undefined, { requests: { memory: '64Mi' } });
    await p.admit(attrs(op, o));
    assert.deepEqual(tolerations(o), [memoryPressure]);
  }
  const limited = pod([gpu], { limits: { cpu: '1' } });
  await p.admit(attrs('CREATE', limited));
  assert.deepEqual(tolerations(limited), [gpu, memoryPressure]);
  // Already tolerated (here by a toleration of every key): nothing added.
  const all = pod([{ operator: 'Exists' }], { requests: { cpu: '1' } });
  await p.admit(attrs('CREATE', all));
  assert.deepEqual(tolerations(all), [{ operator: 'Exists' }]);
  // BestEffort pods (no cpu or memory, or only zero / other resources) get none.
  for (const resources of [undefined, { requests: { cpu: '0' } }, { limits: { 'example.com/dongle': '1' } }]) {
    const o = pod(undefined, resources);
    await p.admit(attrs('CREATE', o));
    assert.equal(tolerations(o), undefined, JSON.stringify(resources));
  }
  // The QoS class the status states counts first.
  const stated: AdmissionObject = { ...pod(), status: { qosClass: 'Burstable' } };
  await p.admit(attrs('CREATE', stated));
  assert.deepEqual(tolerations(stated), [memoryPressure]);
});

test('without namespace annotations the cluster configuration applies', async () => {
  const config = { apiVersion: 'podtolerationrestriction.admission.orch.io/v1alpha1', kind: 'Configuration', default: [gpu], whitelist: [gpu, dedicated] };
  const p = make([ns('team'), ns('own', { [DEF]: '[]', [WL]: JSON.stringify([{ key: 'other', operator: 'Exists' }]) })], config);
  const o = pod();
  await p.admit(attrs('CREATE', o));
  assert.deepEqual(tolerations(o), [gpu]);
  const bad = pod([{ key: 'other', operator: 'Exists' }]);
  const err = await rejection(p.admit(attrs('CREATE', bad)));
  assert.equal(err.code, 403);
  // A namespace with its own (even empty) annotations does not use the cluster's.
  const o2 = pod([{ key: 'other', operator: 'Exists' }]);
  await p.admit(attrs('CREATE', o2, { namespace: 'own' }));
  assert.deepEqual(tolerations(o2), [{ key: 'other', operator: 'Exists' }]);
});

test('an empty annotation means none, not the cluster\'s', async () => {
  const config = { apiVersion: 'podtolerationrestriction.admission.k8s.io/v1', kind: 'Configuration', default: [gpu], whitelist: [gpu] };
  const p = make([ns('team', { [DEF]: '', [WL]: '' })], config);
  const o = pod([dedicated]);
  await p.admit(attrs('CREATE', o));
  assert.deepEqual(tolerations(o), [dedicated]);
  // "null" decodes to an empty list as well.
  const p2 = make([ns('team', { [DEF]: 'null', [WL]: 'null' })], config);
  const o2 = pod([dedicated]);
  await p2.admit(attrs('CREATE', o2));
  assert.deepEqual(tolerations(o2), [dedicated]);
});

test('tolerations outside the namespace whitelist are refused with upstream\'s message', async () => {
  const p = make([ns('team', { [DEF]: JSON.stringify([dedicated]), [WL]: JSON.stringify([gpu, dedicated]) })]);
  const ok = pod([gpu]);
  await p.admit(attrs('CREATE', ok));
  await p.validate(attrs('CREATE', ok));
  const extra: Toleration = { key: 'other', operator: 'Exists', effect: 'NoSchedule' };
  for (const dryRun of [false, true]) {
    const err = await rejection(p.admit(attrs('CREATE', pod([extra]), { dryRun })));
    assert.equal(err.code, 403);
    assert.equal(err.reason, 'Forbidden');
    assert.equal(err.message, 'pods "p" is forbidden: pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist');
  }
  // Validation alone (the validating phase, and updates) refuses the same.
  const err = await rejection(p.validate(attrs('UPDATE', pod([extra]))));
  assert.equal(err.code, 403);
  // A merged default outside the whitelist refuses the pod too.
  const p2 = make([ns('team', { [DEF]: JSON.stringify([extra]), [WL]: JSON.stringify([gpu]) })]);
  await rejection(p2.admit(attrs('CREATE', pod())));
  // The memory-pressure toleration is subject to the whitelist as well.
  const p3 = make([ns('team', { [WL]: JSON.stringify([gpu]) })]);
  await rejection(p3.admit(attrs('CREATE', pod(undefined, { requests: { memory: '1Gi' } }))));
  // A pod with no tolerations passes any whitelist.
  await p3.validate(attrs('UPDATE', pod()));
});

test('a malformed annotation is refused', async () => {
  for (const value of ['not json', '{"key":"a"}', '[{"key": 5}]', '[{"tolerationSeconds": "10"}]']) {
    const p = make([ns('team', { [DEF]: value })]);
    const err = await rejection(p.admit(attrs('CREATE', pod())));
    assert.equal(err.code, 403, value);
    assert.match(err.message, /^pods "p" is forbidden: namespace team has an invalid scheduler\.alpha\.orch\.io\/defaultTolerations annotation: /);
  }
  const p = make([ns('team', { [WL]: '[' })]);
  const err = await rejection(p.validate(attrs('UPDATE', pod([gpu]))));
  assert.equal(err.code, 403);
  assert.match(err.message, /invalid scheduler\.alpha\.orch\.io\/tolerationsWhitelist annotation/);
});

test('a pod in a namespace that does not exist is NotFound; one the cache lacks is read live', async () => {
  const err = await rejection(make([]).admit(attrs('CREATE', pod(), { namespace: 'ghost' })));
  assert.equal(err.code, 404);
  assert.equal(err.message, 'namespaces "ghost" not found');
  const base = staticDeps();
  const fetched: string[] = [];
  const lister: ObjectLister = {
    get: () => undefined, list: () => [],
    fetch: async (_ns, name) => { fetched.push(name); return ns(name, { [DEF]: JSON.stringify([gpu]) }); },
  };
  const p = podTolerationRestrictionFactory(undefined, { domain: base.domain, lister: () => lister }) as PodTolerationRestriction;
  const o = pod();
  await p.admit(attrs('CREATE', o, { namespace: 'fresh' }));
  assert.deepEqual(tolerations(o), [gpu]);
  assert.ok(fetched.includes('fresh'));
});

test('annotation keys follow the domain', async () => {
  const p = make([ns('team', { 'scheduler.alpha.kubernetes.io/defaultTolerations': JSON.stringify([gpu]), [DEF]: JSON.stringify([dedicated]) })], undefined, 'k8s.io');
  const o = pod(undefined, { requests: { cpu: '1' } });
  await p.admit(attrs('CREATE', o));
  assert.deepEqual(tolerations(o), [gpu, { ...memoryPressure, key: 'node.kubernetes.io/memory-pressure' }]);
});

test('sub-resources and other resources are left alone', async () => {
  const p = make([ns('team', { [DEF]: JSON.stringify([gpu]), [WL]: JSON.stringify([dedicated]) })]);
  for (const init of [{ subresource: 'status' }, { subresource: 'ephemeralcontainers' }, { resource: 'podtemplates' }, { group: 'example.io' }]) {
    const o = pod([{ key: 'x', operator: 'Exists' }], { requests: { cpu: '1' } });
    await p.admit(attrs('CREATE', o, init));
    await p.validate(attrs('UPDATE', o, init));
    assert.deepEqual(tolerations(o), [{ key: 'x', operator: 'Exists' }], JSON.stringify(init));
  }
});

test('the configuration: groups, versions, kinds and validation', () => {
  const d = apiDomain('orch.io');
  assert.deepEqual(loadConfiguration(undefined, d), { default: [], whitelist: [] });
  assert.deepEqual(loadConfiguration({ apiVersion: 'podtolerationrestriction.admission.orch.io/v1', kind: 'PodTolerationRestrictionConfig', whitelist: [gpu] }, d),
    { default: [], whitelist: [gpu] });
  assert.throws(() => loadConfiguration({ kind: 'Configuration' }, d), /Object 'apiVersion' is missing/);
  assert.throws(() => loadConfiguration({ apiVersion: 'podtolerationrestriction.admission.orch.io/v1' }, d), /Object 'Kind' is missing/);
  assert.throws(() => loadConfiguration({ apiVersion: 'example.io/v1', kind: 'Configuration' }, d), /no kind "Configuration" is registered for version "example.io\/v1"/);
  assert.throws(() => loadConfiguration({ apiVersion: 'podtolerationrestriction.admission.orch.io/v1', kind: 'Configuration', default: [{ key: 'a', operator: 'Sometimes' }] }, d),
    /^Error: invalid config: \[podtolerationrestriction\.default\[0\]\.operator: Unsupported value: "Sometimes"/);
  assert.throws(() => loadConfiguration({ apiVersion: 'podtolerationrestriction.admission.orch.io/v1', kind: 'Configuration', whitelist: { key: 'a' } }, d), /cannot unmarshal object/);
  // Through the registry the failure stops start-up with upstream's wrapping.
  const reg = builtinPlugins();
  assert.throws(() => reg.newChain(['PodTolerationRestriction'], () => ({ kind: 'Configuration' }), staticDeps()),
    /couldn't init admission plugin "PodTolerationRestriction": Object 'apiVersion' is missing/);
});

test('toleration arithmetic follows upstream', () => {
  const noExec10: Toleration = { key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 };
  const noExec: Toleration = { key: 'foo', operator: 'Exists', effect: 'NoExecute' };
  assert.equal(isSuperset(noExec, noExec10), true);
  assert.equal(isSuperset(noExec10, noExec), false);
  assert.equal(isSuperset(noExec10, { ...noExec10, tolerationSeconds: 5 }), true);
  assert.equal(isSuperset({ operator: 'Exists' }, noExec10), true);
  assert.equal(isSuperset({ key: 'foo', operator: 'Exists' }, dedicated), false);
  assert.equal(isSuperset({ key: 'dedicated', operator: 'Exists' }, dedicated), true);
  assert.equal(isSuperset({ key: 'dedicated', value: 'team', effect: 'NoSchedule' }, dedicated), true);
  // An empty operator on the narrower side is not Equal (upstream compares literally).
  assert.equal(isSuperset(dedicated, { key: 'dedicated', value: 'team', effect: 'NoSchedule' }), false);
  assert.deepEqual(mergeTolerations([noExec10, gpu], [noExec, gpu]), [gpu, noExec]);
  assert.deepEqual(mergeTolerations([], []), []);
  assert.equal(verifyAgainstWhitelist([noExec10], [noExec]), true);
  assert.equal(verifyAgainstWhitelist([noExec], [noExec10]), false);
  assert.equal(verifyAgainstWhitelist([noExec], []), true);
});
