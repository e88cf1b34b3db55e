import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LimitRange, defaultLimitRange } from '../../../api/core/v1/limit-range.js';
import { createErrors, defaulted, has, summary, type KindUnderTest } from '../testing/kind-check.js';
import { ResourceNames } from './resource-names.js';
import { limitRangeValidation as limitRangeValidationFor } from './limit-range-validation.js';

const limitRangeValidation = limitRangeValidationFor(new ResourceNames('orch.io'));

const kind: KindUnderTest<LimitRange> = { schema: LimitRange, validation: limitRangeValidation, defaulter: defaultLimitRange };
const lr = (...limits: unknown[]) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l', namespace: 'default' }, spec: { limits } });

test('a consistent limit range is accepted', () => {
  const errs = createErrors(kind, lr(
    { type: 'Container', min: { cpu: '100m' }, max: { cpu: '2', memory: '1Gi' }, default: { cpu: '500m' }, defaultRequest: { cpu: '200m' }, maxLimitRequestRatio: { cpu: 4 } },
    { type: 'Pod', max: { memory: '2Gi' } },
    { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } },
    { type: 'example.com/Custom', max: { 'example.com/things': 3 } },
  ));
  assert.deepEqual(errs, []);
});

test('every item needs a type', () => {
  assert.ok(has(createErrors(kind, lr({ max: { cpu: '1' } })), 'FieldValueRequired', 'spec.limits[0].type'));
  assert.ok(has(createErrors(kind, { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l', namespace: 'd' }, spec: {} }), 'FieldValueRequired', 'spec.limits'));
});

test('types are standard or qualified, and not repeated', () => {
  assert.deepEqual(summary(createErrors(kind, lr({ type: 'Widget' }))), ['FieldValueInvalid spec.limits[0].type']);
  assert.deepEqual(summary(createErrors(kind, lr({ type: 'Pod' }, { type: 'Pod' }))), ['FieldValueDuplicate spec.limits[1].type']);
});

test('min <= defaultRequest <= default <= max', () => {
  const minOverMax = createErrors(kind, lr({ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }));
  assert.ok(has(minOverMax, 'FieldValueInvalid', 'spec.limits[0].min[cpu]'));
  assert.match(minOverMax.find((e) => e.field === 'spec.limits[0].min[cpu]')!.detail, /min value 2 is greater than max value 1/);
  const defaultOverMax = createErrors(kind, lr({ type: 'Container', max: { memory: '1Gi' }, default: { memory: '2Gi' }, defaultRequest: { memory: '1Gi' } }));
  assert.deepEqual(summary(defaultOverMax), ['FieldValueInvalid spec.limits[0].default[memory]']);
  const requestOverDefault = createErrors(kind, lr({ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '1' } }));
  assert.deepEqual(summary(requestOverDefault), ['FieldValueInvalid spec.limits[0].defaultRequest[cpu]']);
  const minOverRequest = createErrors(kind, lr({ type: 'Container', min: { cpu: '1' }, default: { cpu: '2' }, defaultRequest: { cpu: '500m' } }));
  assert.deepEqual(summary(minOverRequest), ['FieldValueInvalid spec.limits[0].defaultRequest[cpu]']);
});

test('maxLimitRequestRatio is at least 1 and at most max/min', () => {
  assert.deepEqual(summary(createErrors(kind, lr({ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }))), ['FieldValueInvalid spec.limits[0].maxLimitRequestRatio[cpu]']);
  const errs = createErrors(kind, lr({ type: 'Pod', min: { cpu: '1' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '3' } }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.limits[0].maxLimitRequestRatio[cpu]']);
  assert.match(errs[0]!.detail, /ratio 3 is greater than max\/min = 2\.000000/);
});

test('Pod limits take no defaults; claim limits need storage', () => {
  assert.deepEqual(summary(createErrors(kind, lr({ type: 'Pod', default: { cpu: '1' } }))), ['FieldValueForbidden spec.limits[0].default']);
  assert.deepEqual(summary(createErrors(kind, lr({ type: 'PersistentVolumeClaim', max: { cpu: '1' } }))), ['FieldValueRequired spec.limits[0].limits']);
});

test('resource names fit the limit type', () => {
  // (Pod limits, so that defaulting does not copy the bad name into default and defaultRequest.)
  assert.deepEqual(summary(createErrors(kind, lr({ type: 'Pod', max: { pods: '1' } }))), ['FieldValueInvalid spec.limits[0].max[pods]']);
  assert.ok(has(createErrors(kind, lr({ type: 'Pod', max: { 'bad name': '1' } })), 'FieldValueInvalid', 'spec.limits[0].max[bad name]'));
  assert.deepEqual(createErrors(kind, lr({ type: 'example.com/Bucket', max: { pods: '1', storage: '1Gi' } })), []);
  assert.deepEqual(createErrors(kind, lr({ type: 'Container', max: { 'hugepages-2Mi': '1Gi', 'example.com/gpu': 1 }, default: { 'example.com/gpu': 1 } })), []);
});

test('extended resources cannot be overcommitted', () => {
  const errs = createErrors(kind, lr({ type: 'Container', default: { 'example.com/gpu': 2 }, defaultRequest: { 'example.com/gpu': 1 } }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.limits[0].defaultRequest[example.com/gpu]']);
});

test('container defaults come from max, then min', () => {
  const l = defaulted(kind, lr({ type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { memory: '100Mi', 'ephemeral-storage': '1Gi' }, default: { memory: '512Mi' } }));
  const item = l.spec!.limits[0]!;
  assert.deepEqual(item.default, { memory: '512Mi', cpu: '2' });
  assert.deepEqual(item.defaultRequest, { memory: '512Mi', cpu: '2', 'ephemeral-storage': '1Gi' });
  const pod = defaulted(kind, lr({ type: 'Pod', max: { cpu: '2' } })).spec!.limits[0]!;
  assert.equal(pod.default, undefined);
  assert.equal(pod.defaultRequest, undefined);
});
