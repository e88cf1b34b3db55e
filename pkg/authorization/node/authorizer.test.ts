import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import { parseRequestInfo } from '../../endpoints/request-info.js';
import type { UserInfo } from '../../runtime/user.js';
import { attributesFrom, resourceAttributes, type ResourceCheck } from '../attributes.js';
import { nodeRules } from '../rbac/bootstrap-policy.js';
import { NodeAuthorizer } from './authorizer.js';
import { Graph } from './graph.js';

const nodeUser = (name: string): UserInfo => ({ name, groups: ['system:nodes', 'system:authenticated'], extra: {} });
const n1 = nodeUser('system:node:n1');
const coordination = defaultApiDomain.group('coordination');
const storage = defaultApiDomain.group('storage');

function authorizer(): NodeAuthorizer {
  const graph = new Graph();
  graph.addPod({ namespace: 'ns', name: 'web', nodeName: 'n1', serviceAccount: 'runner', secrets: ['mine'], configMaps: ['cm'], claims: ['data'] });
  graph.addPod({ namespace: 'ns', name: 'other', nodeName: 'n2', serviceAccount: 'theirs', secrets: ['theirs'], configMaps: [], claims: [] });
  graph.addPersistentVolume('pv1', { claim: { namespace: 'ns', name: 'data' }, secrets: [] });
  return new NodeAuthorizer({ graph, rules: nodeRules(defaultApiDomain), coordinationGroup: coordination, storageGroup: storage });
}

const noRelation = "no relationship found between node 'n1' and this object";

test('decisions for node n1, with upstream\'s reasons when it has no opinion', async () => {
  const a = authorizer();
  const cases: [ResourceCheck, 'allow' | 'noOpinion', string][] = [
    // Secrets and config maps: read one object a pod of the node refers to, nothing else.
    [{ verb: 'get', resource: 'secrets', namespace: 'ns', name: 'mine' }, 'allow', ''],
    [{ verb: 'watch', resource: 'secrets', namespace: 'ns', name: 'mine' }, 'allow', ''],
    [{ verb: 'list', resource: 'configmaps', namespace: 'ns', name: 'cm' }, 'allow', ''],
    [{ verb: 'get', resource: 'secrets', namespace: 'ns', name: 'theirs' }, 'noOpinion', noRelation],
    [{ verb: 'get', resource: 'secrets', namespace: 'ns', name: 'unknown' }, 'noOpinion', noRelation],
    [{ verb: 'get', resource: 'secrets', namespace: 'other', name: 'mine' }, 'noOpinion', noRelation],
    [{ verb: 'list', resource: 'secrets', namespace: 'ns' }, 'noOpinion', 'No Object name found'],
    [{ verb: 'list', resource: 'secrets' }, 'noOpinion', 'can only read namespaced object of this type'],
    [{ verb: 'update', resource: 'secrets', namespace: 'ns', name: 'mine' }, 'noOpinion', 'can only read resources of this type'],
    [{ verb: 'create', resource: 'configmaps', namespace: 'ns' }, 'noOpinion', 'can only read resources of this type'],
    [{ verb: 'get', resource: 'configmaps', subresource: 'x', namespace: 'ns', name: 'cm' }, 'noOpinion', 'cannot read subresource'],
    // Claims and volumes: get only; a claim's status update when related.
    [{ verb: 'get', resource: 'persistentvolumeclaims', namespace: 'ns', name: 'data' }, 'allow', ''],
    [{ verb: 'list', resource: 'persistentvolumeclaims', namespace: 'ns', name: 'data' }, 'noOpinion', 'can only get individual resources of this type'],
    [{ verb: 'patch', resource: 'persistentvolumeclaims', subresource: 'status', namespace: 'ns', name: 'data' }, 'allow', ''],
    [{ verb: 'get', resource: 'persistentvolumeclaims', subresource: 'status', namespace: 'ns', name: 'data' }, 'noOpinion', 'can only get/update/patch this type'],
    [{ verb: 'get', resource: 'persistentvolumes', name: 'pv1' }, 'allow', ''],
    [{ verb: 'get', resource: 'persistentvolumes', name: 'pv2' }, 'noOpinion', noRelation],
    [{ verb: 'get', resource: 'persistentvolumes', subresource: 'status', name: 'pv1' }, 'noOpinion', 'cannot get subresource'],
    [{ verb: 'get', apiGroup: storage, resource: 'volumeattachments', name: 'va' }, 'noOpinion', noRelation],
    // Tokens for the accounts of its pods only.
    [{ verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'runner' }, 'allow', ''],
    [{ verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'theirs' }, 'noOpinion', noRelation],
    [{ verb: 'get', resource: 'serviceaccounts', namespace: 'ns', name: 'runner' }, 'noOpinion', 'can only create tokens for individual service accounts'],
    [{ verb: 'create', resource: 'serviceaccounts', namespace: 'ns', name: 'runner' }, 'noOpinion', 'can only create token subresource of serviceaccount'],
    // Its own Lease and CSINode; a create names nothing yet (NodeRestriction reads the body).
    [{ verb: 'update', apiGroup: coordination, resource: 'leases', namespace: 'orch-node-lease', name: 'n1' }, 'allow', ''],
    [{ verb: 'create', apiGroup: coordination, resource: 'leases', namespace: 'orch-node-lease' }, 'allow', ''],
    [{ verb: 'update', apiGroup: coordination, resource: 'leases', namespace: 'orch-node-lease', name: 'n2' }, 'noOpinion', 'can only access node lease with the same name as the requesting node'],
    [{ verb: 'get', apiGroup: coordination, resource: 'leases', namespace: 'default', name: 'n1' }, 'noOpinion', 'can only access leases in the "orch-node-lease" system namespace'],
    [{ verb: 'list', apiGroup: coordination, resource: 'leases', namespace: 'orch-node-lease' }, 'noOpinion', 'can only get, create, update, patch, or delete a node lease'],
    [{ verb: 'get', apiGroup: storage, resource: 'csinodes', name: 'n1' }, 'allow', ''],
    [{ verb: 'delete', apiGroup: storage, resource: 'csinodes', name: 'n2' }, 'noOpinion', 'can only access CSINode with the same name as the requesting node'],
    [{ verb: 'list', apiGroup: storage, resource: 'csinodes' }, 'noOpinion', 'can only get, create, update, patch, or delete a CSINode'],
    // Everything else: the rules every node shares (1.30: any Node and any pod are readable;
    // NodeRestriction keeps the writes to the node's own).
    [{ verb: 'get', resource: 'nodes', name: 'n2' }, 'allow', ''],
    [{ verb: 'list', resource: 'nodes' }, 'allow', ''],
    [{ verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1' }, 'allow', ''],
    [{ verb: 'watch', resource: 'pods' }, 'allow', ''],
    [{ verb: 'update', resource: 'pods', subresource: 'status', namespace: 'ns', name: 'other' }, 'allow', ''],
    [{ verb: 'create', resource: 'pods', subresource: 'eviction', namespace: 'ns', name: 'web' }, 'allow', ''],
    [{ verb: 'create', resource: 'events', namespace: 'ns' }, 'allow', ''],
    [{ verb: 'get', resource: 'services', namespace: 'ns', name: 's' }, 'allow', ''],
    [{ verb: 'update', resource: 'pods', namespace: 'ns', name: 'web' }, 'noOpinion', ''],
    [{ verb: 'delete', resource: 'nodes', name: 'n1' }, 'noOpinion', ''],
    [{ verb: 'list', apiGroup: 'apps', resource: 'deployments' }, 'noOpinion', ''],
  ];
  for (const [check, decision, reason] of cases) {
    const d = await a.authorize(resourceAttributes(n1, check));
    assert.deepEqual({ decision: d.decision, reason: d.reason }, { decision, reason }, JSON.stringify(check));
  }
  assert.equal((await a.authorize(attributesFrom(parseRequestInfo('GET', '/healthz'), n1))).decision, 'noOpinion');
});

test('a kubelet watching one secret by field selector is asked about that secret', async () => {
  const a = authorizer();
  const watch = (name: string) => attributesFrom(parseRequestInfo('GET', `/api/v1/namespaces/ns/secrets?watch=true&fieldSelector=metadata.name%3D${name}`), n1);
  assert.equal((await a.authorize(watch('mine'))).decision, 'allow');
  assert.deepEqual(await a.authorize(watch('theirs')), { decision: 'noOpinion', reason: noRelation });
});

test('only node identities are its business; a node identity without a name is refused with upstream\'s reason', async () => {
  const a = authorizer();
  const get = (user: UserInfo) => a.authorize(resourceAttributes(user, { verb: 'get', resource: 'secrets', namespace: 'ns', name: 'mine' }));
  assert.deepEqual(await get({ name: 'system:node:n1', groups: ['system:authenticated'], extra: {} }), { decision: 'noOpinion', reason: '' }, 'the name without the group');
  assert.deepEqual(await get(nodeUser('n1')), { decision: 'noOpinion', reason: '' }, 'the group without the name prefix');
  assert.deepEqual(await get({ name: 'jane', groups: [], extra: {} }), { decision: 'noOpinion', reason: '' });
  assert.deepEqual(await get(nodeUser('system:node:')), { decision: 'noOpinion', reason: 'unknown node for user "system:node:"' });
  assert.equal((await a.authorize({ ...resourceAttributes(undefined, { verb: 'list', resource: 'nodes' }) })).decision, 'noOpinion', 'no user at all');
});

test('a node\'s rules cannot be listed: SelfSubjectRulesReview says so, as upstream', async () => {
  const a = authorizer();
  assert.deepEqual(await a.rulesFor(n1), { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' });
  assert.deepEqual(await a.rulesFor({ name: 'jane', groups: [], extra: {} }), { resourceRules: [], nonResourceRules: [], incomplete: false });
});
