import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rejection } from '../testing/rejection.js';
import { AttributesRecord } from '../attributes.js';
import type { AdmissionObject, ObjectLister, Operation, PluginDeps } from '../interfaces.js';
import { staticDeps } from '../testing/deps.js';
import { builtinPlugins } from '../builtin.js';
import { forceLiveLookupTTLMillis, newNamespaceLifecycle, type NamespaceLifecycleOptions } from './plugin.js';

const user = { name: 'jane', groups: [], extra: {} };
const ns = (name: string, phase = 'Active'): AdmissionObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } });

function attrs(op: Operation, init: { group?: string; resource?: string; kind?: string; namespace?: string; name?: string; subresource?: string; dryRun?: boolean } = {}) {
  const group = init.group ?? '';
  const resource = init.resource ?? 'configmaps';
  const name = init.name ?? 'cm';
  return new AttributesRecord({
    kind: { group, version: 'v1', kind: init.kind ?? 'ConfigMap' },
    resource: { group, version: 'v1', resource },
    subresource: init.subresource ?? '',
    name,
    namespace: init.namespace ?? '',
    operation: op,
    object: op === 'DELETE' ? undefined : { metadata: { name, ...(init.namespace ? { namespace: init.namespace } : {}) } },
    dryRun: init.dryRun ?? false,
    userInfo: user,
  });
}
const nsAttrs = (op: Operation, name: string, dryRun = false) =>
  attrs(op, { resource: 'namespaces', kind: 'Namespace', name, dryRun });

/** Deps whose namespace lister records how often it was read live and may hold a different live view. */
function setup(cached: AdmissionObject[], live: AdmissionObject[] = cached, opts: NamespaceLifecycleOptions = {}) {
  const base = staticDeps({ '/namespaces': cached });
  const fetched: string[] = [];
  let sleeps = 0;
  const find = (list: AdmissionObject[], name: string) => list.find((o) => (o['metadata'] as { name: string }).name === name);
  const lister: ObjectLister = {
    get: (_ns, name) => find(cached, name),
    list: () => [...cached],
    fetch: async (_ns, name) => { fetched.push(name); return find(live, name); },
  };
  const deps: PluginDeps = { domain: base.domain, lister: (g, r) => (g === '' && r === 'namespaces' ? lister : base.lister(g, r)) };
  const plugin = newNamespaceLifecycle(deps, { sleep: async () => { sleeps++; }, ...opts });
  return { plugin, fetched, sleeps: () => sleeps };
}

test('NamespaceLifecycle is registered and handles create, update and delete only', () => {
  const reg = builtinPlugins();
  assert.ok(reg.has('NamespaceLifecycle'));
  const { plugin } = setup([]);
  assert.equal(plugin.name, 'NamespaceLifecycle');
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as Operation[]).map((o) => plugin.handles(o)), [true, true, true, false]);
});

test('the immortal namespaces cannot be deleted, dry run or not; others can', async () => {
  const { plugin } = setup([ns('default'), ns('orch-system'), ns('orch-public'), ns('team')]);
  for (const name of ['default', 'orch-system', 'orch-public']) {
    for (const dryRun of [false, true]) {
      const err = await rejection(plugin.admit(nsAttrs('DELETE', name, dryRun)));
      assert.equal(err.code, 403);
      assert.equal(err.reason, 'Forbidden');
      assert.equal(err.message, `namespaces "${name}" is forbidden: this namespace may not be deleted`);
      assert.deepEqual(err.status.details, { name, group: '', kind: 'namespaces' });
    }
  }
  await plugin.admit(nsAttrs('DELETE', 'team'));
  await plugin.admit(nsAttrs('DELETE', 'orch-node-lease'));
  // Creating and updating namespaces is never this plug-in's business.
  await plugin.admit(nsAttrs('CREATE', 'new'));
  await plugin.admit(nsAttrs('UPDATE', 'default'));
});

test('a create in a missing namespace is NotFound, after waiting for the cache and reading live', async () => {
  const { plugin, fetched, sleeps } = setup([]);
  const err = await rejection(plugin.admit(attrs('CREATE', { namespace: 'ghost' })));
  assert.equal(err.code, 404);
  assert.equal(err.reason, 'NotFound');
  assert.equal(err.message, 'namespaces "ghost" not found');
  assert.deepEqual(err.status.details, { name: 'ghost', group: '', kind: 'namespaces' });
  assert.equal(sleeps(), 1);
  assert.deepEqual(fetched, ['ghost']);
});

test('a namespace the cache has not seen yet but storage has is accepted', async () => {
  const { plugin, fetched } = setup([], [ns('fresh')]);
  await plugin.admit(attrs('CREATE', { namespace: 'fresh' }));
  assert.deepEqual(fetched, ['fresh']);
  // The same for a Terminating one seen only live: refused as Terminating.
  const t = setup([], [ns('going', 'Terminating')]);
  const err = await rejection(t.plugin.admit(attrs('CREATE', { namespace: 'going' })));
  assert.equal(err.code, 403);
});

test('a create in an Active namespace passes with no live read', async () => {
  const { plugin, fetched, sleeps } = setup([ns('team')]);
  await plugin.admit(attrs('CREATE', { namespace: 'team' }));
  assert.deepEqual(fetched, []);
  assert.equal(sleeps(), 0);
});

test('a create in a Terminating namespace is Forbidden with the NamespaceTerminating cause', async () => {
  const { plugin } = setup([ns('old', 'Terminating')]);
  for (const dryRun of [false, true]) {
    const err = await rejection(plugin.admit(attrs('CREATE', { namespace: 'old', name: 'cm1', dryRun })));
    assert.equal(err.code, 403);
    assert.equal(err.reason, 'Forbidden');
    assert.equal(err.message, 'configmaps "cm1" is forbidden: unable to create new content in namespace old because it is being terminated');
    assert.deepEqual(err.status.details, {
      name: 'cm1', group: '', kind: 'configmaps',
      causes: [{ reason: 'NamespaceTerminating', message: 'namespace old is being terminated', field: 'metadata.namespace' }],
    });
  }
  // A create through a sub-resource (e.g. pods/binding, serviceaccounts/token) is checked the same way.
  const sub = await rejection(plugin.admit(attrs('CREATE', { resource: 'serviceaccounts', kind: 'TokenRequest', name: 'sa', subresource: 'token', namespace: 'old' })));
  assert.equal(sub.message, 'serviceaccounts "sa" is forbidden: unable to create new content in namespace old because it is being terminated');
  // Of a group resource, the message names resource.group.
  const grouped = await rejection(plugin.admit(attrs('CREATE', { group: 'apps', resource: 'deployments', kind: 'Deployment', name: 'd', namespace: 'old' })));
  assert.equal(grouped.message, 'deployments.apps "d" is forbidden: unable to create new content in namespace old because it is being terminated');
});

test('updates and deletes in a Terminating namespace pass; deletes in a missing one too', async () => {
  const { plugin, fetched } = setup([ns('old', 'Terminating')]);
  await plugin.admit(attrs('UPDATE', { namespace: 'old' }));
  await plugin.admit(attrs('UPDATE', { namespace: 'old', subresource: 'status' }));
  await plugin.admit(attrs('DELETE', { namespace: 'old' }));
  await plugin.admit(attrs('DELETE', { namespace: 'ghost' }));
  assert.deepEqual(fetched, []);
});

test('an update in a missing namespace is NotFound, as in 1.30 (read live, no wait)', async () => {
  const { plugin, fetched, sleeps } = setup([]);
  const err = await rejection(plugin.admit(attrs('UPDATE', { namespace: 'ghost' })));
  assert.equal(err.code, 404);
  assert.equal(err.message, 'namespaces "ghost" not found');
  assert.deepEqual(fetched, ['ghost']);
  assert.equal(sleeps(), 0);
});

test('cluster-scoped objects and local access reviews are left alone', async () => {
  const { plugin, fetched } = setup([]);
  await plugin.admit(attrs('CREATE', { resource: 'nodes', kind: 'Node', name: 'n1' }));
  await plugin.admit(attrs('CREATE', { group: 'authorization.orch.io', resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', name: '', namespace: 'secret-plans' }));
  assert.deepEqual(fetched, []);
  // Other reviews in a namespace are not exempt.
  await rejection(plugin.admit(attrs('CREATE', { group: 'authorization.orch.io', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespace: 'ghost' })));
});

test('a namespace deleted a moment ago is read live while the cache still says Active', async () => {
  let now = 1_000_000;
  const cached = [ns('team')];
  const live = [ns('team', 'Terminating')];
  const { plugin, fetched } = setup(cached, live, { now: () => now });
  await plugin.admit(attrs('CREATE', { namespace: 'team' }));
  assert.deepEqual(fetched, []);
  await plugin.admit(nsAttrs('DELETE', 'team'));
  const err = await rejection(plugin.admit(attrs('CREATE', { namespace: 'team' })));
  assert.equal(err.code, 403);
  assert.deepEqual(fetched, ['team']);
  // Once the window has passed the cache is trusted again.
  now += forceLiveLookupTTLMillis;
  await plugin.admit(attrs('CREATE', { namespace: 'team' }));
  assert.deepEqual(fetched, ['team']);
});

test('a dry-run namespace delete does not force live reads', async () => {
  const { plugin, fetched } = setup([ns('team')], [ns('team', 'Terminating')]);
  await plugin.admit(nsAttrs('DELETE', 'team', true));
  await plugin.admit(attrs('CREATE', { namespace: 'team' }));
  assert.deepEqual(fetched, []);
});

test('a failing live read is an internal error', async () => {
  const base = staticDeps();
  const lister: ObjectLister = { get: () => undefined, list: () => [], fetch: async () => { throw new Error('etcd unavailable'); } };
  const plugin = newNamespaceLifecycle({ domain: base.domain, lister: () => lister }, { sleep: async () => {} });
  const err = await rejection(plugin.admit(attrs('CREATE', { namespace: 'x' })));
  assert.equal(err.code, 500);
  assert.equal(err.message, 'Internal error occurred: etcd unavailable');
});

test('the namespaceLifecycleFactory refuses a server without a namespace cache', () => {
  const base = staticDeps();
  assert.throws(() => newNamespaceLifecycle({ domain: base.domain, lister: () => undefined }), /missing namespaceLister/);
});
