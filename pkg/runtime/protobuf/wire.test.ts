// Wire compatibility with upstream: messages written byte by byte with protobufjs' Writer,
// following the field numbers of upstream's generated.proto files, must equal our encoder's
// output and decode with our decoder; our output must also read correctly with a decoder built
// from upstream-numbered .proto definitions (testdata/upstream-proto.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { allGroupVersions } from '../../../api/index.js';
import { Scheme, type ResourceInfo } from '../scheme.js';
import { ProtobufCodec, frame } from './codec.js';
import { decodeEnvelope } from './envelope.js';
import { decodeUpstream, encodeUpstream } from './testdata/upstream-proto.js';

const scheme = new Scheme(allGroupVersions);
const codec = new ProtobufCodec(scheme);

function infoOf(kind: string): ResourceInfo {
  const info = scheme.resources().find((r) => r.kind === kind);
  assert.ok(info);
  return info;
}

// ---- a tiny hand encoder: each part writes one field by number -----------------------------------

type Part = (w: protobuf.Writer) => void;

function message(...parts: Part[]): Uint8Array {
  const w = protobuf.Writer.create();
  for (const p of parts) p(w);
  return w.finish();
}
const LEN = 2;
const tag = (id: number, wire: number) => ((id << 3) | wire) >>> 0;
const str = (id: number, s: string): Part => (w) => { w.uint32(tag(id, LEN)).string(s); };
const bytes = (id: number, b: Uint8Array): Part => (w) => { w.uint32(tag(id, LEN)).bytes(b); };
const sub = (id: number, ...parts: Part[]): Part => bytes(id, message(...parts));
const varint = (id: number, n: number): Part => (w) => { w.uint32(tag(id, 0)).int64(n); };
const bool = (id: number, b: boolean): Part => (w) => { w.uint32(tag(id, 0)).bool(b); };
/** A map<string, string> entry. */
const strEntry = (id: number, key: string, value: string): Part => sub(id, str(1, key), str(2, value));
/** A map<string, Message> entry. */
const msgEntry = (id: number, key: string, ...value: Part[]): Part => sub(id, str(1, key), sub(2, ...value));
/** metav1.Time as upstream writes a non-zero time: both seconds and nanos. */
const time = (id: number, iso: string): Part => sub(id, varint(1, Date.parse(iso) / 1000), varint(2, 0));
/** intstr.IntOrString as upstream writes it: all three fields. */
const intOrString = (id: number, v: number | string): Part =>
  typeof v === 'number' ? sub(id, varint(1, 0), varint(2, v), str(3, '')) : sub(id, varint(1, 1), varint(2, 0), str(3, v));
const quantity = (id: number, q: string): Part => sub(id, str(1, q));

const prefix = [0x6b, 0x38, 0x73, 0x00];
/** Prefix + runtime.Unknown{typeMeta{apiVersion = 1, kind = 2} = 1, raw = 2, contentEncoding = 3, contentType = 4}. */
function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(prefix), message(sub(1, str(1, apiVersion), str(2, kind)), bytes(2, raw), str(3, ''), str(4, ''))]);
}

// ---- tests ---------------------------------------------------------------------------------------

test('the envelope: prefix 6b 38 73 00, then Unknown with typeMeta 1 {apiVersion 1, kind 2}, raw 2, contentEncoding 3, contentType 4', () => {
  const info = infoOf('ConfigMap');
  const bytesOut = codec.encodeObject(info, { metadata: { name: 'a' } });
  assert.deepEqual([...bytesOut.subarray(0, 4)], prefix);
  const r = protobuf.Reader.create(bytesOut.subarray(4));
  const fields: [number, number, unknown][] = [];
  while (r.pos < r.len) {
    const t = r.uint32();
    fields.push([t >>> 3, t & 7, r.bytes()]);
  }
  assert.deepEqual(fields.map(([id, wire]) => [id, wire]), [[1, 2], [2, 2], [3, 2], [4, 2]]);
  const typeMeta = protobuf.Reader.create(fields[0]![2] as Uint8Array);
  assert.equal(typeMeta.uint32(), tag(1, LEN));
  assert.equal(typeMeta.string(), 'v1');
  assert.equal(typeMeta.uint32(), tag(2, LEN));
  assert.equal(typeMeta.string(), 'ConfigMap');
  assert.equal(typeMeta.pos, typeMeta.len);
  assert.deepEqual(Buffer.from(fields[1]![2] as Uint8Array), Buffer.from(message(sub(1, str(1, 'a')))));
  assert.equal((fields[2]![2] as Uint8Array).length, 0);
  assert.equal((fields[3]![2] as Uint8Array).length, 0);
  // And as an upstream Unknown decoder reads it.
  const unk = decodeUpstream('Unknown', bytesOut.subarray(4));
  assert.deepEqual(unk, { typeMeta: { apiVersion: 'v1', kind: 'ConfigMap' }, raw: Buffer.from(fields[1]![2] as Uint8Array).toString('base64'), contentEncoding: '', contentType: '' });
});

const configMapJSON = {
  apiVersion: 'v1', kind: 'ConfigMap',
  metadata: {
    name: 'settings', namespace: 'default', uid: 'u-1', resourceVersion: '17', generation: 3,
    creationTimestamp: '2026-01-02T03:04:05Z',
    labels: { app: 'web', tier: 'backend' },
    annotations: { note: 'hi' },
    finalizers: ['a/b'],
    managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2026-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }],
  },
  data: { a: '1', b: '' },
  binaryData: { bin: Buffer.from([0, 1, 255]).toString('base64') },
  immutable: true,
};

const configMapBytes = envelope('v1', 'ConfigMap', message(
  sub(1, // ObjectMeta
    str(1, 'settings'), str(3, 'default'), str(5, 'u-1'), str(6, '17'), varint(7, 3),
    time(8, '2026-01-02T03:04:05Z'),
    strEntry(11, 'app', 'web'), strEntry(11, 'tier', 'backend'),
    strEntry(12, 'note', 'hi'),
    str(14, 'a/b'),
    sub(17, str(1, 'kubectl'), str(2, 'Update'), str(3, 'v1'), time(4, '2026-01-02T03:04:05Z'), str(6, 'FieldsV1'),
      sub(7, bytes(1, Buffer.from('{"f:data":{"f:a":{}}}')))),
  ),
  strEntry(2, 'a', '1'), strEntry(2, 'b', ''),
  sub(3, str(1, 'bin'), bytes(2, Buffer.from([0, 1, 255]))),
  bool(4, true),
));

test('ConfigMap with ObjectMeta (labels, creationTimestamp, managedFields): byte-identical to the hand encoding, both ways', () => {
  const info = infoOf('ConfigMap');
  assert.deepEqual(codec.encodeObject(info, configMapJSON), configMapBytes);
  assert.deepStrictEqual(codec.decodeObject(info, configMapBytes), configMapJSON);
});

test('ConfigMap read by an upstream-numbered decoder', () => {
  const raw = decodeEnvelope(codec.encodeObject(infoOf('ConfigMap'), configMapJSON)).raw;
  const seconds = Date.UTC(2026, 0, 2, 3, 4, 5) / 1000;
  assert.deepEqual(decodeUpstream('ConfigMap', raw), {
    metadata: {
      name: 'settings', namespace: 'default', uid: 'u-1', resourceVersion: '17', generation: 3,
      creationTimestamp: { seconds, nanos: 0 },
      labels: { app: 'web', tier: 'backend' }, annotations: { note: 'hi' }, finalizers: ['a/b'],
      managedFields: [{
        manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: { seconds, nanos: 0 }, fieldsType: 'FieldsV1',
        fieldsV1: { Raw: Buffer.from('{"f:data":{"f:a":{}}}').toString('base64') },
      }],
    },
    data: { a: '1', b: '' },
    binaryData: { bin: Buffer.from([0, 1, 255]).toString('base64') },
    immutable: true,
  });
});

test('a ConfigMap written by an upstream-numbered encoder decodes to its JSON', () => {
  const raw = encodeUpstream('ConfigMap', {
    metadata: { name: 'x', labels: { a: 'b' }, creationTimestamp: { seconds: 1767323045, nanos: 0 } },
    data: { k: 'v' },
    binaryData: { bin: Buffer.from('hello').toString('base64') },
  });
  assert.deepStrictEqual(codec.decodeObject(infoOf('ConfigMap'), envelope('v1', 'ConfigMap', raw)), {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'x', labels: { a: 'b' }, creationTimestamp: '2026-01-02T03:04:05Z' },
    data: { k: 'v' },
    binaryData: { bin: Buffer.from('hello').toString('base64') },
  });
});

const pdbJSON = {
  apiVersion: 'policy/v1', kind: 'PodDisruptionBudget',
  metadata: { name: 'web' },
  spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } }, maxUnavailable: '25%' },
  status: { observedGeneration: 4, disruptedPods: { 'web-0': '2026-01-01T00:00:00Z' }, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 2 },
};

test('IntOrString in a PDB (and a map of times): byte-identical to the hand encoding, both ways', () => {
  const info = infoOf('PodDisruptionBudget');
  const hand = envelope('policy/v1', 'PodDisruptionBudget', message(
    sub(1, str(1, 'web')),
    sub(2, intOrString(1, 2), sub(2, strEntry(1, 'app', 'web')), intOrString(3, '25%')),
    sub(3, varint(1, 4), msgEntry(2, 'web-0', varint(1, Date.UTC(2026, 0, 1) / 1000), varint(2, 0)), varint(3, 1), varint(4, 2), varint(5, 2)),
  ));
  assert.deepEqual(codec.encodeObject(info, pdbJSON), hand);
  assert.deepStrictEqual(codec.decodeObject(info, hand), pdbJSON);
  const upstream = decodeUpstream('PodDisruptionBudget', decodeEnvelope(hand).raw);
  assert.deepEqual(upstream.spec, {
    minAvailable: { type: 0, intVal: 2, strVal: '' },
    selector: { matchLabels: { app: 'web' } },
    maxUnavailable: { type: 1, intVal: 0, strVal: '25%' },
  });
});

test('Quantity: message {string = 1} in map entries, numbers as decimal strings', () => {
  const info = infoOf('ResourceQuota');
  const json = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { cpu: '1.5', pods: 10 } }, status: { used: { memory: '512Mi' } } };
  const hand = envelope('v1', 'ResourceQuota', message(
    sub(1, str(1, 'q')),
    sub(2, msgEntry(1, 'cpu', str(1, '1.5')), msgEntry(1, 'pods', str(1, '10'))),
    sub(3, msgEntry(2, 'memory', str(1, '512Mi'))),
  ));
  assert.deepEqual(codec.encodeObject(info, json), hand);
  assert.deepStrictEqual(codec.decodeObject(info, hand), { ...json, spec: { hard: { cpu: '1.5', pods: '10' } } });
  assert.deepEqual(decodeUpstream('ResourceQuota', decodeEnvelope(hand).raw).spec, { hard: { cpu: { string: '1.5' }, pods: { string: '10' } } });
  // An emptyDir's sizeLimit is a single Quantity field.
  assert.deepEqual([...message(quantity(2, '1Gi'))], [0x12, 0x05, 0x0a, 0x03, 0x31, 0x47, 0x69]);
});

const statefulSetJSON = {
  apiVersion: 'apps/v1', kind: 'StatefulSet',
  metadata: { name: 'web' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      spec: {
        volumes: [
          { name: 'config', configMap: { name: 'settings', items: [{ key: 'a', path: 'a.conf', mode: 256 }], defaultMode: 420 } },
          { name: 'scratch', emptyDir: { sizeLimit: '1Gi' } },
        ],
        containers: [{
          name: 'web',
          image: 'nginx',
          env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode', optional: true } } }],
          resources: { limits: { memory: '128Mi' } },
          livenessProbe: { exec: { command: ['true'] }, periodSeconds: 5 },
          readinessProbe: {
            httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP', httpHeaders: [{ name: 'X', value: 'y' }] },
            initialDelaySeconds: 1, periodSeconds: 10, terminationGracePeriodSeconds: 5_000_000_000,
          },
        }],
        securityContext: { supplementalGroups: [1, 5_000_000_000] },
      },
    },
    serviceName: 'web',
  },
};

const statefulSetBytes = envelope('apps/v1', 'StatefulSet', message(
  sub(1, str(1, 'web')),
  sub(2,
    varint(1, 2),
    sub(2, strEntry(1, 'app', 'web')),
    sub(3, sub(2, // template.spec
      sub(1, str(1, 'config'), sub(2, /* VolumeSource */ sub(19, sub(1, str(1, 'settings')), sub(2, str(1, 'a'), str(2, 'a.conf'), varint(3, 256)), varint(3, 420)))),
      sub(1, str(1, 'scratch'), sub(2, sub(2, quantity(2, '1Gi')))),
      sub(2, // Container
        str(1, 'web'), str(2, 'nginx'),
        sub(7, str(1, 'MODE'), sub(3, sub(3, sub(1, str(1, 'settings')), str(2, 'mode'), bool(3, true)))),
        sub(8, msgEntry(1, 'memory', str(1, '128Mi'))),
        sub(10, sub(1, sub(1, str(1, 'true'))), varint(4, 5)),
        sub(11,
          sub(1, /* ProbeHandler */ sub(2, str(1, '/healthz'), intOrString(2, 8080), str(4, 'HTTP'), sub(5, str(1, 'X'), str(2, 'y')))),
          varint(2, 1), varint(4, 10), varint(7, 5_000_000_000)),
      ),
      sub(14, varint(4, 1), varint(4, 5_000_000_000)), // repeated int64, unpacked as upstream (proto2)
    )),
    str(5, 'web'),
  ),
));

test('Probe with httpGet (embedded ProbeHandler = 1), Volume (embedded VolumeSource = 2), LocalObjectReference embedded = 1: byte-identical, both ways', () => {
  const info = infoOf('StatefulSet');
  assert.deepEqual(codec.encodeObject(info, statefulSetJSON), statefulSetBytes);
  assert.deepStrictEqual(codec.decodeObject(info, statefulSetBytes), statefulSetJSON);
});

test('StatefulSet read by an upstream-numbered decoder', () => {
  const raw = decodeEnvelope(codec.encodeObject(infoOf('StatefulSet'), statefulSetJSON)).raw;
  const sts = decodeUpstream('StatefulSet', raw) as { spec: { template: { spec: Record<string, any> } } };
  const pod = sts.spec.template.spec;
  assert.deepEqual(pod.containers[0].readinessProbe, {
    handler: { httpGet: { path: '/healthz', port: { type: 0, intVal: 8080, strVal: '' }, scheme: 'HTTP', httpHeaders: [{ name: 'X', value: 'y' }] } },
    initialDelaySeconds: 1, periodSeconds: 10, terminationGracePeriodSeconds: 5_000_000_000,
  });
  assert.deepEqual(pod.volumes[0], {
    name: 'config',
    volumeSource: { configMap: { localObjectReference: { name: 'settings' }, items: [{ key: 'a', path: 'a.conf', mode: 256 }], defaultMode: 420 } },
  });
  assert.deepEqual(pod.containers[0].env[0].valueFrom, { configMapKeyRef: { localObjectReference: { name: 'settings' }, key: 'mode', optional: true } });
  assert.deepEqual(pod.securityContext.supplementalGroups, [1, 5_000_000_000]);
});

test('EndpointSlice read by an upstream-numbered decoder: addressType 4, endpoints 2 (conditions, hints, zone), ports 3 with explicit zero values', () => {
  const slice = {
    apiVersion: 'discovery.orch.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-abcde', namespace: 'default' },
    addressType: 'IPv4',
    endpoints: [{
      addresses: ['10.0.0.1'], conditions: { ready: false, serving: true, terminating: false }, nodeName: 'node-1', zone: 'a',
      targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'u1' }, hints: { forZones: [{ name: 'a' }] },
    }],
    ports: [{ name: '', protocol: 'TCP', port: 8080 }],
  };
  const raw = decodeEnvelope(codec.encodeObject(infoOf('EndpointSlice'), slice)).raw;
  assert.deepEqual(decodeUpstream('EndpointSlice', raw), {
    metadata: { name: 'web-abcde', namespace: 'default' },
    addressType: 'IPv4',
    endpoints: [{
      addresses: ['10.0.0.1'], conditions: { ready: false, serving: true, terminating: false }, nodeName: 'node-1', zone: 'a',
      targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'u1' }, hints: { forZones: [{ name: 'a' }] },
    }],
    ports: [{ name: '', protocol: 'TCP', port: 8080 }],
  });
});

const packed = (id: number, type: 'int32' | 'int64', values: number[]): Part => (w) => {
  w.uint32(tag(id, LEN)).fork();
  for (const v of values) w[type](v);
  w.ldelim();
};

test('packed repeated scalars (as proto3 or newer encoders may write them) are read too; we write them unpacked like upstream', () => {
  const info = infoOf('StatefulSet');
  const podSpec = [
    sub(20, str(1, 'init'), sub(25, str(1, 'Restart'), sub(2, str(1, 'In'), packed(2, 'int32', [42, -1])))),
    sub(14, packed(4, 'int64', [1, 5_000_000_000])),
  ];
  const json = {
    apiVersion: 'apps/v1', kind: 'StatefulSet',
    spec: { template: { spec: {
      initContainers: [{ name: 'init', restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42, -1] } }] }],
      securityContext: { supplementalGroups: [1, 5_000_000_000] },
    } } },
  };
  assert.deepStrictEqual(codec.decodeObject(info, envelope('apps/v1', 'StatefulSet', message(sub(2, sub(3, sub(2, ...podSpec)))))), json);
  const unpacked = envelope('apps/v1', 'StatefulSet', message(sub(2, sub(3, sub(2,
    // Fields in ascending number order, as upstream writes them: securityContext 14 before initContainers 20.
    sub(14, varint(4, 1), varint(4, 5_000_000_000)),
    sub(20, str(1, 'init'), sub(25, str(1, 'Restart'), sub(2, str(1, 'In'), varint(2, 42), varint(2, -1)))),
  )))));
  assert.deepEqual(codec.encodeObject(info, json), unpacked);
});

test('Status with details and causes: byte-identical to the hand encoding, typeMeta v1/Status, both ways', () => {
  const status = {
    kind: 'Status' as const, apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'ConfigMap "x" is invalid', reason: 'Invalid',
    details: { name: 'x', kind: 'ConfigMap', causes: [{ reason: 'FieldValueInvalid', message: 'bad', field: 'data' }, { reason: 'FieldValueRequired', field: 'metadata.name' }] },
    code: 422,
  };
  const hand = envelope('v1', 'Status', message(
    sub(1),
    str(2, 'Failure'), str(3, 'ConfigMap "x" is invalid'), str(4, 'Invalid'),
    sub(5, str(1, 'x'), str(3, 'ConfigMap'),
      sub(4, str(1, 'FieldValueInvalid'), str(2, 'bad'), str(3, 'data')),
      sub(4, str(1, 'FieldValueRequired'), str(3, 'metadata.name'))),
    varint(6, 422),
  ));
  assert.deepEqual(codec.encodeStatus(status), hand);
  assert.deepStrictEqual(codec.decodeStatus(hand), status);
  assert.deepEqual(decodeUpstream('Status', decodeEnvelope(hand).raw), {
    metadata: {}, status: 'Failure', message: 'ConfigMap "x" is invalid', reason: 'Invalid',
    details: { name: 'x', kind: 'ConfigMap', causes: [{ reason: 'FieldValueInvalid', message: 'bad', field: 'data' }, { reason: 'FieldValueRequired', field: 'metadata.name' }] },
    code: 422,
  });
});

test('ConfigMapList: metadata ListMeta = 1, items = 2', () => {
  const info = infoOf('ConfigMap');
  const list = { metadata: { resourceVersion: '10', continue: 'tok', remainingItemCount: 2 }, items: [{ metadata: { name: 'a' }, data: { k: 'v' } }] };
  const hand = envelope('v1', 'ConfigMapList', message(
    sub(1, str(2, '10'), str(3, 'tok'), varint(4, 2)),
    sub(2, sub(1, str(1, 'a')), strEntry(2, 'k', 'v')),
  ));
  assert.deepEqual(codec.encodeList(info, list), hand);
  assert.deepEqual(decodeUpstream('ConfigMapList', decodeEnvelope(hand).raw), list);
});

test('watch frames: 4-byte big-endian length, then a bare WatchEvent {type = 1, object = RawExtension{raw = 1} = 2} around the enveloped object', () => {
  const info = infoOf('ConfigMap');
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '5' } };
  const object = codec.encodeObject(info, cm);
  const body = codec.encodeWatchEvent(info, 'ADDED', cm);
  assert.deepEqual(body, Buffer.from(message(str(1, 'ADDED'), sub(2, bytes(1, object)))));
  const framed = frame(body);
  assert.equal(framed.readUInt32BE(0), body.length);
  assert.deepEqual(framed.subarray(4), body);
  assert.deepEqual(codec.encodeWatchFrame(info, 'ADDED', cm), framed);
  const event = decodeUpstream('WatchEvent', body) as { type: string; object: { raw: string } };
  assert.equal(event.type, 'ADDED');
  const embedded = Buffer.from(event.object.raw, 'base64');
  assert.deepEqual([...embedded.subarray(0, 4)], prefix);
  const unk = decodeUpstream('Unknown', embedded.subarray(4)) as { typeMeta: unknown; raw: string };
  assert.deepEqual(unk.typeMeta, { apiVersion: 'v1', kind: 'ConfigMap' });
  assert.deepEqual(decodeUpstream('ConfigMap', Buffer.from(unk.raw, 'base64')), { metadata: { name: 'a', resourceVersion: '5' } });
  // An ERROR event carries a Status (typeMeta v1/Status).
  const error = codec.encodeWatchEvent(info, 'ERROR', { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
  const errorEvent = decodeUpstream('WatchEvent', error) as { object: { raw: string } };
  const errorUnknown = decodeUpstream('Unknown', Buffer.from(errorEvent.object.raw, 'base64').subarray(4)) as { typeMeta: unknown; raw: string };
  assert.deepEqual(errorUnknown.typeMeta, { apiVersion: 'v1', kind: 'Status' });
  assert.deepEqual(decodeUpstream('Status', Buffer.from(errorUnknown.raw, 'base64')), { status: 'Failure', reason: 'Expired', code: 410 });
});

test('upstream zero values: an empty Time message is a null time; explicit empty strings, zeros and false are kept; empty Quantity and IntOrString are 0', () => {
  // What a Go client writes for a mostly empty object: every non-pointer field, zero-valued.
  const hand = envelope('v1', 'Namespace', message(
    sub(1, str(1, 'ns'), str(2, ''), str(3, ''), str(4, ''), str(5, ''), str(6, ''), varint(7, 0), sub(8)),
    sub(2),
    sub(3, str(1, '')),
  ));
  assert.deepStrictEqual(codec.decodeObject(infoOf('Namespace'), hand), {
    apiVersion: 'v1', kind: 'Namespace',
    metadata: { name: 'ns', generateName: '', namespace: '', selfLink: '', uid: '', resourceVersion: '', generation: 0, creationTimestamp: null },
    spec: {},
    status: { phase: '' },
  });
  // And back: a null time (what JSON shows for a zero one) is written as the empty message.
  const again = codec.encodeObject(infoOf('Namespace'), { metadata: { name: 'ns', creationTimestamp: null } });
  assert.deepStrictEqual(codec.decodeObject(infoOf('Namespace'), again), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', creationTimestamp: null } });
  const pdb = envelope('policy/v1', 'PodDisruptionBudget', message(sub(2, sub(1)), sub(3, msgEntry(2, 'p'), varint(3, 0))));
  assert.deepStrictEqual(codec.decodeObject(infoOf('PodDisruptionBudget'), pdb), {
    apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', spec: { minAvailable: 0 }, status: { disruptedPods: { p: null }, disruptionsAllowed: 0 },
  });
  const quota = envelope('v1', 'ResourceQuota', message(sub(2, msgEntry(1, 'pods'))));
  assert.deepStrictEqual(codec.decodeObject(infoOf('ResourceQuota'), quota), {
    apiVersion: 'v1', kind: 'ResourceQuota', spec: { hard: { pods: '0' } },
  });
});

test('fields unknown to our schemas (newer upstream fields) are skipped', () => {
  const hand = envelope('v1', 'ConfigMap', message(
    sub(1, str(1, 'a'), str(15, 'old-cluster-name'), varint(99, 7)),
    str(50, 'future'),
    (w) => { w.uint32(tag(51, 5)).fixed32(7); },
    (w) => { w.uint32(tag(52, 1)).fixed64(7); },
    strEntry(2, 'k', 'v'),
  ));
  assert.deepStrictEqual(codec.decodeObject(infoOf('ConfigMap'), hand), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
});
