import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { refusal } from '../testing/refusal.js';
import { AlwaysPullImages } from './plugin.js';

const p = new AlwaysPullImages();
const pod = (image = 'app:1', policy?: string): AdmissionObject => ({
  metadata: { name: 'p' },
  spec: {
    initContainers: [{ name: 'init', image: 'init:1', imagePullPolicy: 'IfNotPresent' }],
    containers: [{ name: 'app', image, ...(policy ? { imagePullPolicy: policy } : {}) }, { name: 'side', image: 'side:1', imagePullPolicy: 'Never' }],
    ephemeralContainers: [{ name: 'debug', image: 'debug:1', imagePullPolicy: 'IfNotPresent' }],
  },
});
const policies = (o: AdmissionObject) => {
  const s = o['spec'] as Record<string, { imagePullPolicy?: string }[]>;
  return [...s['initContainers']!, ...s['containers']!, ...s['ephemeralContainers']!].map((c) => c.imagePullPolicy);
};

test('registered; handles creates and updates', () => {
  assert.ok(builtinPlugins().has('AlwaysPullImages'));
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((o) => p.handles(o)), [true, true, false, false]);
});

test('a new pod pulls every image always: init, regular and ephemeral containers', () => {
  const obj = pod();
  p.admit(podAttrs({ object: obj }));
  assert.deepEqual(policies(obj), ['Always', 'Always', 'Always', 'Always']);
  p.validate(podAttrs({ object: obj }));
});

test('an update that brings a new image is set too; one that brings none is left alone', () => {
  const old = pod('app:1', 'IfNotPresent');
  const changed = pod('app:2', 'IfNotPresent');
  p.admit(podAttrs({ operation: 'UPDATE', object: changed, oldObject: old }));
  assert.deepEqual(policies(changed), ['Always', 'Always', 'Always', 'Always']);
  const same = pod('app:1', 'IfNotPresent');
  p.admit(podAttrs({ operation: 'UPDATE', object: same, oldObject: old }));
  assert.deepEqual(policies(same), ['IfNotPresent', 'IfNotPresent', 'Never', 'IfNotPresent']);
  p.validate(podAttrs({ operation: 'UPDATE', object: same, oldObject: old }));
});

test('the validating phase refuses a container not set to Always, with upstream\'s field error', async () => {
  const one = pod();
  p.admit(podAttrs({ object: one }));
  (one['spec'] as { containers: { imagePullPolicy?: string }[] }).containers[1]!.imagePullPolicy = 'Never';
  const e = await refusal(() => p.validate(podAttrs({ object: one })));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'pods "p" is forbidden: spec.containers[1].imagePullPolicy: Unsupported value: "Never": supported values: "Always"');
  const several = await refusal(() => p.validate(podAttrs({ object: pod() })));
  assert.equal(several.code, 403);
  assert.equal(several.message, '[pods "p" is forbidden: spec.initContainers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always", ' +
    'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "": supported values: "Always", ' +
    'pods "p" is forbidden: spec.containers[1].imagePullPolicy: Unsupported value: "Never": supported values: "Always", ' +
    'pods "p" is forbidden: spec.ephemeralContainers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"]');
});

test('sub-resources and other resources are left alone; a body that is no pod is a bad request', async () => {
  for (const over of [{ subresource: 'ephemeralcontainers' }, { resource: { group: '', version: 'v1', resource: 'podtemplates' } }, { resource: { group: 'apps', version: 'v1', resource: 'pods' } }]) {
    const obj = pod();
    p.admit(podAttrs({ object: obj, ...over }));
    p.validate(podAttrs({ object: obj, ...over }));
    assert.deepEqual(policies(obj), ['IfNotPresent', undefined, 'Never', 'IfNotPresent'], JSON.stringify(over));
  }
  const e = await refusal(() => p.admit(podAttrs({ object: undefined })));
  assert.equal(e.code, 400);
  assert.equal(e.message, 'Resource was marked with kind Pod but was unable to be converted');
});
