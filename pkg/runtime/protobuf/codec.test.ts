import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allGroupVersions } from '../../../api/index.js';
import { fixtures, serverStatusFixtures } from '../../../test/integration/fixtures.js';
import { Scheme, type ResourceInfo } from '../scheme.js';
import { apiDomain, defaultApiDomain } from '../../../api/domain.js';
import { ProtobufCodec, frame } from './codec.js';
import { decodeEnvelope } from './envelope.js';
import { splitFrames } from './frame.js';
import { fullStatefulSet, objectsByKind } from './testdata/objects.js';

const scheme = new Scheme(allGroupVersions);
const codec = new ProtobufCodec(scheme);

/** The resource of a kind, of `<group>/<kind>` where several groups serve a kind of that name, or of `<apiVersion>/<kind>` where several versions do. */
function infoOf(kind: string): ResourceInfo {
  const info = scheme.resources().find((r) => r.kind === kind || `${r.group}/${r.kind}` === kind || `${r.apiVersion}/${r.kind}` === kind);
  assert.ok(info, `kind ${kind} is in the scheme`);
  return info;
}

/** The test object of a resource: the one of its version, of its group, or of its kind. */
function objectOf(objects: Record<string, Record<string, unknown>>, info: ResourceInfo): Record<string, unknown> | undefined {
  return objects[`${info.apiVersion}/${info.kind}`] ?? objects[`${info.group}/${info.kind}`] ?? objects[info.kind];
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/**
 * What a round trip gives back for the test objects: the same JSON, except quantities written as
 * JSON numbers, which come back as their decimal strings (upstream serializes quantities as strings).
 */
function expectedAfterRoundTrip(kind: string, obj: Record<string, unknown>): Record<string, unknown> {
  const out = clone(obj) as Record<string, any>;
  if (kind === 'StatefulSet' && out.spec?.template?.spec?.overhead) {
    const pod = out.spec.template.spec;
    pod.containers[0].resources.limits['example.com/gpu'] = '1';
    pod.overhead.memory = '32';
  }
  return out;
}

test('media type: ours by default, upstream\'s for k8s.io', () => {
  assert.equal(defaultApiDomain.protobufMediaType, 'application/vnd.orch.protobuf');
  assert.equal(apiDomain('k8s.io').protobufMediaType, 'application/vnd.kubernetes.protobuf');
});

test('every kind of the scheme with a protobuf form has a test object', () => {
  const objects = objectsByKind();
  for (const info of scheme.resources().filter((r) => r.protobuf)) assert.ok(objectOf(objects, info), `no test object for ${info.kind}`);
});

for (const [kind, obj] of Object.entries(objectsByKind())) {
  test(`round trip of a full ${kind}`, () => {
    const info = infoOf(kind);
    const bytes = codec.encodeObject(info, obj);
    assert.deepEqual([...bytes.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
    const envelope = decodeEnvelope(bytes);
    assert.equal(envelope.apiVersion, info.apiVersion);
    assert.equal(envelope.kind, info.kind);
    assert.deepStrictEqual(codec.decodeObject(info, bytes), expectedAfterRoundTrip(kind, obj));
  });
}

test('round trip of the integration fixtures of every kind', () => {
  for (const f of [...fixtures, ...serverStatusFixtures]) {
    const info = infoOf(f.kind);
    const obj = f.make(`fixture-${f.kind.toLowerCase()}`);
    assert.deepStrictEqual(codec.decodeObject(info, codec.encodeObject(info, obj)), obj, f.kind);
    if (f.status) {
      const withStatus = { ...obj, status: f.status };
      assert.deepStrictEqual(codec.decodeObject(info, codec.encodeObject(info, withStatus)), withStatus, `${f.kind} status`);
    }
  }
});

test('encoding is deterministic and independent of JSON key order', () => {
  const info = infoOf('StatefulSet');
  const obj = fullStatefulSet();
  const shuffled = { status: obj.status, spec: obj.spec, metadata: obj.metadata, kind: obj.kind, apiVersion: obj.apiVersion };
  assert.deepEqual(codec.encodeObject(info, shuffled), codec.encodeObject(info, obj));
  const labels = (obj.metadata as { labels: Record<string, string> }).labels;
  const reversedLabels = Object.fromEntries(Object.entries(labels).reverse());
  const obj2 = { ...obj, metadata: { ...(obj.metadata as object), labels: reversedLabels } };
  assert.deepEqual(codec.encodeObject(info, obj2), codec.encodeObject(info, obj));
});

test('only present fields are encoded: a minimal object stays minimal', () => {
  const info = infoOf('StatefulSet');
  const obj = {
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'x' },
    spec: { serviceName: '', replicas: 0, selector: {}, template: { spec: { containers: [{ name: 'c', resources: {} }] } } },
  };
  assert.deepStrictEqual(codec.decodeObject(info, codec.encodeObject(info, obj)), obj);
  const empty = { apiVersion: 'apps/v1', kind: 'StatefulSet' };
  assert.deepStrictEqual(codec.decodeObject(info, codec.encodeObject(info, empty)), empty);
  // The message of an object without fields is empty: only the envelope remains.
  assert.equal(decodeEnvelope(codec.encodeObject(info, empty)).raw.length, 0);
});

test('upstream canonicalisation: numbers as quantities, times in UTC seconds, null and empty collections dropped', () => {
  const info = infoOf('ResourceQuota');
  const obj = {
    apiVersion: 'v1', kind: 'ResourceQuota',
    metadata: { name: 'q', creationTimestamp: '2026-01-02T05:04:05.123+02:00', labels: {}, finalizers: [], annotations: null },
    spec: { hard: { cpu: 1.5, pods: 10, memory: 0, big: 1e21 }, scopes: [] },
  };
  assert.deepStrictEqual(codec.decodeObject(info, codec.encodeObject(info, obj)), {
    apiVersion: 'v1', kind: 'ResourceQuota',
    metadata: { name: 'q', creationTimestamp: '2026-01-02T03:04:05Z' },
    spec: { hard: { cpu: '1.5', pods: '10', memory: '0', big: '1e+21' } },
  });
});

test('the apiVersion and kind of the JSON do not travel: the envelope names the kind', () => {
  const info = infoOf('ConfigMap');
  const bytes = codec.encodeObject(info, { metadata: { name: 'a' } });
  assert.deepStrictEqual(codec.decodeObject(info, bytes), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
});

test('encoding a value of the wrong JSON type is a programming error, not silent data loss', () => {
  const info = infoOf('ConfigMap');
  assert.throws(() => codec.encodeObject(info, { metadata: { name: 5 } }), /metadata\.name: expected a string/);
  assert.throws(() => codec.encodeObject(info, { metadata: { creationTimestamp: 'yesterday' } }), /RFC 3339/);
  assert.throws(() => codec.encodeObject(info, { data: ['a'] }), /data: expected an object/);
  // int32 fields never wrap around silently.
  const sts = infoOf('StatefulSet');
  assert.throws(() => codec.encodeObject(sts, { spec: { replicas: 2 ** 32 + 1 } }), /spec\.replicas: expected a 32-bit integer/);
  assert.throws(() => codec.encodeObject(sts, { spec: { updateStrategy: { rollingUpdate: { maxUnavailable: 2 ** 31 } } } }), /maxUnavailable/);
});

test('round trip of lists of every kind', () => {
  const objects = objectsByKind();
  for (const info of scheme.resources()) {
    const obj = objectOf(objects, info)!;
    const item = { ...obj };
    delete item.apiVersion;
    delete item.kind;
    const list = { metadata: { resourceVersion: '42', continue: 'eyJ2IjoibWV0YS5vcmNoLmlvL3YxIn0', remainingItemCount: 3 }, items: [item, { metadata: { name: 'second' } }] };
    const bytes = codec.encodeList(info, list);
    const envelope = decodeEnvelope(bytes);
    assert.equal(envelope.kind, info.listKind);
    assert.equal(envelope.apiVersion, info.apiVersion);
    const expectedItem = expectedAfterRoundTrip(info.kind, item);
    assert.deepStrictEqual(codec.decodeList(info, bytes), {
      apiVersion: info.apiVersion, kind: info.listKind, metadata: list.metadata, items: [expectedItem, { metadata: { name: 'second' } }],
    }, info.kind);
  }
});

test('an empty list keeps its metadata', () => {
  const info = infoOf('Role');
  const bytes = codec.encodeList(info, { metadata: { resourceVersion: '7' }, items: [] });
  assert.deepStrictEqual(codec.decodeList(info, bytes), { apiVersion: info.apiVersion, kind: 'RoleList', metadata: { resourceVersion: '7' } });
});

test('round trip of a Status with details and causes', () => {
  const status = {
    kind: 'Status' as const, apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'StatefulSet.apps "web" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.serviceName: Required value]',
    reason: 'Invalid',
    details: {
      name: 'web', group: 'apps', kind: 'StatefulSet', uid: 'u-1',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.serviceName' },
      ],
      retryAfterSeconds: 2,
    },
    code: 422,
  };
  const bytes = codec.encodeStatus(status);
  const envelope = decodeEnvelope(bytes);
  assert.equal(envelope.apiVersion, 'v1');
  assert.equal(envelope.kind, 'Status');
  assert.deepStrictEqual(codec.decodeStatus(bytes), status);
  const success = { kind: 'Status' as const, apiVersion: 'v1', metadata: { resourceVersion: '9' }, status: 'Success', details: { name: 'x', kind: 'configmaps', uid: 'u' } };
  assert.deepStrictEqual(codec.decodeStatus(codec.encodeStatus(success)), success);
});

test('round trip of watch events, bookmarks and errors, framed', () => {
  const info = infoOf('StatefulSet');
  const sts = fullStatefulSet();
  const bookmark = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { resourceVersion: '99', annotations: { 'orch.io/initial-events-end': 'true' } } };
  const error = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 };
  const events: [string, Record<string, unknown>][] = [['ADDED', sts], ['MODIFIED', sts], ['DELETED', sts], ['BOOKMARK', bookmark], ['ERROR', error]];
  const stream = Buffer.concat(events.map(([type, obj]) => frame(codec.encodeWatchEvent(info, type, obj))));
  const bodies = splitFrames(stream);
  assert.equal(bodies.length, events.length);
  bodies.forEach((body, i) => {
    const [type, obj] = events[i]!;
    assert.equal(stream.readUInt32BE(stream.indexOf(body) - 4), body.length);
    const decoded = codec.decodeWatchEvent(info, body);
    assert.equal(decoded.type, type);
    assert.deepStrictEqual(decoded.object, type === 'ERROR' ? obj : expectedAfterRoundTrip('StatefulSet', obj));
  });
  assert.deepEqual(codec.encodeWatchFrame(info, 'ADDED', sts), frame(codec.encodeWatchEvent(info, 'ADDED', sts)));
});

test('frame prefixes the body with its 4-byte big-endian length', () => {
  assert.deepEqual([...frame(Buffer.from([1, 2, 3]))], [0, 0, 0, 3, 1, 2, 3]);
  const big = Buffer.alloc(0x01_02_03, 7);
  assert.deepEqual([...frame(big).subarray(0, 4)], [0x00, 0x01, 0x02, 0x03]);
  assert.deepEqual([...frame(Buffer.alloc(0))], [0, 0, 0, 0]);
});

test('types are built once per kind and shared across codecs of one scheme lazily', () => {
  const fresh = new ProtobufCodec(scheme);
  const info = infoOf('CSIDriver');
  const obj = objectsByKind().CSIDriver!;
  const first = fresh.encodeObject(info, obj);
  assert.deepEqual(fresh.encodeObject(info, obj), first);
  assert.deepEqual(first, codec.encodeObject(info, obj));
});
