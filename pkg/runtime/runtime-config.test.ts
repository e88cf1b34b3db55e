import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { GroupVersionRegistration } from '../../api/registration.js';
import { applyRuntimeConfig, parseRuntimeConfig, RuntimeConfigError } from './runtime-config.js';

const kind = (k: string, resource: string) => ({ kind: k, resource, singular: k.toLowerCase(), namespaced: true, schema: Type.Object({}) });
const regs: GroupVersionRegistration[] = [
  { group: '', version: 'v1', stability: 'stable', kinds: [kind('ConfigMap', 'configmaps'), kind('Secret', 'secrets')] },
  { group: 'apps', version: 'v1', stability: 'stable', kinds: [kind('StatefulSet', 'statefulsets')] },
  { group: 'batch', version: 'v2alpha1', stability: 'alpha', kinds: [kind('CronJob', 'cronjobs')] },
  { group: 'policy', version: 'v1beta1', stability: 'beta', kinds: [kind('PodDisruptionBudget', 'poddisruptionbudgets')] },
];
const served = (cfg: string) =>
  applyRuntimeConfig(regs, parseRuntimeConfig(cfg)).flatMap((gv) => gv.kinds.map((k) => `${gv.group || 'core'}/${gv.version}/${k.resource}`));

test('stable versions are on, alpha and beta off, by default', () => {
  assert.deepEqual(served(''), ['core/v1/configmaps', 'core/v1/secrets', 'apps/v1/statefulsets']);
});

test('levels, group/versions and resources; the more specific wins; a missing value means true', () => {
  assert.deepEqual(served('api/alpha'), ['core/v1/configmaps', 'core/v1/secrets', 'apps/v1/statefulsets', 'batch/v2alpha1/cronjobs']);
  assert.deepEqual(served('api/beta=true,apps/v1=false'), ['core/v1/configmaps', 'core/v1/secrets', 'policy/v1beta1/poddisruptionbudgets']);
  assert.deepEqual(served('api/all=false,apps/v1'), ['apps/v1/statefulsets']);
  assert.deepEqual(served('api/all=true'), ['core/v1/configmaps', 'core/v1/secrets', 'apps/v1/statefulsets', 'batch/v2alpha1/cronjobs', 'policy/v1beta1/poddisruptionbudgets']);
  assert.deepEqual(served('v1/secrets=false'), ['core/v1/configmaps', 'apps/v1/statefulsets']);
  assert.deepEqual(served('api/v1=false,api/v1/secrets=true'), ['core/v1/secrets', 'apps/v1/statefulsets']);
  assert.deepEqual(served('batch/v2alpha1/cronjobs'), ['core/v1/configmaps', 'core/v1/secrets', 'apps/v1/statefulsets', 'batch/v2alpha1/cronjobs']);
});

test('unknown keys and bad values are errors that name them', () => {
  assert.throws(() => served('extensions/v1beta1=false'), (e: Error) => e instanceof RuntimeConfigError && /extensions\/v1beta1/.test(e.message));
  assert.throws(() => served('apps/v1/widgets'), /apps\/v1\/widgets/);
  assert.throws(() => served('apps/v1=maybe'), /must be true or false/);
  assert.throws(() => served('a=b=c'), RuntimeConfigError);
});
