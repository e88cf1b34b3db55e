import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import { StatusError } from '../../runtime/errors.js';
import type { AttributesInit } from '../attributes.js';
import { staticDeps, staticLister } from '../testing/deps.js';
import { podAttrs, testUser } from '../testing/attrs.js';
import { nodeIdentity } from '../../runtime/node-identity.js';
import { nodeRestrictionFactory, NodeRestrictionPlugin } from './plugin.js';

const node = (name: string) => ({ name: `system:node:${name}`, groups: ['system:nodes', 'system:authenticated'], extra: {} });
const me = node('mynode');
const mirror = { 'orch.io/config.mirror': 'hash' };
const nodeObj = (name: string, extra: Record<string, any> = {}) => ({ metadata: { name, uid: `${name}-uid`, ...(extra['metadata'] ?? {}) }, spec: { ...(extra['spec'] ?? {}) } });
const boundPod = (name: string, nodeName: string, uid = `${name}-uid`) => ({ metadata: { name, namespace: 'ns', uid }, spec: { nodeName, containers: [] } });

const pods = [boundPod('mine', 'mynode'), boundPod('theirs', 'other'), boundPod('unbound', '')];
const plugin = () => new NodeRestrictionPlugin(defaultApiDomain, staticLister(pods), staticLister([nodeObj('mynode'), nodeObj('other')]));

const res = (group: string, resource: string, kind: string) => ({
  resource: { group, version: 'v1', resource }, kind: { group, version: 'v1', kind },
});
const nodes = res('', 'nodes', 'Node');
const attrs = (over: Partial<AttributesInit> & { object?: Record<string, unknown> }) => podAttrs({ userInfo: me, ...over });

async function refusal(run: () => Promise<void> | void): Promise<StatusError> {
  try { await run(); } catch (e) { assert.ok(e instanceof StatusError, String(e)); return e; }
  assert.fail('expected a refusal');
}
const forbidden = async (a: ReturnType<typeof attrs>, msg: string) => {
  const e = await refusal(() => plugin().admit(a));
  assert.equal(e.code, 403);
  assert.equal(e.message.replace(/^[^:]*? is forbidden: /, ''), msg);
  return e;
};

test('node identity: system:node:<name> in system:nodes only', () => {
  assert.deepEqual(nodeIdentity(me), ['mynode', true]);
  assert.deepEqual(nodeIdentity({ ...me, groups: [] }), ['', false]);
  assert.deepEqual(nodeIdentity({ name: 'system:nodes', groups: ['system:nodes'], extra: {} }), ['', false]);
  assert.deepEqual(nodeIdentity(node('')), ['', true]);
});

test('non-node users are never affected', async () => {
  await plugin().admit(podAttrs({ userInfo: testUser, ...nodes, name: 'other', namespace: '', operation: 'DELETE' }));
  await plugin().admit(podAttrs({ userInfo: { ...me, groups: ['system:authenticated'] }, ...nodes, name: 'other', namespace: '', operation: 'DELETE' }));
  await plugin().admit(podAttrs({ userInfo: testUser, object: { metadata: { name: 'p' }, spec: {} } }));
});

test('a node user without a name is refused', async () => {
  const e = await refusal(() => plugin().admit(podAttrs({ userInfo: node(''), object: { metadata: { name: 'p' } } })));
  assert.equal(e.message, 'pods "p" is forbidden: could not determine node from user "system:node:"');
});

test('nodes: only its own, no taint changes, no config source, only kubelet labels', async () => {
  await forbidden(attrs({ ...nodes, namespace: '', name: 'other', operation: 'DELETE' }), 'node "mynode" is not allowed to modify node "other"');
  await plugin().admit(attrs({ ...nodes, namespace: '', name: 'mynode', operation: 'DELETE' }));
  await plugin().admit(attrs({ ...nodes, namespace: '', name: 'mynode', object: nodeObj('mynode', { metadata: { labels: { 'orch.io/hostname': 'h', 'node.orch.io/pool': 'a', 'kubelet.orch.io/x': '1', 'topology.orch.io/zone': 'z', 'example.com/free': 'yes' } } }) }));
  await forbidden(attrs({ ...nodes, namespace: '', name: 'mynode', object: nodeObj('mynode', { spec: { configSource: { configMap: {} } } }) }),
    'node "mynode" is not allowed to create pods with a non-nil configSource');
  await forbidden(attrs({ ...nodes, namespace: '', name: 'mynode', object: nodeObj('mynode', { metadata: { labels: { 'node-restriction.orch.io/role': 'db', 'orch.io/role': 'x', 'foo.orch.io/bar': 'y' } } }) }),
    'node "mynode" is not allowed to set the following labels: foo.orch.io/bar, node-restriction.orch.io/role, orch.io/role');

  const old = nodeObj('mynode', { metadata: { labels: { 'orch.io/role': 'x' } }, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } });
  const upd = (o: Record<string, unknown>) => attrs({ ...nodes, namespace: '', name: 'mynode', operation: 'UPDATE', object: o, oldObject: old });
  await plugin().admit(upd(nodeObj('mynode', { metadata: { labels: { 'orch.io/role': 'x', 'node.orch.io/new': '1' } }, spec: { taints: [{ key: 'k', effect: 'NoSchedule', value: '' }] } })));
  await forbidden(upd(nodeObj('mynode', { metadata: { labels: { 'orch.io/role': 'x' } } })), 'node "mynode" is not allowed to modify taints');
  await forbidden(upd(nodeObj('mynode', { metadata: { labels: {} }, spec: old.spec })), 'is not allowed to modify labels: orch.io/role');
  await forbidden(upd(nodeObj('mynode', { metadata: old.metadata, spec: { ...old.spec, configSource: { configMap: { name: 'c' } } } })),
    'node "mynode" is not allowed to update configSource to a new non-nil configSource');
  // The status sub-resource goes through the same checks.
  await forbidden(attrs({ ...nodes, subresource: 'status', namespace: '', name: 'other', operation: 'UPDATE', object: nodeObj('other'), oldObject: nodeObj('other') }),
    'node "mynode" is not allowed to modify node "other"');
});

test('mirror pods: annotated, bound to itself, controller-owned by its Node, referencing nothing', async () => {
  const owner = { apiVersion: 'v1', kind: 'Node', name: 'mynode', uid: 'mynode-uid', controller: true };
  const mp = (over: Record<string, any> = {}) => ({
    metadata: { name: 'static', annotations: mirror, ownerReferences: [owner], ...(over['metadata'] ?? {}) },
    spec: { nodeName: 'mynode', containers: [{ name: 'c' }], ...(over['spec'] ?? {}) },
  });
  await plugin().admit(attrs({ object: mp() }));
  const n = '"mynode"';
  const cases: [Record<string, any>, string][] = [
    [{ metadata: { annotations: {} } }, `pod does not have "orch.io/config.mirror" annotation, node ${n} can only create mirror pods`],
    [{ spec: { nodeName: 'other' } }, `node ${n} can only create pods with spec.nodeName set to itself`],
    [{ metadata: { ownerReferences: [owner, owner] } }, `node ${n} can only create pods with a single owner reference set to itself`],
    [{ metadata: { ownerReferences: [] } }, `node ${n} can only create pods with an owner reference set to itself`],
    [{ metadata: { ownerReferences: [{ ...owner, name: 'other' }] } }, `node ${n} can only create pods with an owner reference set to itself`],
    [{ metadata: { ownerReferences: [{ ...owner, controller: false }] } }, `node ${n} can only create pods with a controller owner reference set to itself`],
    [{ metadata: { ownerReferences: [{ ...owner, blockOwnerDeletion: true }] } }, `node ${n} must not set blockOwnerDeletion on an owner reference`],
    [{ metadata: { ownerReferences: [{ ...owner, uid: 'stale' }] } }, 'node mynode UID mismatch: expected stale got mynode-uid'],
    [{ spec: { serviceAccountName: 'default' } }, `node ${n} can not create pods that reference a service account`],
    [{ spec: { volumes: [{ name: 's', secret: { secretName: 's' } }] } }, `node ${n} can not create pods that reference secrets`],
    [{ spec: { containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'cm' } }] }] } }, `node ${n} can not create pods that reference configmaps`],
    [{ spec: { volumes: [{ name: 'b', projected: { sources: [{ clusterTrustBundle: { name: 'x', path: 'p' } }] } }] } }, `node ${n} can not create pods that reference clustertrustbundles`],
    [{ spec: { volumes: [{ name: 'c', persistentVolumeClaim: { claimName: 'c' } }] } }, `node ${n} can not create pods that reference persistentvolumeclaims`],
  ];
  for (const [over, msg] of cases) await forbidden(attrs({ object: mp(over) }), msg);
  await forbidden(attrs({ operation: 'UPDATE', object: mp(), oldObject: mp() }), `unexpected operation "UPDATE", node ${n} can only create and delete mirror pods`);
});

test('pod delete, status and eviction only for pods bound to the node', async () => {
  await plugin().admit(attrs({ operation: 'DELETE', name: 'mine' }));
  await forbidden(attrs({ operation: 'DELETE', name: 'theirs' }), 'node "mynode" can only delete pods with spec.nodeName set to itself');
  const gone = await refusal(() => plugin().admit(attrs({ operation: 'DELETE', name: 'gone' })));
  assert.equal(gone.code, 404);
  assert.equal(gone.message, 'pod "gone" not found');

  const mine = pods[0]!;
  await plugin().admit(attrs({ operation: 'UPDATE', subresource: 'status', name: 'mine', object: mine, oldObject: mine }));
  await forbidden(attrs({ operation: 'UPDATE', subresource: 'status', name: 'theirs', object: pods[1]!, oldObject: pods[1]! }),
    'node "mynode" can only update pod status for pods with spec.nodeName set to itself');
  await forbidden(attrs({ operation: 'UPDATE', subresource: 'status', name: 'mine', object: { ...mine, metadata: { ...mine.metadata, labels: { a: 'b' } } }, oldObject: mine }),
    'node "mynode" cannot update labels through pod status');

  const ev = (name: string, bodyName = name) => attrs({ ...res('', 'pods', 'Eviction'), subresource: 'eviction', name, object: { metadata: { name: bodyName } } });
  await plugin().admit(ev('mine'));
  await plugin().admit(ev('', 'mine'));
  await forbidden(ev('theirs'), 'node mynode can only evict pods with spec.nodeName set to itself');
  await forbidden(ev('theirs', 'mine'), 'node mynode can only evict pods with spec.nodeName set to itself');
  await forbidden(ev('', ''), 'could not determine pod from request data');
  await forbidden(attrs({ subresource: 'binding', name: 'mine', object: {} }), 'unexpected pod subresource "binding", only \'status\' and \'eviction\' are allowed');
});

test('a pod the cache has not seen yet is read live', async () => {
  const late = boundPod('late', 'mynode');
  const p = new NodeRestrictionPlugin(defaultApiDomain, { ...staticLister([]), fetch: async (_ns, name) => (name === 'late' ? late : undefined) }, staticLister([]));
  await p.admit(attrs({ operation: 'DELETE', name: 'late' }));
});

test('tokens only for pods bound to the node, by uid', async () => {
  const tok = (ref: Record<string, unknown> | undefined) => attrs({
    ...res('', 'serviceaccounts', 'TokenRequest'), subresource: 'token', name: 'default', object: { spec: { audiences: [], ...(ref ? { boundObjectRef: ref } : {}) } },
  });
  const ref = { apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'mine-uid' };
  await plugin().admit(tok(ref));
  await forbidden(tok(undefined), 'node requested token not bound to a pod');
  await forbidden(tok({ ...ref, kind: 'Secret' }), 'node requested token not bound to a pod');
  await forbidden(tok({ ...ref, uid: '' }), 'node requested token with a pod binding without a uid');
  await forbidden(tok({ ...ref, uid: 'old' }), 'the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated');
  await forbidden(tok({ ...ref, name: 'theirs', uid: 'theirs-uid' }), 'node requested token bound to a pod scheduled on a different node');
  assert.equal((await refusal(() => plugin().admit(tok({ ...ref, name: 'gone' })))).code, 404);
  // Other service account writes are not this plug-in's business.
  await plugin().admit(attrs({ ...res('', 'serviceaccounts', 'ServiceAccount'), object: { metadata: { name: 'x' } } }));
});

test('leases only in the node-lease namespace and named after the node', async () => {
  const lease = (namespace: string, name: string, operation: 'CREATE' | 'UPDATE' | 'DELETE' = 'CREATE') =>
    attrs({ ...res('coordination.orch.io', 'leases', 'Lease'), namespace, name: operation === 'CREATE' ? '' : name, operation, object: { metadata: { name } } });
  await plugin().admit(lease('orch-node-lease', 'mynode'));
  await plugin().admit(lease('orch-node-lease', 'mynode', 'UPDATE'));
  await forbidden(lease('orch-system', 'mynode'), 'can only access leases in the "orch-node-lease" system namespace');
  await forbidden(lease('orch-node-lease', 'other'), 'can only access node lease with the same name as the requesting node');
  await forbidden(lease('orch-node-lease', 'other', 'DELETE'), 'can only access node lease with the same name as the requesting node');
});

test('CSINodes named after the node only', async () => {
  const csi = (name: string, operation: 'CREATE' | 'UPDATE' = 'CREATE') =>
    attrs({ ...res('storage.orch.io', 'csinodes', 'CSINode'), namespace: '', name: operation === 'CREATE' ? '' : name, operation, object: { metadata: { name } } });
  await plugin().admit(csi('mynode'));
  await plugin().admit(csi('mynode', 'UPDATE'));
  await forbidden(csi('other'), 'can only access CSINode with the same name as the requesting node');
  await forbidden(csi('other', 'UPDATE'), 'can only access CSINode with the same name as the requesting node');
});

test('claims: status only, and only capacity and conditions may change', async () => {
  const pvc = { metadata: { name: 'c', namespace: 'ns', resourceVersion: '1' }, spec: { resources: {} }, status: { phase: 'Bound' } };
  const claims = res('', 'persistentvolumeclaims', 'PersistentVolumeClaim');
  const st = (object: Record<string, unknown>) => attrs({ ...claims, subresource: 'status', operation: 'UPDATE', name: 'c', object, oldObject: pvc });
  await plugin().admit(st({ ...pvc, metadata: { name: 'c', namespace: 'ns' }, status: { phase: 'Bound', capacity: { storage: '2Gi' }, conditions: [{ type: 'Resizing' }] } }));
  await forbidden(st({ ...pvc, metadata: { ...pvc.metadata, labels: { a: 'b' } } }),
    'node "mynode" is not allowed to update fields other than status.quantity and status.conditions: metadata.labels');
  await forbidden(attrs({ ...claims, operation: 'UPDATE', name: 'c', object: pvc, oldObject: pvc }), 'may only update PVC status');
});

test('resources it does not restrict pass; the factory needs pod and node listers', async () => {
  await plugin().admit(attrs({ ...res('', 'configmaps', 'ConfigMap'), object: { metadata: { name: 'x' } } }));
  await plugin().admit(attrs({ ...res('apps.orch.io', 'deployments', 'Deployment'), object: { metadata: { name: 'x' } } }));
  const p = nodeRestrictionFactory(undefined, staticDeps({ '/pods': [boundPod('mine', 'mynode')] }));
  assert.equal(p.name, 'NodeRestriction');
  assert.ok(p.handles('CREATE') && p.handles('UPDATE') && p.handles('DELETE') && !p.handles('CONNECT'));
  assert.throws(() => nodeRestrictionFactory(undefined, { domain: defaultApiDomain, lister: () => undefined }), /requires a pod getter/);
});
