import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../runtime/errors.js';
import { staticDeps, staticLister } from '../testing/deps.js';
import { podAttrs } from '../testing/attrs.js';
import { resourceListsEqual, runtimeClassFactory, RuntimeClassPlugin } from './plugin.js';
import { isSuperset, mergeTolerations, type Toleration } from '../podutil/tolerations.js';

const rc = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name }, handler: 'h', ...extra });
const plugin = (classes: Record<string, unknown>[]) => new RuntimeClassPlugin(staticLister(classes));
const pod = (spec: Record<string, unknown> = {}) => ({ metadata: { name: 'p' }, spec: { containers: [], ...spec } }) as { metadata: object; spec: Record<string, any> };

async function refusal(p: Promise<void>): Promise<StatusError> {
  try { await p; } catch (e) { assert.ok(e instanceof StatusError); return e; }
  assert.fail('expected a refusal');
}

test('overhead is copied from the class; validation then passes', async () => {
  const classes = [rc('kata', { overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } })];
  const obj = pod({ runtimeClassName: 'kata' });
  const a = podAttrs({ object: obj });
  await plugin(classes).admit(a);
  assert.deepEqual(obj.spec.overhead, { cpu: '250m', memory: '120Mi' });
  await plugin(classes).validate(a);
});

test('a pod overhead equal in quantity is kept; a different one is refused', async () => {
  const classes = [rc('kata', { overhead: { podFixed: { cpu: '250m' } } })];
  await plugin(classes).admit(podAttrs({ object: pod({ runtimeClassName: 'kata', overhead: { cpu: '0.25' } }) }));
  const e = await refusal(plugin(classes).admit(podAttrs({ object: pod({ runtimeClassName: 'kata', overhead: { cpu: '1' } }) })));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'pods "p" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead');
  const v = await refusal(plugin(classes).validate(podAttrs({ object: pod({ runtimeClassName: 'kata', overhead: { cpu: '1' } }) })));
  assert.match(v.message, /Pod's Overhead doesn't match/);
});

test('an overhead without a class defining one is refused by validation', async () => {
  for (const spec of [{ overhead: { cpu: '1' } }, { runtimeClassName: 'plain', overhead: { cpu: '1' } }]) {
    const a = podAttrs({ object: pod(spec) });
    await plugin([rc('plain')]).admit(a);
    const e = await refusal(plugin([rc('plain')]).validate(a));
    assert.equal(e.message, 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  }
});

test('an unknown class is refused (after a live read) in both phases', async () => {
  const a = podAttrs({ object: pod({ runtimeClassName: 'ghost' }) });
  const e = await refusal(plugin([]).admit(a));
  assert.equal(e.message, 'pods "p" is forbidden: pod rejected: RuntimeClass "ghost" not found');
  await refusal(plugin([]).validate(a));
  const late = rc('late', { overhead: { podFixed: { cpu: '1' } } });
  const obj = pod({ runtimeClassName: 'late' });
  await new RuntimeClassPlugin({ ...staticLister([]), fetch: async () => late }).admit(podAttrs({ object: obj }));
  assert.deepEqual(obj.spec.overhead, { cpu: '1' });
});

test('the class\'s node selector is merged in; a conflicting value is refused', async () => {
  const classes = [rc('gpu', { scheduling: { nodeSelector: { accel: 'gpu', zone: 'a' } } })];
  const none = pod({ runtimeClassName: 'gpu' });
  await plugin(classes).admit(podAttrs({ object: none }));
  assert.deepEqual(none.spec.nodeSelector, { accel: 'gpu', zone: 'a' });
  const some = pod({ runtimeClassName: 'gpu', nodeSelector: { disk: 'ssd', zone: 'a' } });
  await plugin(classes).admit(podAttrs({ object: some }));
  assert.deepEqual(some.spec.nodeSelector, { disk: 'ssd', zone: 'a', accel: 'gpu' });
  const e = await refusal(plugin(classes).admit(podAttrs({ object: pod({ runtimeClassName: 'gpu', nodeSelector: { zone: 'b' } }) })));
  assert.equal(e.message, 'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[zone] = a; pod.spec.nodeSelector[zone] = b');
});

test('the class\'s tolerations are added unless one already tolerates them', async () => {
  const classes = [rc('gpu', { scheduling: { tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }, { key: 'x', operator: 'Equal', value: 'y' }] } })];
  const obj = pod({ runtimeClassName: 'gpu', tolerations: [{ key: 'x', operator: 'Exists' }] });
  await plugin(classes).admit(podAttrs({ object: obj }));
  assert.deepEqual(obj.spec.tolerations, [{ key: 'x', operator: 'Exists' }, { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }]);
});

test('tolerations merge as upstream: supersets win, equal ones kept once, NoExecute seconds respected', () => {
  assert.ok(isSuperset({ operator: 'Exists' }, { key: 'a', operator: 'Equal', value: 'v', effect: 'NoSchedule' }));
  assert.ok(!isSuperset({ key: 'a', operator: 'Equal', value: 'v' }, { key: 'a', operator: 'Exists' }));
  assert.ok(!isSuperset({ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }, { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }));
  assert.ok(isSuperset({ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }, { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }));
  const t: Toleration = { key: 'a', operator: 'Exists' };
  assert.deepEqual(mergeTolerations([t], [{ ...t }]), [t]);
  assert.deepEqual(mergeTolerations([{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }], [t]), [t]);
});

test('overhead equality compares quantities; absent equals empty', () => {
  assert.ok(resourceListsEqual({ memory: '1Gi' }, { memory: '1073741824' }));
  assert.ok(resourceListsEqual(undefined, {}));
  assert.ok(!resourceListsEqual({ cpu: '1' }, { cpu: '1', memory: '1' }));
});

test('pods without a class, sub-resources and other resources are left alone; only CREATE is handled', async () => {
  const p = plugin([]);
  const obj = pod();
  await p.admit(podAttrs({ object: obj }));
  await p.validate(podAttrs({ object: obj }));
  assert.deepEqual(obj, pod());
  const withClass = pod({ runtimeClassName: 'ghost' });
  await p.admit(podAttrs({ subresource: 'status', object: withClass }));
  await p.admit(podAttrs({ resource: { group: '', version: 'v1', resource: 'podtemplates' }, object: withClass }));
  assert.ok(p.handles('CREATE') && !p.handles('UPDATE') && !p.handles('DELETE'));
});

test('the factory uses the node group of the domain', async () => {
  const p = runtimeClassFactory(undefined, staticDeps({ 'node.orch.io/runtimeclasses': [rc('kata', { overhead: { podFixed: { cpu: '1' } } })] })) as RuntimeClassPlugin;
  const obj = pod({ runtimeClassName: 'kata' });
  await p.admit(podAttrs({ object: obj }));
  assert.deepEqual(obj.spec.overhead, { cpu: '1' });
});
