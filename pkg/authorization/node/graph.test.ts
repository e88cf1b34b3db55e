import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Graph, type PodReferences, type VertexType } from './graph.js';

const pod = (name: string, nodeName: string, refs: Partial<PodReferences> = {}): PodReferences =>
  ({ namespace: 'ns', name, nodeName, serviceAccount: '', secrets: [], configMaps: [], claims: [], ...refs });
const reaches = (g: Graph, node: string, type: VertexType, name: string, namespace = 'ns') => g.hasPathFrom(node, type, namespace, name).found;

test('a bound pod connects its node to its secrets, config maps, claims and service account, and no other node', () => {
  const g = new Graph();
  g.addPod(pod('web', 'n1', { serviceAccount: 'sa', secrets: ['s', 'pull'], configMaps: ['cm'], claims: ['data'] }));
  for (const [type, name] of [['secret', 's'], ['secret', 'pull'], ['configmap', 'cm'], ['pvc', 'data'], ['serviceAccount', 'sa'], ['pod', 'web']] as const) {
    assert.equal(reaches(g, 'n1', type, name), true, `${type} ${name}`);
    assert.equal(reaches(g, 'n2', type, name), false, `${type} ${name} from another node`);
  }
  assert.equal(reaches(g, 'n1', 'secret', 's', 'other'), false, 'the same name in another namespace');
  assert.equal(reaches(g, 'n1', 'configmap', 's'), false, 'the same name as another type');
  assert.deepEqual(g.hasPathFrom('n1', 'secret', 'ns', 'nope'), { found: false, why: "node 'n1' cannot get unknown secret ns/nope" });
  assert.deepEqual(g.hasPathFrom('n9', 'secret', 'ns', 's'), { found: false, why: "unknown node 'n9' cannot get secret ns/s" });
});

test('deleting a pod takes away what only it referred to, and nothing another pod still refers to', () => {
  const g = new Graph();
  g.addPod(pod('a', 'n1', { secrets: ['shared', 'only-a'] }));
  g.addPod(pod('b', 'n2', { secrets: ['shared'] }));
  g.addPod(pod('c', 'n1', { secrets: ['shared', 'shared'] }));
  assert.equal(reaches(g, 'n1', 'secret', 'shared'), true);
  assert.equal(reaches(g, 'n2', 'secret', 'shared'), true);
  g.deletePod('ns', 'a');
  assert.equal(reaches(g, 'n1', 'secret', 'only-a'), false);
  assert.equal(g.count('secret'), 1, 'the secret no pod refers to is gone');
  assert.equal(reaches(g, 'n1', 'secret', 'shared'), true, 'pod c on n1 still refers to it (twice, counted once)');
  g.deletePod('ns', 'c');
  assert.equal(reaches(g, 'n1', 'secret', 'shared'), false, 'no pod on n1 refers to it any more');
  assert.equal(reaches(g, 'n2', 'secret', 'shared'), true);
  assert.equal(g.count('node'), 1, 'n1 has no pods left');
  g.deletePod('ns', 'b');
  for (const t of ['secret', 'pod', 'node'] as const) assert.equal(g.count(t), 0, t);
  g.deletePod('ns', 'never-added');
});

test('recording a pod again replaces what it referred to', () => {
  const g = new Graph();
  g.addPod(pod('web', 'n1', { secrets: ['old'], configMaps: ['kept'] }));
  g.addPod(pod('web', 'n2', { secrets: ['new'], configMaps: ['kept'] }));
  assert.equal(reaches(g, 'n1', 'secret', 'old'), false);
  assert.equal(reaches(g, 'n1', 'configmap', 'kept'), false, 'the pod moved to n2');
  assert.equal(reaches(g, 'n2', 'secret', 'new'), true);
  assert.equal(reaches(g, 'n2', 'configmap', 'kept'), true);
  assert.deepEqual(g.edgesFrom('pod', 'ns', 'web'), ['node:n2']);
});

test('a PV bound to a claim of a pod leads to the pod\'s node, and so do the PV\'s secrets', () => {
  const g = new Graph();
  // The PV may be recorded before any pod uses its claim.
  g.addPersistentVolume('pv1', { claim: { namespace: 'ns', name: 'data' }, secrets: [{ namespace: 'ns', name: 'creds' }, { namespace: 'other', name: 'far' }] });
  assert.equal(reaches(g, 'n1', 'pv', 'pv1', ''), false, 'no pod uses the claim yet');
  g.addPod(pod('db', 'n1', { claims: ['data'] }));
  assert.equal(reaches(g, 'n1', 'pv', 'pv1', ''), true);
  assert.equal(reaches(g, 'n1', 'secret', 'creds'), true);
  assert.equal(reaches(g, 'n1', 'secret', 'far', 'other'), true, 'the PV says where its secret is');
  assert.equal(reaches(g, 'n2', 'pv', 'pv1', ''), false);
  // Another node's pod sharing a secret with the PV does not open the PV's path to it.
  g.addPod(pod('other', 'n2', { secrets: ['creds'] }));
  assert.equal(reaches(g, 'n2', 'pv', 'pv1', ''), false);
  assert.equal(reaches(g, 'n2', 'secret', 'creds'), true);
  g.deletePod('ns', 'other');
  assert.equal(reaches(g, 'n1', 'secret', 'creds'), true);

  // Rebound to another claim: the old path is gone.
  g.addPersistentVolume('pv1', { claim: { namespace: 'ns', name: 'elsewhere' }, secrets: [] });
  assert.equal(reaches(g, 'n1', 'pv', 'pv1', ''), false);
  assert.equal(reaches(g, 'n1', 'secret', 'creds'), false);
  assert.equal(reaches(g, 'n1', 'pvc', 'data'), true, 'the claim stays the pod\'s');
  // Unbound, then deleted: nothing of it is left.
  g.addPersistentVolume('pv1', undefined);
  assert.equal(g.count('pv'), 0);
  g.addPersistentVolume('pv1', { claim: { namespace: 'ns', name: 'data' }, secrets: [] });
  assert.equal(reaches(g, 'n1', 'pv', 'pv1', ''), true);
  g.deletePersistentVolume('pv1');
  assert.equal(g.count('pv'), 0);
  assert.equal(reaches(g, 'n1', 'pvc', 'data'), true);
});
