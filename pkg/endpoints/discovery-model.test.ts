import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiscoveryModel, sourcePrecedence, type DiscoveryGroupVersion, type DiscoverySource } from './discovery-model.js';

/** A source whose group versions a test sets, telling the model of each change. */
class TestSource implements DiscoverySource {
  private listeners: (() => void)[] = [];
  constructor(private gvs: DiscoveryGroupVersion[]) {}
  groupVersions() {
    return this.gvs;
  }
  subscribe(listener: () => void) {
    this.listeners.push(listener);
  }
  set(gvs: DiscoveryGroupVersion[]) {
    this.gvs = gvs;
    for (const l of this.listeners) l();
  }
}

const gv = (group: string, version: string, groupPriority: number, versionPriority: number, kind = 'Thing'): DiscoveryGroupVersion => ({
  group, version, groupPriority, versionPriority, freshness: 'Current',
  resources: [{ name: 'things', singularName: 'thing', namespaced: true, kind, verbs: ['get'] }],
});

const order = (m: DiscoveryModel) => m.groups().map((g) => `${g.name}:${g.versions.map((v) => v.version).join(',')}`);

test('groups by their highest group priority then name; versions by priority then kube-aware order', () => {
  const m = new DiscoveryModel();
  m.add(new TestSource([
    gv('b.example', 'v1', 1000, 100), gv('b.example', 'v2beta1', 1000, 100), gv('b.example', 'v2', 1000, 100),
    gv('a.example', 'v1', 1000, 100),
    gv('', 'v1', 18000, 1),
    gv('autoscaling', 'v1', 17500, 15), gv('autoscaling', 'v2', 17500, 30),
    gv('low', 'v1', 10, 15), gv('low', 'v1alpha1', 20000, 1),
  ]), sourcePrecedence.builtIn);
  assert.deepEqual(order(m), ['low:v1,v1alpha1', ':v1', 'autoscaling:v2,v1', 'a.example:v1', 'b.example:v2,v1,v2beta1']);
  assert.equal(m.group('autoscaling')?.versions[0]?.version, 'v2');
  assert.equal(m.groupVersion('b.example', 'v2beta1')?.version, 'v2beta1');
  assert.equal(m.groupVersion('b.example', 'v3'), undefined);
});

test('a group version several sources serve comes from the one of lowest precedence', () => {
  const m = new DiscoveryModel();
  m.add(new TestSource([gv('x.example', 'v1', 1000, 100, 'Custom')]), sourcePrecedence.custom);
  m.add(new TestSource([gv('x.example', 'v1', 1000, 100, 'Aggregated'), gv('x.example', 'v2', 1000, 100, 'Aggregated')]), sourcePrecedence.aggregated);
  assert.deepEqual(m.group('x.example')?.versions.map((v) => `${v.version}:${v.resources[0]?.kind}`), ['v2:Aggregated', 'v1:Aggregated']);
});

test('a source\'s change reaches readers, listeners, and what was derived from the old content', () => {
  const m = new DiscoveryModel();
  const s = new TestSource([gv('a.example', 'v1', 1000, 100)]);
  m.add(s, sourcePrecedence.builtIn);
  let told = 0;
  m.subscribe(() => told++);
  let builds = 0;
  const derived = () => m.derived('names', () => (builds++, order(m)));
  assert.deepEqual(derived(), ['a.example:v1']);
  assert.deepEqual(derived(), ['a.example:v1']);
  assert.equal(builds, 1, 'derived once per content');
  s.set([gv('a.example', 'v1', 1000, 100), gv('c.example', 'v1', 2000, 100)]);
  assert.equal(told, 1);
  assert.deepEqual(derived(), ['c.example:v1', 'a.example:v1']);
  assert.equal(builds, 2);
  s.set([]);
  assert.equal(m.group('a.example'), undefined);
});
