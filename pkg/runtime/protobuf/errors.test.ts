// Bad input never escapes as anything but ProtobufDecodeError (answered with 400 by the caller).
import { seededRandom } from '../../util/seeded-random.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { allGroupVersions } from '../../../api/index.js';
import { Scheme, type ResourceInfo } from '../scheme.js';
import { ProtobufCodec, ProtobufDecodeError } from './codec.js';
import { encodeEnvelope } from './envelope.js';
import { splitFrames } from './frame.js';
import { decodeWatchEventBody } from './watch-event.js';
import { objectsByKind } from './testdata/objects.js';

const scheme = new Scheme(allGroupVersions);
const codec = new ProtobufCodec(scheme);

function infoOf(kind: string): ResourceInfo {
  const info = scheme.resources().find((r) => r.kind === kind || `${r.group}/${r.kind}` === kind || `${r.apiVersion}/${r.kind}` === kind);
  assert.ok(info, kind);
  return info;
}


/** Decodes and reports the outcome: 'ok', or the ProtobufDecodeError; any other exception fails the test. */
function attempt(info: ResourceInfo, bytes: Buffer): 'ok' | ProtobufDecodeError {
  try {
    codec.decodeObject(info, bytes);
    return 'ok';
  } catch (e) {
    if (e instanceof ProtobufDecodeError) return e;
    assert.fail(`decodeObject threw ${(e as Error)?.constructor?.name}: ${(e as Error)?.message} for ${bytes.toString('hex')}`);
  }
}

function assertRejected(info: ResourceInfo, bytes: Buffer, message?: RegExp): void {
  const outcome = attempt(info, bytes);
  assert.ok(outcome instanceof ProtobufDecodeError, `expected a ProtobufDecodeError for ${bytes.toString('hex')}`);
  if (message) assert.match(outcome.message, message);
}

const configMap = infoOf('ConfigMap');
const valid = codec.encodeObject(configMap, objectsByKind().ConfigMap!);

test('ProtobufDecodeError is an Error with its own name', () => {
  const e = new ProtobufDecodeError('x');
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'ProtobufDecodeError');
});

test('empty input, a bare prefix, and a wrong or short prefix are rejected with upstream messages', () => {
  assertRejected(configMap, Buffer.alloc(0), /^empty data$/);
  assertRejected(configMap, Buffer.from([0x6b, 0x38, 0x73, 0x00]), /^empty body$/);
  assertRejected(configMap, Buffer.from([0x6b, 0x38, 0x73]), /does not appear to be a protobuf message, expected prefix \[107 56 115 0\]/);
  assertRejected(configMap, Buffer.from('{"apiVersion":"v1","kind":"ConfigMap"}'), /expected prefix/);
  const otherStyle = Buffer.from(valid);
  otherStyle[3] = 0x01;
  assertRejected(configMap, otherStyle, /expected prefix/);
});

test('truncated input is rejected at every cut inside a field', () => {
  // The Unknown's fields: typeMeta, raw, contentEncoding (2 bytes), contentType (2 bytes). A cut
  // between two of them leaves a complete, shorter message, which upstream accepts too.
  const reader = protobuf.Reader.create(valid.subarray(4));
  const boundaries = new Set<number>();
  while (reader.pos < reader.len) {
    reader.skipType(reader.uint32() & 7);
    boundaries.add(4 + reader.pos);
  }
  assert.equal(boundaries.size, 4);
  for (let len = 5; len < valid.length; len++) {
    if (boundaries.has(len)) assert.equal(attempt(configMap, valid.subarray(0, len)), 'ok');
    else assertRejected(configMap, valid.subarray(0, len));
  }
});

test('a truncated or corrupt object inside a complete envelope is rejected', () => {
  const raw = codec.encodeObject(configMap, objectsByKind().ConfigMap!).subarray(4);
  const unknown = protobuf.Reader.create(raw);
  unknown.uint32();
  unknown.skipType(2); // typeMeta
  unknown.uint32();
  const inner = unknown.bytes();
  for (const len of [1, 2, 10, inner.length - 1]) {
    assertRejected(configMap, encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, inner.subarray(0, len)));
  }
  // Wire type 7 does not exist.
  assertRejected(configMap, encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, Buffer.from([0x0f, 0x00])));
  // FieldsV1 whose bytes are not JSON.
  const badFields = protobuf.Writer.create();
  badFields.uint32((1 << 3) | 2).fork()
    .uint32((17 << 3) | 2).fork().uint32((7 << 3) | 2).fork().uint32((1 << 3) | 2).string('{not json').ldelim().ldelim()
    .ldelim();
  assertRejected(configMap, encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, badFields.finish()), /not valid JSON/);
  // A time beyond year 9999.
  const farFuture = protobuf.Writer.create();
  farFuture.uint32((1 << 3) | 2).fork().uint32((8 << 3) | 2).fork().uint32(1 << 3).int64(400_000_000_000).ldelim().ldelim();
  assertRejected(configMap, encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, farFuture.finish()), /time out of range/);
});

test('type meta of another kind or version is rejected; empty type meta takes the expected kind', () => {
  assertRejected(infoOf('Secret'), valid, /the kind in the data \(ConfigMap\) does not match the expected kind \(Secret\)/);
  const sts = infoOf('StatefulSet');
  const stsBytes = codec.encodeObject(sts, { metadata: { name: 'a' } });
  assertRejected(configMap, stsBytes, /API version in the data \(apps\/v1\) does not match the expected API version \(v1\)/);
  const oldVersion = encodeEnvelope({ apiVersion: 'apps/v1beta1', kind: 'StatefulSet' }, Buffer.alloc(0));
  assertRejected(sts, oldVersion, /apps\/v1beta1/);
  const list = codec.encodeList(configMap, { metadata: {}, items: [] });
  assertRejected(configMap, list, /ConfigMapList/);
  const status = codec.encodeStatus({ status: 'Failure', code: 500 });
  assertRejected(configMap, status, /Status/);
  const anonymous = encodeEnvelope({ apiVersion: '', kind: '' }, Buffer.from([0x0a, 0x03, 0x0a, 0x01, 0x61]));
  assert.deepStrictEqual(codec.decodeObject(configMap, anonymous), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
});

test('fuzz: random bytes, with and without the prefix, only ever raise ProtobufDecodeError', () => {
  const rnd = seededRandom(20260101);
  const infos = scheme.resources();
  for (let i = 0; i < 3000; i++) {
    const len = Math.floor(rnd() * 200);
    const body = Buffer.alloc(len);
    for (let j = 0; j < len; j++) body[j] = Math.floor(rnd() * 256);
    const info = infos[i % infos.length]!;
    attempt(info, body);
    attempt(info, Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), body]));
    attempt(info, encodeEnvelope({ apiVersion: info.apiVersion, kind: info.kind }, body));
  }
});

test('fuzz: mutated valid encodings of every kind only ever raise ProtobufDecodeError', () => {
  const rnd = seededRandom(7);
  for (const [kind, obj] of Object.entries(objectsByKind())) {
    const info = infoOf(kind);
    const good = codec.encodeObject(info, obj);
    for (let i = 0; i < 300; i++) {
      const bad = Buffer.from(good);
      const flips = 1 + Math.floor(rnd() * 4);
      for (let f = 0; f < flips; f++) {
        const at = 4 + Math.floor(rnd() * (bad.length - 4));
        bad[at] = rnd() < 0.5 ? bad[at]! ^ (1 << Math.floor(rnd() * 8)) : Math.floor(rnd() * 256);
      }
      attempt(info, bad);
      attempt(info, bad.subarray(0, 4 + Math.floor(rnd() * (bad.length - 4))));
    }
  }
});

test('watch event bodies and frame streams reject garbage with ProtobufDecodeError', () => {
  assert.throws(() => decodeWatchEventBody(Buffer.from([0x0a, 0x05, 0x41])), ProtobufDecodeError);
  assert.throws(() => splitFrames(Buffer.from([0, 0, 0, 5, 1, 2])), ProtobufDecodeError);
  assert.throws(() => splitFrames(Buffer.from([0, 0])), ProtobufDecodeError);
  assert.deepEqual(splitFrames(Buffer.alloc(0)), []);
  const info = infoOf('ConfigMap');
  assert.throws(() => codec.decodeWatchEvent(info, Buffer.from([0x0a, 0x01, 0x41, 0x12, 0x02, 0x0a, 0x00])), ProtobufDecodeError);
});
