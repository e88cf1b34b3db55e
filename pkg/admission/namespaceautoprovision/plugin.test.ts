import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../runtime/errors.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, MutationInterface, PluginDeps } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { refusal } from '../testing/refusal.js';
import { namespaceAutoProvisionFactory } from './plugin.js';

/** The plug-in over a namespace list, its creates recorded (and answered by `answer` when given). */
function make(existing: string[], answer?: () => never) {
  const namespaces: AdmissionObject[] = existing.map((name) => ({ metadata: { name } }));
  const created: unknown[] = [];
  const deps: PluginDeps = {
    ...staticDeps({ '/namespaces': namespaces }),
    create: async (group, resource, namespace, object) => {
      created.push({ group, resource, namespace, object });
      if (answer) answer();
      namespaces.push(object);
    },
  };
  return { p: namespaceAutoProvisionFactory(undefined, deps) as MutationInterface, created };
}
const configMap = { metadata: { name: 'cm' } };

test('registered; handles creates only; needs the namespace cache and a way to create', () => {
  assert.ok(builtinPlugins().has('NamespaceAutoProvision'));
  const { p } = make([]);
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((o) => p.handles(o)), [true, false, false, false]);
  assert.throws(() => namespaceAutoProvisionFactory(undefined, staticDeps()), /missing client/);
});

test('a create in a missing namespace creates the namespace first, once', async () => {
  const { p, created } = make(['default']);
  await p.admit(podAttrs({ namespace: 'fresh', object: configMap }));
  await p.admit(podAttrs({ namespace: 'fresh', object: configMap }));
  assert.deepEqual(created, [{ group: '', resource: 'namespaces', namespace: '', object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } } }]);
});

test('existing namespaces, dry runs, cluster-scoped objects and namespaces themselves create nothing', async () => {
  const { p, created } = make(['default']);
  await p.admit(podAttrs({ namespace: 'default', object: configMap }));
  await p.admit(podAttrs({ namespace: 'fresh', dryRun: true, object: configMap }));
  await p.admit(podAttrs({ namespace: '', object: configMap }));
  await p.admit(podAttrs({ namespace: 'fresh', kind: { group: '', version: 'v1', kind: 'Namespace' }, object: { metadata: { name: 'fresh' } } }));
  assert.deepEqual(created, []);
});

test('a namespace made meanwhile by another request is fine; any other failure refuses the create', async () => {
  await make([], () => { throw new StatusError(409, 'AlreadyExists', 'namespaces "fresh" already exists'); }).p.admit(podAttrs({ namespace: 'fresh', object: configMap }));
  const failing = make([], () => { throw new StatusError(503, 'ServiceUnavailable', 'etcd is not reachable'); });
  const e = await refusal(() => failing.p.admit(podAttrs({ namespace: 'fresh', name: 'cm', object: configMap })));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'pods "cm" is forbidden: etcd is not reachable');
});
