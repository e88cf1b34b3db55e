// int64 values of protobuf bodies: a JS number carries them exactly only up to 2^53.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allGroupVersions } from '../../../api/index.js';
import { Scheme } from '../scheme.js';
import { ProtobufCodec } from './codec.js';
import { ProtobufDecodeError } from './errors.js';

const scheme = new Scheme(allGroupVersions);
const codec = new ProtobufCodec(scheme);
const info = scheme.resources().find((r) => r.kind === 'ConfigMap')!;

const withGeneration = (generation: number) =>
  codec.encodeObject(info, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', generation } });

test('int64 values up to 2^53 decode exactly, either sign', () => {
  for (const g of [1, 2 ** 53, -(2 ** 53), 2 ** 40 + 7]) {
    assert.equal((codec.decodeObject(info, withGeneration(g)).metadata as { generation: number }).generation, g);
  }
});

test('int64 values beyond 2^53 are refused rather than rounded', () => {
  // 2^53 + 2 is a double, so it can be encoded; decoded into a JS number its neighbours would be indistinguishable.
  for (const g of [2 ** 53 + 2, -(2 ** 53) - 2, 2 ** 62]) {
    assert.throws(() => codec.decodeObject(info, withGeneration(g)),
      (e: unknown) => e instanceof ProtobufDecodeError && /the number -?\d+ cannot be represented exactly/.test(e.message), String(g));
  }
});
