import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isStatusError, type StatusError } from '../../runtime/errors.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, AuthorizationCheck, AuthorizeFunc, ObjectInterfaces, Operation, RESTMapping } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { OwnerReferencesPermissionEnforcement, ownerReferencesPermissionEnforcementFactory } from './plugin.js';

/** The served kinds the tests map owner references to. */
const served: Array<RESTMapping & { kind: string }> = [
  { group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController', namespaced: true },
  { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', namespaced: true },
  { group: 'apps', version: 'v2', resource: 'daemonsets', kind: 'DaemonSet', namespaced: true },
];
const objects = {
  restMappings: (group: string, kind: string, version: string) =>
    served.filter((m) => m.group === group && m.kind === kind && (version === '' || m.version === version)).map(({ kind: _k, ...m }) => m),
} as unknown as ObjectInterfaces;

/** An authorizer that refuses what `denied` matches and records every question. */
function authorizer(denied: (c: AuthorizationCheck) => boolean, answer: { reason?: string; evaluationError?: string } = {}) {
  const asked: AuthorizationCheck[] = [];
  const authorize: AuthorizeFunc = async (_user, c) => {
    asked.push(c);
    return denied(c) ? { allowed: false, ...answer } : { allowed: true };
  };
  return { authorize, asked };
}
const anything = (c: AuthorizationCheck) => c.apiGroup === '*' && c.resource === '*';
const finalizers = (c: AuthorizationCheck) => c.verb === 'update' && c.subresource === 'finalizers';

const ref = (name: string, over: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ReplicationController', name, uid: `uid-${name}`, ...over });
const withRefs = (...refs: Record<string, unknown>[]): AdmissionObject => ({ metadata: { name: 'p', ...(refs.length ? { ownerReferences: refs } : {}) } });

async function outcome(p: OwnerReferencesPermissionEnforcement, op: Operation, object: AdmissionObject, oldObject?: AdmissionObject, subresource = ''): Promise<StatusError | undefined> {
  try {
    await p.validate(podAttrs({ operation: op, object, ...(oldObject ? { oldObject } : {}), name: 'p', subresource }));
    return undefined;
  } catch (e) {
    assert.ok(isStatusError(e), String(e));
    return e;
  }
}

describe('OwnerReferencesPermissionEnforcement', () => {
  test('registered; validating only, on creates and updates; refuses to start without the authorizer or the kinds', () => {
    assert.ok(builtinPlugins().has('OwnerReferencesPermissionEnforcement'));
    const p = new OwnerReferencesPermissionEnforcement(authorizer(() => false).authorize, objects);
    assert.equal('admit' in p, false);
    assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as Operation[]).map((o) => p.handles(o)), [true, true, false, false]);
    assert.throws(() => ownerReferencesPermissionEnforcementFactory(undefined, staticDeps()), /missing authorizer/);
    assert.throws(() => ownerReferencesPermissionEnforcementFactory(undefined, { ...staticDeps(), authorize: authorizer(() => false).authorize }), /missing restMapper/);
  });

  test('changing owner references on an update needs delete on the object; a create or an unchanged list does not', async () => {
    const { authorize, asked } = authorizer((c) => c.verb === 'delete', { reason: 'no delete for you' });
    const p = new OwnerReferencesPermissionEnforcement(authorize, objects);
    assert.equal(await outcome(p, 'CREATE', withRefs(ref('first'))), undefined, 'the creator could have not made it');
    assert.equal(await outcome(p, 'UPDATE', withRefs(ref('first')), withRefs(ref('first'))), undefined);
    assert.equal(await outcome(p, 'UPDATE', withRefs(), withRefs()), undefined);
    assert.deepEqual(asked, [], 'nothing to ask');
    for (const [now, before] of [[withRefs(ref('first')), withRefs()], [withRefs(ref('first'), ref('second')), withRefs(ref('first'))],
      [withRefs(), withRefs(ref('first'))], [withRefs(ref('first', { controller: false })), withRefs(ref('first'))]]) {
      const err = await outcome(p, 'UPDATE', now!, before);
      assert.equal(err?.code, 403);
      assert.equal(err?.message, 'pods "p" is forbidden: cannot set an ownerRef on a resource you can\'t delete: no delete for you, <nil>');
    }
    assert.deepEqual(asked[0], { verb: 'delete', namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: 'p' });
    // pods/status is exempt.
    assert.equal(await outcome(p, 'UPDATE', withRefs(ref('first')), withRefs(), 'status'), undefined);
  });

  test('a newly blocking reference needs update on the owner\'s finalizers, with upstream\'s message', async () => {
    const { authorize, asked } = authorizer((c) => anything(c) || finalizers(c), { evaluationError: 'webhook down' });
    const p = new OwnerReferencesPermissionEnforcement(authorize, objects);
    const blockRC = ref('rc1', { blockOwnerDeletion: true });
    const err = await outcome(p, 'CREATE', withRefs(blockRC));
    assert.equal(err?.code, 403);
    assert.equal(err?.message, 'pods "p" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , webhook down');
    assert.deepEqual(asked, [
      { verb: 'update', apiGroup: '*', apiVersion: '*', resource: '*', subresource: 'finalizers', name: '*' },
      { verb: 'update', apiGroup: '', apiVersion: 'v1', resource: 'replicationcontrollers', subresource: 'finalizers', name: 'rc1', namespace: 'ns' },
    ]);
    // Turning an existing reference blocking counts; one blocking already, or false, does not.
    assert.ok(await outcome(p, 'UPDATE', withRefs(blockRC), withRefs(ref('rc1', { blockOwnerDeletion: false }))));
    assert.ok(await outcome(p, 'UPDATE', withRefs(blockRC), withRefs(ref('rc1'))));
    assert.equal(await outcome(p, 'UPDATE', withRefs(blockRC, ref('rc2')), withRefs(blockRC)), undefined);
    assert.equal(await outcome(p, 'CREATE', withRefs(ref('rc1', { blockOwnerDeletion: false }))), undefined);
    // A reference borrowing the uid of one that blocks is not thereby already blocking.
    const mine = ref('mine', { uid: 'shared', blockOwnerDeletion: true });
    const victim = ref('victim', { uid: 'shared' });
    assert.ok(await outcome(p, 'UPDATE', withRefs({ ...victim, blockOwnerDeletion: true }, mine), withRefs(victim, mine)));
  });

  test('who may finalize anything is asked nothing more; a cluster-scoped owner is asked about without a namespace', async () => {
    const all = authorizer(() => false);
    await outcome(new OwnerReferencesPermissionEnforcement(all.authorize, objects), 'CREATE', withRefs(ref('rc1', { blockOwnerDeletion: true }), ref('n', { apiVersion: 'v1', kind: 'Nope', blockOwnerDeletion: true })));
    assert.equal(all.asked.length, 1);
    const some = authorizer(anything);
    const p = new OwnerReferencesPermissionEnforcement(some.authorize, objects);
    assert.equal(await outcome(p, 'CREATE', withRefs(ref('node1', { kind: 'Node', blockOwnerDeletion: true }), ref('ds1', { apiVersion: 'apps/v1', kind: 'DaemonSet', blockOwnerDeletion: true }))), undefined);
    assert.deepEqual(some.asked.slice(1), [
      { verb: 'update', apiGroup: '', apiVersion: 'v1', resource: 'nodes', subresource: 'finalizers', name: 'node1' },
      { verb: 'update', apiGroup: 'apps', apiVersion: 'v1', resource: 'daemonsets', subresource: 'finalizers', name: 'ds1', namespace: 'ns' },
    ]);
    // Without a version every version's resource is asked about.
    some.asked.length = 0;
    assert.equal(await outcome(p, 'CREATE', withRefs(ref('ds1', { apiVersion: 'apps/', kind: 'DaemonSet', blockOwnerDeletion: true }))), undefined);
    assert.deepEqual(some.asked.slice(1).map((c) => c.apiVersion), ['v1', 'v2']);
  });

  test('an owner kind nobody serves is refused with the REST mapping error', async () => {
    const p = new OwnerReferencesPermissionEnforcement(authorizer(anything).authorize, objects);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ apiVersion: 'example.com/v1', kind: 'Widget' }, 'APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"'],
      [{ apiVersion: 'v2', kind: 'ReplicationController' }, 'APIVersion v2 Kind ReplicationController: no matches for kind "ReplicationController" in version "v2"'],
      [{ apiVersion: 'apps/', kind: 'Widget' }, 'APIVersion apps/ Kind Widget: no matches for kind "Widget" in group "apps"'],
      [{ apiVersion: 'a/b/c', kind: 'Widget' }, 'APIVersion a/b/c Kind Widget: unexpected GroupVersion string: a/b/c'],
    ];
    for (const [over, tail] of cases) {
      const err = await outcome(p, 'CREATE', withRefs(ref('o', { ...over, blockOwnerDeletion: true })));
      assert.equal(err?.code, 403);
      assert.equal(err?.message, `pods "p" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for ${tail}`);
    }
  });
});
