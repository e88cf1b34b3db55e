import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatefulSet } from '../../api/apps/v1/stateful-set.js';
import { ConfigMap } from '../../api/core/v1/config-map.js';
import { DeleteOptions } from '../../api/meta/v1/types.js';
import { scanJSONNumbers } from './body-scan.js';
import { findNumberProblem, formatPath } from './number-check.js';

/** The problem upstream's decoder would report for a JSON text, judged as our decoder judges it. */
function problemOf(schema: object, text: string): string | null {
  return findNumberProblem(schema, JSON.parse(text), scanJSONNumbers(text));
}

const sts = (spec: string) => `{"metadata":{"name":"s"},"spec":{${spec}}}`;

test('integer fields take only integer literals within their Go type, worded as upstream', () => {
  const int32 = (lit: string) => `json: cannot unmarshal number ${lit} into Go struct field StatefulSetSpec.spec.replicas of type int32`;
  assert.equal(problemOf(StatefulSet, sts('"replicas":1e308')), int32('1e308'));
  assert.equal(problemOf(StatefulSet, sts('"replicas":2147483648')), int32('2147483648'));
  assert.equal(problemOf(StatefulSet, sts('"replicas":-2147483649')), int32('-2147483649'));
  assert.equal(problemOf(StatefulSet, sts('"replicas":3.0')), int32('3.0'));
  assert.equal(problemOf(StatefulSet, sts('"replicas":1e999')), int32('1e999'));
  assert.equal(problemOf(StatefulSet, sts('"replicas":2147483647')), null);
  assert.equal(problemOf(StatefulSet, sts('"replicas":-2147483648')), null);
  // Without a scanned literal the value speaks for itself, as after a strategic merge patch.
  assert.equal(findNumberProblem(StatefulSet, { spec: { replicas: 1e308 } }), int32('1e+308'));
  assert.equal(findNumberProblem(StatefulSet, { spec: { replicas: 2.5 } }), int32('2.5'));
});

test('the innermost struct and the chain of struct fields name the field; indices and map keys do not', () => {
  const body = sts('"template":{"spec":{"containers":[{"name":"a","image":"b","ports":[{"containerPort":99999999999}]}]}}');
  assert.equal(problemOf(StatefulSet, body),
    'json: cannot unmarshal number 99999999999 into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32');
  assert.equal(problemOf(StatefulSet, '{"metadata":{"generation":9223372036854775808}}'),
    'json: cannot unmarshal number 9223372036854775808 into Go struct field ObjectMeta.metadata.generation of type int64');
  assert.equal(problemOf(DeleteOptions, '{"gracePeriodSeconds":1.5}'),
    'json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
});

test('an int-or-string takes an int32', () => {
  const body = sts('"template":{"spec":{"containers":[{"name":"a","image":"b","readinessProbe":{"httpGet":{"port":4294967296}}}]}}');
  assert.equal(problemOf(StatefulSet, body), 'json: cannot unmarshal number 4294967296 into Go value of type int32');
});

test('a number that cannot be represented exactly is refused wherever it is kept', () => {
  const mf = (v: string) => `{"metadata":{"managedFields":[{"manager":"m","fieldsV1":{"f:data":{"x":${v}}}}]}}`;
  assert.equal(problemOf(ConfigMap, mf('1e999')), 'metadata.managedFields[0].fieldsV1.f:data.x: the number 1e999 cannot be represented exactly');
  assert.equal(problemOf(ConfigMap, mf('-1e-400')), 'metadata.managedFields[0].fieldsV1.f:data.x: the number -1e-400 cannot be represented exactly');
  assert.equal(problemOf(ConfigMap, mf('9007199254740993')),
    'metadata.managedFields[0].fieldsV1.f:data.x: the number 9007199254740993 cannot be represented exactly');
  assert.equal(problemOf(ConfigMap, mf('9007199254740992')), null);
  assert.equal(problemOf(ConfigMap, mf('1.5e300')), null);
  // An int64 field in range but beyond 2^53: upstream keeps it, we cannot.
  assert.equal(problemOf(StatefulSet, '{"metadata":{"generation":9007199254740993}}'),
    'metadata.generation: the number 9007199254740993 cannot be represented exactly');
});

test('a literal no longer in the object (an unknown field dropped) is not judged', () => {
  const text = '{"metadata":{"name":"x"},"unknown":1e999}';
  const data = JSON.parse(text) as Record<string, unknown>;
  delete data.unknown;
  assert.equal(findNumberProblem(ConfigMap, data, scanJSONNumbers(text)), null);
});

test('Infinity and NaN (YAML .inf and .nan) are unsupported values', () => {
  assert.equal(findNumberProblem(ConfigMap, { metadata: { managedFields: [{ fieldsV1: { a: [1, Infinity] } }] } }),
    'metadata.managedFields[0].fieldsV1.a[1]: json: unsupported value: +Inf');
  assert.equal(findNumberProblem(ConfigMap, { metadata: { managedFields: [{ fieldsV1: { a: NaN } }] } }),
    'metadata.managedFields[0].fieldsV1.a: json: unsupported value: NaN');
  assert.equal(findNumberProblem(StatefulSet, { spec: { replicas: -Infinity } }), 'spec.replicas: json: unsupported value: -Inf');
});

test('paths print as upstream prints field paths', () => {
  assert.equal(formatPath(['spec', 'containers', 0, 'ports', 1, 'name']), 'spec.containers[0].ports[1].name');
  assert.equal(formatPath([0, 'a']), '[0].a');
  assert.equal(formatPath([]), '');
});
