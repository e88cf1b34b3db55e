import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatefulSet } from '../../api/apps/v1/stateful-set.js';
import { ConfigMap } from '../../api/core/v1/config-map.js';
import { LimitRange } from '../../api/core/v1/limit-range.js';
import { pruneUnknownFields } from './prune.js';

test('a null field is unset, as upstream decodes null into a pointer or omitempty field', () => {
  const obj = { metadata: { name: 'x', labels: null }, spec: { replicas: null, serviceName: 'a' } };
  assert.deepEqual(pruneUnknownFields(StatefulSet, obj), []);
  assert.deepEqual(obj, { metadata: { name: 'x' }, spec: { serviceName: 'a' } });
});

test("a null map value is its type's zero value, as Go's decoder leaves it", () => {
  const lr = { spec: { limits: [{ type: 'Container', max: { cpu: null, memory: '1Gi' } }] } };
  pruneUnknownFields(LimitRange, lr);
  assert.deepEqual(lr.spec.limits[0]!.max, { cpu: '0', memory: '1Gi' }, 'a null Quantity is a zero Quantity');
  const cm = { metadata: { labels: { a: null } }, data: { k: null } };
  pruneUnknownFields(ConfigMap, cm);
  assert.deepEqual(cm, { metadata: { labels: { a: '' } }, data: { k: '' } });
});

test("a null list element is its type's zero value: an empty struct for validation to judge", () => {
  const obj = {
    spec: {
      template: { spec: { containers: [null, { name: 'a', image: 'b', args: [null, 'x'] }] } },
      volumeClaimTemplates: [{ metadata: { name: 'd' }, spec: { accessModes: [null] } }],
    },
  };
  pruneUnknownFields(StatefulSet, obj);
  assert.deepEqual(obj.spec.template.spec.containers, [{}, { name: 'a', image: 'b', args: ['', 'x'] }]);
  assert.deepEqual(obj.spec.volumeClaimTemplates[0]!.spec.accessModes, ['']);
});

test('free-form fields keep their nulls', () => {
  const obj = { metadata: { managedFields: [{ manager: 'm', fieldsV1: { a: null, b: [null] } }] } };
  pruneUnknownFields(ConfigMap, obj);
  assert.deepEqual(obj.metadata.managedFields[0]!.fieldsV1, { a: null, b: [null] });
});
