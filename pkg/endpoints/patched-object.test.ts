// The apiVersion and kind a patch leaves, judged as upstream's patch handler judges them, and how
// its 422 shows a strategic merge patch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allGroupVersions } from '../../api/index.js';
import { Scheme } from '../runtime/scheme.js';
import { checkPatchedTypeMeta, goSprint, type PatchedObjectCheck } from './patched-object.js';

const scheme = new Scheme(allGroupVersions);
const configMaps = scheme.resource('', 'v1', 'configmaps')!;

function check(patched: Record<string, unknown>, over: Partial<PatchedObjectCheck> = {}): { warnings: string[]; patched: Record<string, unknown> } {
  const warnings: string[] = [];
  checkPatchedTypeMeta({ type: 'merge', patched, patch: {}, info: configMaps, name: 'cm', level: 'Warn', kinds: scheme, warn: (w) => warnings.push(...w), ...over });
  return { warnings, patched };
}

function refusal(patched: Record<string, unknown>, over: Partial<PatchedObjectCheck> = {}): { code: number; message: string } {
  try {
    check(patched, over);
  } catch (e) {
    const s = (e as { status: { code: number; message: string } }).status;
    return { code: s.code, message: s.message };
  }
  assert.fail('accepted');
}

test('the resource\'s own apiVersion and kind, or no kind, go on', () => {
  assert.deepEqual(check({ apiVersion: 'v1', kind: 'ConfigMap', data: {} }).patched, { apiVersion: 'v1', kind: 'ConfigMap', data: {} });
  assert.equal(check({ apiVersion: 'v1', metadata: {} }).patched.kind, 'ConfigMap');
});

test('no apiVersion loses the name; its fields are unknown (warned, or 422 under Strict)', () => {
  const patched = { kind: 'ConfigMap', metadata: { name: 'cm' }, data: {} };
  assert.throws(() => check({ ...patched }), /the name of the object \(cm based on URL\) was undeterminable: name must be provided/);
  const warnings: string[] = [];
  assert.throws(() => check({ ...patched }, { warn: (w) => warnings.push(...w) }));
  assert.deepEqual(warnings, ['unknown field "data"', 'unknown field "metadata"']);
  const strict = refusal({ ...patched }, { level: 'Strict' });
  assert.equal(strict.code, 422);
  assert.match(strict.message, /: strict decoding error: unknown field "data", unknown field "metadata"$/);
  assert.equal(refusal({ ...patched }, { level: 'Ignore' }).code, 400);
});

test('another version or kind is 422 as upstream words it', () => {
  assert.match(refusal({ apiVersion: 'v9', kind: 'ConfigMap' }).message, /: no kind "ConfigMap" is registered for version "v9"$/);
  assert.match(refusal({ apiVersion: 'v1', kind: 'Secret' }).message, /: converting \(v1\.Secret\) to \(core\.ConfigMap\): unknown conversion$/);
  assert.match(refusal({ apiVersion: 'foo/', kind: 'ConfigMap' }).message, /: Object 'apiVersion' is missing in '/);
  assert.equal(refusal({ apiVersion: ['v1'] }).code, 422);
});

test('a strategic merge patch keeps the resource\'s apiVersion and kind', () => {
  assert.deepEqual(check({ apiVersion: 'v9', kind: 'Secret' }, { type: 'strategic' }).patched, { apiVersion: 'v1', kind: 'ConfigMap' });
});

test('goSprint prints a patch as Go prints the map its JSON decoder made', () => {
  assert.equal(goSprint({ spec: { replicas: 1.5, b: [1, 'x', null, true] }, a: 'z' }), 'map[a:z spec:map[b:[1 x <nil> true] replicas:1.5]]');
  assert.equal(goSprint(1234567.5), '1.2345675e+06');
  assert.equal(goSprint(0.00001), '1e-05');
  assert.equal(goSprint(0.5), '0.5');
  assert.equal(goSprint(3), '3');
});
