import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../runtime/errors.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, ObjectLister, ValidationInterface } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps, staticLister } from '../testing/deps.js';
import { refusal } from '../testing/refusal.js';
import { NamespaceExists, namespaceExistsFactory } from './plugin.js';

const configMap = { metadata: { name: 'cm' } };

test('registered; validates creates, updates and deletes', () => {
  assert.ok(builtinPlugins().has('NamespaceExists'));
  const p = namespaceExistsFactory(undefined, staticDeps());
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((o) => p.handles(o)), [true, true, true, false]);
});

test('anything in a namespace that does not exist is refused with the namespace\'s NotFound', async () => {
  const p = namespaceExistsFactory(undefined, staticDeps({ '/namespaces': [{ metadata: { name: 'team' } }] })) as ValidationInterface;
  for (const operation of ['CREATE', 'UPDATE', 'DELETE'] as const) {
    const e = await refusal(() => p.validate(podAttrs({ operation, namespace: 'gone', object: configMap })));
    assert.equal(e.code, 404);
    assert.equal(e.reason, 'NotFound');
    assert.equal(e.message, 'namespaces "gone" not found');
    await p.validate(podAttrs({ operation, namespace: 'team', object: configMap }));
  }
  await p.validate(podAttrs({ namespace: '', object: configMap }));
  await p.validate(podAttrs({ namespace: 'gone', kind: { group: '', version: 'v1', kind: 'Namespace' }, object: configMap }));
});

test('a namespace the cache does not have yet is read live; a failing read is an internal error', async () => {
  const stored: AdmissionObject[] = [];
  const cached: ObjectLister = { ...staticLister([]), fetch: async (_ns, name) => stored.find((n) => (n['metadata'] as { name: string }).name === name) };
  stored.push({ metadata: { name: 'new' } });
  await new NamespaceExists(cached).validate(podAttrs({ namespace: 'new', object: configMap }));
  const broken: ObjectLister = { ...staticLister([]), fetch: async () => { throw new StatusError(503, 'ServiceUnavailable', 'etcd is not reachable'); } };
  const e = await refusal(() => new NamespaceExists(broken).validate(podAttrs({ namespace: 'new', object: configMap })));
  assert.equal(e.code, 500);
  assert.equal(e.message, 'Internal error occurred: etcd is not reachable');
});
