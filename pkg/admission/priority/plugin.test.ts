import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import { StatusError } from '../../runtime/errors.js';
import { staticDeps, staticLister } from '../testing/deps.js';
import { podAttrs } from '../testing/attrs.js';
import { defaultPriorityClass, priorityFactory, PriorityPlugin } from './plugin.js';

const pc = (name: string, value: number, extra: Record<string, unknown> = {}) => ({ metadata: { name }, value, ...extra });
const plugin = (classes: Record<string, unknown>[]) => new PriorityPlugin(defaultApiDomain, staticLister(classes));
const pod = (spec: Record<string, unknown> = {}) => ({ metadata: { name: 'p' }, spec: { containers: [], ...spec } });
const pcAttrs = (operation: 'CREATE' | 'UPDATE', object: Record<string, unknown>) => podAttrs({
  kind: { group: 'scheduling.orch.io', version: 'v1', kind: 'PriorityClass' },
  resource: { group: 'scheduling.orch.io', version: 'v1', resource: 'priorityclasses' },
  namespace: '', operation, object, ...(operation === 'UPDATE' ? { oldObject: object } : {}),
});

/** The StatusError `run` throws or rejects with. */
async function refusal(run: () => Promise<void> | void): Promise<StatusError> {
  try { await run(); } catch (e) { assert.ok(e instanceof StatusError); return e; }
  assert.fail('expected a refusal');
}

test('a named class sets priority and its preemption policy', async () => {
  const obj = pod({ priorityClassName: 'high' });
  await plugin([pc('high', 1000, { preemptionPolicy: 'Never' })]).admit(podAttrs({ object: obj }));
  assert.equal((obj.spec as any).priority, 1000);
  assert.equal((obj.spec as any).preemptionPolicy, 'Never');
});

test('a class without a preemption policy leaves the pod\'s alone', async () => {
  const obj = pod({ priorityClassName: 'high', preemptionPolicy: 'Never' });
  await plugin([pc('high', 5)]).admit(podAttrs({ object: obj }));
  assert.equal((obj.spec as any).preemptionPolicy, 'Never');
  assert.equal((obj.spec as any).priority, 5);
});

test('no class name: the global default class (lowest value when several), else 0 and PreemptLowerPriority', async () => {
  const a = pod();
  await plugin([pc('a', 10, { globalDefault: true }), pc('b', 3, { globalDefault: true, preemptionPolicy: 'Never' }), pc('c', 1)]).admit(podAttrs({ object: a }));
  assert.deepEqual([(a.spec as any).priorityClassName, (a.spec as any).priority, (a.spec as any).preemptionPolicy], ['b', 3, 'Never']);
  const b = pod();
  await plugin([pc('c', 1)]).admit(podAttrs({ object: b }));
  assert.equal((b.spec as any).priorityClassName, undefined);
  assert.equal((b.spec as any).priority, 0);
  assert.equal((b.spec as any).preemptionPolicy, 'PreemptLowerPriority');
  assert.equal(defaultPriorityClass([]), undefined);
});

test('an unknown class is refused 403; a class the cache missed is read live', async () => {
  const e = await refusal(() => plugin([]).admit(podAttrs({ object: pod({ priorityClassName: 'ghost' }) })));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'pods "p" is forbidden: no PriorityClass with name ghost was found');
  const late = pc('late', 7);
  const lister = { ...staticLister([]), fetch: async (_ns: string, name: string) => (name === 'late' ? late : undefined) };
  const obj = pod({ priorityClassName: 'late' });
  await new PriorityPlugin(defaultApiDomain, lister).admit(podAttrs({ object: obj }));
  assert.equal((obj.spec as any).priority, 7);
});

test('a pod-supplied priority or policy must equal the computed one', async () => {
  const classes = [pc('high', 1000, { preemptionPolicy: 'PreemptLowerPriority' })];
  const e = await refusal(() => plugin(classes).admit(podAttrs({ object: pod({ priorityClassName: 'high', priority: 5 }) })));
  assert.equal(e.message, 'pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
  await plugin(classes).admit(podAttrs({ object: pod({ priorityClassName: 'high', priority: 1000 }) }));
  const f = await refusal(() => plugin(classes).admit(podAttrs({ object: pod({ priorityClassName: 'high', preemptionPolicy: 'Never' }) })));
  assert.equal(f.message, 'pods "p" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name');
  const g = await refusal(() => plugin([]).admit(podAttrs({ object: pod({ priority: 9 }) })));
  assert.match(g.message, /priority \(9\) must not be provided in pod spec; priority admission controller computed 0 from/);
});

test('system classes resolve in any namespace (upstream dropped the kube-system restriction in 1.17)', async () => {
  const obj = pod({ priorityClassName: 'system-node-critical' });
  await plugin([pc('system-node-critical', 2000001000)]).admit(podAttrs({ namespace: 'team', object: obj }));
  assert.equal((obj.spec as any).priority, 2000001000);
});

test('update restores a dropped priority and policy from the stored pod, and nothing else', async () => {
  const old = pod({ priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' });
  const next = pod({ priorityClassName: 'high' });
  await plugin([]).admit(podAttrs({ operation: 'UPDATE', object: next, oldObject: old }));
  assert.equal((next.spec as any).priority, 1000);
  assert.equal((next.spec as any).preemptionPolicy, 'Never');
  const changed = pod({ priorityClassName: 'other', priority: 1 });
  await plugin([]).admit(podAttrs({ operation: 'UPDATE', object: changed, oldObject: old }));
  assert.equal((changed.spec as any).priority, 1, 'validation, not admission, refuses the change');
});

test('sub-resources, deletes and other resources are left alone', async () => {
  const obj = pod({ priorityClassName: 'ghost' });
  await plugin([]).admit(podAttrs({ subresource: 'status', operation: 'UPDATE', object: obj, oldObject: obj }));
  await plugin([]).admit(podAttrs({ operation: 'DELETE', object: undefined }));
  await plugin([]).admit(podAttrs({ resource: { group: '', version: 'v1', resource: 'configmaps' }, object: obj }));
  assert.equal((obj.spec as any).priority, undefined);
});

test('only one PriorityClass may be the global default', async () => {
  const existing = [pc('first', 1, { globalDefault: true })];
  const e = await refusal(() => plugin(existing).validate(pcAttrs('CREATE', pc('second', 2, { globalDefault: true }))));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'priorityclasses.scheduling.orch.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist');
  const u = await refusal(() => plugin([...existing, pc('second', 2)]).validate(pcAttrs('UPDATE', pc('second', 2, { globalDefault: true }))));
  assert.match(u.message, /PriorityClass first is already marked as default/);
  // The default itself may be updated; a non-default class and a first default are fine.
  plugin(existing).validate(pcAttrs('UPDATE', pc('first', 5, { globalDefault: true })));
  plugin(existing).validate(pcAttrs('CREATE', pc('third', 3)));
  plugin([]).validate(pcAttrs('CREATE', pc('only', 3, { globalDefault: true })));
  // A create conflicts with any existing default, even one of the same name.
  await refusal(() => plugin(existing).validate(pcAttrs('CREATE', pc('first', 1, { globalDefault: true }))));
});

test('the factory uses the scheduling group of the domain', async () => {
  const p = priorityFactory(undefined, staticDeps({ 'scheduling.orch.io/priorityclasses': [pc('x', 42)] })) as PriorityPlugin;
  const obj = pod({ priorityClassName: 'x' });
  await p.admit(podAttrs({ object: obj }));
  assert.equal((obj.spec as any).priority, 42);
  assert.ok(p.handles('DELETE') && !p.handles('CONNECT'));
});
