// DeleteOptions as upstream's delete handler reads them: the body in JSON, YAML or protobuf under
// any group, defaulted to the meta group; other kinds, malformed bodies and the query.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../api/domain.js';
import { allGroupVersions } from '../../api/index.js';
import { errorMessage } from '../runtime/field-errors.js';
import { ProtobufCodec } from '../runtime/protobuf/codec.js';
import { encodeEnvelope } from '../runtime/protobuf/envelope.js';
import { Scheme } from '../runtime/scheme.js';
import { SchemaValidator } from '../runtime/schema-validator.js';
import { decodeDeleteOptionsBody, deleteOptionsFromQuery, validateDeleteOptions } from './delete-options.js';
import { Query } from './query.js';

const schemas = new SchemaValidator();
const codec = new ProtobufCodec(new Scheme(allGroupVersions));
const PB = 'application/vnd.kubernetes.protobuf';

const decode = (body: string | Buffer, contentType = 'application/json', domain = defaultApiDomain) =>
  decodeDeleteOptionsBody(Buffer.isBuffer(body) ? body : Buffer.from(body), contentType, domain, schemas, codec);

/** Asserts a Status error with this code whose message matches. */
function refused(fn: () => unknown, code: number, message: RegExp | string): void {
  assert.throws(fn, (e: { code?: number; message?: string }) => {
    assert.equal(e.code, code, e.message);
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message ?? '', message);
    return true;
  });
}

/** Protobuf fields as client-go's generated marshallers write them (proto2, tag = number << 3 | wire type). */
const varintField = (n: number, v: number) => Buffer.from([n << 3, v]);
const stringField = (n: number, s: string) => Buffer.concat([Buffer.from([(n << 3) | 2, Buffer.byteLength(s)]), Buffer.from(s)]);
const messageField = (n: number, m: Buffer) => Buffer.concat([Buffer.from([(n << 3) | 2, m.length]), m]);

test('helm\'s protobuf DeleteOptions (its release Secret\'s delete, captured from helm 3.17 and 4.1) decodes to empty options in v1', () => {
  const helm = Buffer.from('6b3873000a130a027631120d44656c6574654f7074696f6e7312001a002200', 'hex');
  assert.deepEqual(decode(helm, PB), { options: {}, apiVersion: 'v1' });
  assert.deepEqual(decode(helm, 'application/vnd.orch.protobuf'), { options: {}, apiVersion: 'v1' });
});

test('every protobuf field, under the resource\'s own group or none', () => {
  const raw = Buffer.concat([
    varintField(1, 5),
    messageField(2, Buffer.concat([stringField(1, 'u-1'), stringField(2, '42')])),
    stringField(4, 'Foreground'),
    stringField(5, 'All'),
  ]);
  const apps = decode(encodeEnvelope({ apiVersion: 'apps/v1', kind: 'DeleteOptions' }, raw), PB);
  assert.deepEqual(apps, {
    apiVersion: 'apps/v1',
    options: { gracePeriodSeconds: 5, preconditions: { uid: 'u-1', resourceVersion: '42' }, propagationPolicy: 'Foreground', dryRun: ['All'] },
  });
  const bare = decode(encodeEnvelope({ apiVersion: '', kind: '' }, varintField(3, 1)), PB);
  assert.deepEqual(bare, { apiVersion: 'meta.orch.io/v1', options: { orphanDependents: true } }, 'an empty type meta is the meta group\'s DeleteOptions');
  const k8s = decode(encodeEnvelope({ apiVersion: '', kind: '' }, Buffer.alloc(0)), PB, apiDomain('k8s.io'));
  assert.equal(k8s.apiVersion, 'meta.k8s.io/v1');
});

test('a protobuf body that is not DeleteOptions, or not protobuf, is 400', () => {
  refused(() => decode(encodeEnvelope({ apiVersion: 'v1', kind: 'Pod' }, Buffer.alloc(0)), PB), 400, 'no kind "Pod" is registered for version "v1"');
  refused(() => decode(encodeEnvelope({ apiVersion: 'v1', kind: 'Status' }, Buffer.alloc(0)), PB), 400, 'converting (v1.Status) to (v1.DeleteOptions): unknown conversion');
  refused(() => decode('{}', PB), 400, 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  refused(() => decode(Buffer.from('6b387300', 'hex'), PB), 400, 'empty body');
  refused(() => decode(encodeEnvelope({ apiVersion: 'v1', kind: 'DeleteOptions' }, Buffer.from([0x22, 0x09, 0x46])), PB), 400, /malformed protobuf/);
  refused(() => decode(encodeEnvelope({ apiVersion: 'v1', kind: 'DeleteOptions' }, stringField(1, 'x')), PB), 400, /malformed protobuf/);
});

test('JSON bodies: any group and version of kind DeleteOptions, defaulted to the meta group; unknown fields ignored', () => {
  assert.deepEqual(decode('{}'), { options: {}, apiVersion: 'meta.orch.io/v1' });
  assert.deepEqual(decode('null'), { options: {}, apiVersion: 'meta.orch.io/v1' });
  assert.deepEqual(decode('{"apiVersion":"v1","kind":"DeleteOptions","gracePeriodSeconds":0}'), { options: { gracePeriodSeconds: 0 }, apiVersion: 'v1' });
  assert.deepEqual(decode('{"apiVersion":"foo.example/v9","kind":"DeleteOptions","propagationPolicy":"Orphan"}').apiVersion, 'foo.example/v9');
  assert.deepEqual(decode('{"kind":"DeleteOptions"}').apiVersion, 'meta.orch.io/v1');
  assert.deepEqual(decode('{"apiVersion":"meta.orch.io/"}').apiVersion, 'meta.orch.io/v1', 'a version-less meta group takes v1');
  assert.deepEqual(decode('{"dryRun":["All"],"surprise":1,"GracePeriodSeconds":7,"preconditions":{"uid":"u","extra":true}}').options, { dryRun: ['All'], preconditions: { uid: 'u' } });
});

test('JSON bodies of another kind, or malformed, are 400 with upstream\'s reasons', () => {
  refused(() => decode('{"apiVersion":"v1","kind":"Pod"}'), 400, 'no kind "Pod" is registered for version "v1"');
  refused(() => decode('{"apiVersion":"meta.k8s.io/v1","kind":"ListOptions"}'), 400, 'converting (v1.ListOptions) to (v1.DeleteOptions): unknown conversion');
  refused(() => decode('{"apiVersion":"apps/v1","kind":"CreateOptions"}'), 400, 'converting (v1.CreateOptions) to (v1.DeleteOptions): unknown conversion');
  refused(() => decode('{"apiVersion":"apps/v1","kind":"ListOptions"}'), 400, 'no kind "ListOptions" is registered for version "apps/v1"');
  refused(() => decode('{"apiVersion":"foo/"}'), 400, 'Object \'apiVersion\' is missing in \'{"apiVersion":"foo/"}\'');
  refused(() => decode('[]'), 400, /^couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct/);
  refused(() => decode('{"kind":5}'), 400, 'couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string');
  refused(() => decode('{"gracePeriodSeconds":1.5}'), 400, 'json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
  refused(() => decode('{"gracePeriodSeconds":"soon"}'), 400, /^DeleteOptions cannot be decoded: gracePeriodSeconds/);
  refused(() => decode('{"gracePeriodSeconds":'), 400, /^error decoding JSON/);
});

test('YAML bodies decode alike', () => {
  assert.deepEqual(decode('apiVersion: v1\nkind: DeleteOptions\ngracePeriodSeconds: 3\npropagationPolicy: Background\n', 'application/yaml'), {
    options: { gracePeriodSeconds: 3, propagationPolicy: 'Background' }, apiVersion: 'v1',
  });
  refused(() => decode('kind: Secret\napiVersion: v1\n', 'application/yaml'), 400, 'no kind "Secret" is registered for version "v1"');
});

test('a media type no write accepts is upstream\'s 415, naming the accepted types of the domain', () => {
  refused(() => decode('{}', 'text/plain'), 415,
    'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.orch.protobuf, application/vnd.kubernetes.protobuf');
  refused(() => decode('{}', 'text/plain', apiDomain('k8s.io')), 415,
    'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
});

test('the query\'s options, converted as upstream\'s parameter codec converts them', () => {
  const q = (s: string) => deleteOptionsFromQuery(new Query(new URLSearchParams(s)));
  assert.deepEqual(q(''), {});
  assert.deepEqual(q('gracePeriodSeconds=0&propagationPolicy=Orphan&dryRun=All'), { gracePeriodSeconds: 0, propagationPolicy: 'Orphan', dryRun: ['All'] });
  assert.deepEqual(q('orphanDependents=false'), { orphanDependents: false });
  assert.deepEqual(q('orphanDependents=FALSE'), { orphanDependents: false });
  assert.deepEqual(q('orphanDependents=no'), { orphanDependents: true });
  assert.deepEqual(q('uid=u-1&resourceVersion=7'), { preconditions: { uid: 'u-1', resourceVersion: '7' } });
  assert.deepEqual(q('resourceVersion='), {});
  assert.deepEqual(q('propagationPolicy='), { propagationPolicy: '' });
  refused(() => q('gracePeriodSeconds=soon'), 400, 'strconv.ParseInt: parsing "soon": invalid syntax');
});

test('validation as upstream\'s ValidateDeleteOptions', () => {
  const messages = (o: Parameters<typeof validateDeleteOptions>[0]) => validateDeleteOptions(o).map(errorMessage);
  assert.deepEqual(messages({ propagationPolicy: 'Orphan', dryRun: ['All'] }), []);
  assert.deepEqual(messages({ propagationPolicy: 'Orphan', orphanDependents: true }), [
    'propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
  ]);
  assert.deepEqual(messages({ propagationPolicy: 'Sometimes' as 'Orphan' }), [
    'propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"',
  ]);
  assert.deepEqual(messages({ dryRun: ['All', 'Nope'] }), ['dryRun: Unsupported value: []string{"All", "Nope"}: supported values: "All"']);
});
