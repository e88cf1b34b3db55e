// Hostile bodies and query parameters get the 4xx upstream gives them and change nothing: nesting
// beyond the depth limit, numbers a JS number would alter, nulls, oversized JSON patches,
// malformed Content-Types, query parameters converted as upstream converts them, and request
// timeouts. Ends with a seeded random section over every kind.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allGroupVersions } from '../../api/index.js';
import { MAX_NESTING_DEPTH } from '../../pkg/runtime/body-scan.js';
import { ProtobufCodec } from '../../pkg/runtime/protobuf/codec.js';
import { Scheme } from '../../pkg/runtime/scheme.js';
import { seededRandom } from '../../pkg/util/seeded-random.js';
import { assertStatus } from './framework/assertions.js';
import { pollUntil } from './framework/authentication.js';
import type { Response } from './framework/client.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { collectionPath, fixtures, itemPath, type KindFixture } from './fixtures.js';

const cms = '/api/v1/namespaces/default/configmaps';
const stsPath = '/apis/apps/v1/namespaces/default/statefulsets';
const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';
const JSONPATCH = 'application/json-patch+json';
const YAML = 'application/yaml';
const PROTOBUF = 'application/vnd.orch.protobuf';
const scheme = new Scheme(allGroupVersions);
const codec = new ProtobufCodec(scheme);
const fixture = (kind: string) => fixtures.find((f) => f.kind === kind)!;

/** `{"a":{"a":...[]...}}`: `depth` levels of objects and arrays as JSON text. */
function nested(depth: number, open = '{"a":', close = '}'): string {
  return open.repeat(depth - 1) + '[]' + close.repeat(depth - 1);
}

/** `{"f:a":{"f:a":...{}...}}`: a field set `depth` levels deep, as a readable fieldsV1 holds one. */
function nestedFields(depth: number): string {
  return '{"f:a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
}

/**
 * A ConfigMap whose managedFields[0].fieldsV1 (free-form JSON inside the protobuf, kept as sent
 * when it reads as a field set) holds `value`: 4 levels above it.
 */
function withFieldsV1(name: string, value: string): string {
  return `{"metadata":{"name":"${name}","managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":${value}}]}}`;
}

describe('hostile bodies, numbers, nulls, patches, Content-Type and query parameters', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.client.post(cms, { metadata: { name: 'target' }, data: { a: '1' } })).status, 201);
    assert.equal((await t.client.post(stsPath, fixture('StatefulSet').make('web'))).status, 201);
  });
  after(async () => t?.stop());

  /** etcd's revision, read off a list (which writes nothing): any write moves it. */
  const revision = async () => (await t.client.get(cms)).body.metadata.resourceVersion as string;

  /** The request is refused with this code, reason and message, and nothing was written. */
  async function refused(what: string, send: () => Promise<Response>, code: number, reason: string, ...words: (string | RegExp)[]): Promise<Response> {
    const before = await revision();
    const r = await send();
    assertStatus(r, code, reason, what);
    for (const w of words) {
      if (typeof w === 'string') assert.ok(r.body.message.includes(w), `${what}: ${JSON.stringify(w)} not in ${r.body.message}`);
      else assert.match(r.body.message, w, what);
    }
    assert.equal(await revision(), before, `${what}: nothing is written`);
    return r;
  }

  const post = (path: string, raw: string | Buffer, contentType = 'application/json') => () => t.client.request('POST', path, { raw, contentType });
  const patch = (path: string, raw: string, contentType: string) => () => t.client.request('PATCH', path, { raw, contentType });

  test('1. bodies and patches of every type nested beyond the limit are 400, before anything recursive runs', async () => {
    const tooDeep = `exceeded max depth of ${MAX_NESTING_DEPTH}`;
    // A 10,000-deep merge patch used to exhaust the stack (500 "Maximum call stack size exceeded").
    await refused('merge patch', patch(`${cms}/target`, nested(10_000), MERGE), 400, 'BadRequest', 'invalid JSON patch', tooDeep);
    await refused('strategic merge patch', patch(`${cms}/target`, `{"data":${nested(300)}}`, SMP), 400, 'BadRequest', 'invalid JSON patch', tooDeep);
    await refused('JSON patch', patch(`${cms}/target`, `[{"op":"add","path":"/x","value":${nested(10_000, '[', ']')}}]`, JSONPATCH), 400, 'BadRequest', tooDeep);
    await refused('JSON body', post(cms, withFieldsV1('deep', nested(300))), 400, 'BadRequest', 'error decoding JSON', `invalid character '{' ${tooDeep}`);
    await refused('YAML flow body', post(cms, `metadata:\n  name: deep\ndata: ${'['.repeat(100_000)}`, YAML), 400, 'BadRequest',
      'error decoding YAML', `yaml: line 3: ${tooDeep}`);
    let block = 'metadata:\n  name: deep\nx:\n';
    for (let i = 1; i <= 300; i++) block += `${' '.repeat(i)}a:\n`;
    await refused('YAML block body', post(cms, block, YAML), 400, 'BadRequest', tooDeep);
    // Aliases nest a value deeper than its text: 200 levels aliased inside 200 levels.
    const aliased = `metadata:\n  name: deep\nx: &a ${'['.repeat(200)}${']'.repeat(200)}\ny: ${'['.repeat(200)}*a${']'.repeat(200)}\n`;
    await refused('YAML aliases', post(cms, aliased, YAML), 400, 'BadRequest', `yaml: ${tooDeep}`);
    await refused('YAML alias inside its anchor', post(cms, 'metadata:\n  name: deep\n  labels: &a {b: *a}\n', YAML), 400, 'BadRequest',
      "anchor 'a' value contains itself");
    const cm = scheme.resource('', 'v1', 'configmaps')!;
    let deepValue: unknown = [];
    for (let i = 0; i < 300; i++) deepValue = { a: deepValue };
    const pb = codec.encodeObject(cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deep', managedFields: [{ manager: 'm', fieldsV1: deepValue }] } });
    await refused('protobuf body', post(cms, pb, PROTOBUF), 400, 'BadRequest', tooDeep);
    // A JSON patch can nest deeper than its own text: fieldsV1 copied into its own deepest object doubles it.
    const half = MAX_NESTING_DEPTH / 2;
    const halfDeep = await t.client.request('POST', cms, { raw: withFieldsV1('copies', nestedFields(half)) });
    assert.equal(halfDeep.status, 201, halfDeep.text);
    const entry = (halfDeep.body.metadata.managedFields as { manager: string }[]).findIndex((e) => e.manager === 'm');
    const fieldsV1 = `/metadata/managedFields/${entry}/fieldsV1`;
    const copy = { op: 'copy', from: fieldsV1, path: `${fieldsV1}${'/f:a'.repeat(half - 2)}/x` };
    await refused('JSON patch result', patch(`${cms}/copies`, JSON.stringify([copy]), JSONPATCH), 422, 'Invalid', `exceeds the max depth of ${MAX_NESTING_DEPTH}`);
  });

  test('1b. an object nested right up to the limit is served in every format and patched by every type', async () => {
    const c = t.client;
    // metadata, managedFields, [0] and fieldsV1 are the first 4 levels.
    const body = withFieldsV1('at-limit', nestedFields(MAX_NESTING_DEPTH - 4));
    const created = await c.request('POST', cms, { raw: body });
    assert.equal(created.status, 201, created.text);
    assert.equal((await c.request('POST', cms, { raw: withFieldsV1('over-limit', nestedFields(MAX_NESTING_DEPTH - 3)) })).status, 400);
    const yaml = await c.get(`${cms}/at-limit`, { headers: { Accept: YAML } });
    assert.equal(yaml.status, 200);
    assert.match(yaml.text, /fieldsV1:/);
    assert.equal((await c.getRaw(`${cms}/at-limit`, { Accept: PROTOBUF })).status, 200);
    const table = await c.get(`${cms}?includeObject=Object`, { headers: { Accept: 'application/yaml;as=Table;g=meta.orch.io;v=v1' } });
    assert.equal(table.status, 200, table.text);
    assert.equal((await c.get(cms, { headers: { Accept: YAML } })).status, 200);
    for (const ct of [MERGE, SMP]) {
      const p = await c.request('PATCH', `${cms}/at-limit`, { raw: body, contentType: ct });
      assert.equal(p.status, 200, `${ct}: ${p.text}`);
    }
    const jp = await c.request('PATCH', `${cms}/at-limit`, { raw: '[{"op":"add","path":"/data","value":{"k":"v"}}]', contentType: JSONPATCH });
    assert.equal(jp.status, 200, jp.text);
    const w = await c.watch(`${cms}?watch=1&resourceVersion=0&fieldSelector=metadata.name%3Dat-limit&timeoutSeconds=5`);
    assert.equal((await w.next())?.object.metadata.name, 'at-limit');
    w.close();
    const yamlBody = `metadata:\n  name: yaml-at-limit\n  managedFields:\n  - manager: m\n    operation: Update\n    apiVersion: v1\n    fieldsType: FieldsV1\n    fieldsV1: ${nestedFields(MAX_NESTING_DEPTH - 4)}\n`;
    const y = await c.request('POST', cms, { raw: yamlBody, contentType: YAML });
    assert.equal(y.status, 201, y.text);
  });

  test('2. a number is never silently altered: out of its field\'s range or not representable is refused, naming the field', async () => {
    const sts = JSON.stringify(fixture('StatefulSet').make('numbers'));
    const replicas = (lit: string) => sts.replace('"spec":{', `"spec":{"replicas":${lit},`);
    const upstream = (lit: string) =>
      `StatefulSet in version "v1" cannot be handled as a StatefulSet: json: cannot unmarshal number ${lit} into Go struct field StatefulSetSpec.spec.replicas of type int32`;
    for (const lit of ['1e308', '2147483648', '-2147483649', '1e999', '1.5']) {
      const r = await refused(`replicas ${lit}`, post(stsPath, replicas(lit)), 400, 'BadRequest');
      assert.equal(r.body.message, upstream(lit));
    }
    await refused('YAML replicas', post(stsPath, `metadata:\n  name: numbers\nspec:\n  replicas: 2147483648\n`, YAML), 400, 'BadRequest',
      'cannot unmarshal number 2147483648 into Go struct field StatefulSetSpec.spec.replicas of type int32');
    // A patched object that does not decode is upstream's 422 on `patch`.
    await refused('merge patch replicas', patch(`${stsPath}/web`, '{"spec":{"replicas":1e308}}', MERGE), 422, 'Invalid',
      'cannot unmarshal number 1e308 into Go struct field StatefulSetSpec.spec.replicas of type int32');
    await refused('strategic merge patch replicas', patch(`${stsPath}/web`, '{"spec":{"replicas":4294967296}}', SMP), 422, 'Invalid',
      'cannot unmarshal number 4294967296 into Go struct field StatefulSetSpec.spec.replicas of type int32');
    for (const lit of ['1e999', '-1e999', '1e-999', '9223372036854775808', '9007199254740993']) {
      await refused(`fieldsV1 ${lit}`, post(cms, withFieldsV1('numbers', `{"f:data":{"n":${lit}}}`)), 400, 'BadRequest',
        `metadata.managedFields[0].fieldsV1.f:data.n: the number ${lit} cannot be represented exactly`);
      await refused(`merge patch ${lit}`, patch(`${cms}/target`, `{"metadata":{"annotations":{"a":"b"}},"x":[${lit}]}`, MERGE), 400, 'BadRequest',
        `invalid JSON patch: x[0]: the number ${lit} cannot be represented exactly`);
    }
    await refused('YAML beyond 2^53', post(cms, withFieldsV1('numbers', '{x: 0x20000000000001}'), YAML), 400, 'BadRequest',
      'fieldsV1.x: the number 9007199254740993 cannot be represented exactly');
    await refused('YAML .inf', post(cms, withFieldsV1('numbers', '{x: .inf}'), YAML), 400, 'BadRequest', 'json: unsupported value: +Inf');
    const cm = scheme.resource('', 'v1', 'configmaps')!;
    const pb = codec.encodeObject(cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'numbers', generation: 2 ** 53 + 2 } });
    await refused('protobuf int64', post(cms, pb, PROTOBUF), 400, 'BadRequest', 'the number 9007199254740994 cannot be represented exactly');
    // What a double holds exactly passes decoding: what refuses it is that it is no field set.
    const exact = await t.client.request('POST', `${cms}?dryRun=All`, { raw: withFieldsV1('exact', '{"a":9007199254740992,"b":1e308,"c":5e-324}') });
    assert.equal(exact.status, 400, exact.text);
    assert.match(exact.body.message, /^metadata\.managedFields: error decoding versioned set/);
  });

  test('2b. a YAML body keeps its timestamps as strings: what GET gives as YAML can be PUT back', async () => {
    const c = t.client;
    const got = await c.get(`${cms}/target`, { headers: { Accept: YAML } });
    assert.match(got.text, /creationTimestamp: "?\d{4}-/);
    const put = await c.request('PUT', `${cms}/target`, { raw: got.text, contentType: YAML });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.metadata.creationTimestamp, (await c.get(`${cms}/target`)).body.metadata.creationTimestamp);
  });

  test('3. null: a field is unset, a map value or list element is its zero value, and validation judges the result', async () => {
    const lr = fixture('LimitRange').make('nulls') as any;
    lr.spec.limits[0].max = { cpu: null };
    // Upstream decodes a null Quantity as 0: the default of 500m is then above the max.
    const r = await refused('LimitRange max null', () => t.client.post('/api/v1/namespaces/default/limitranges', lr), 422, 'Invalid',
      'default value 500m is greater than max value 0');
    assert.ok(r.body.details.causes.some((c: { field: string }) => c.field === 'spec.limits[0].default[cpu]'), r.text);
    const sts = fixture('StatefulSet').make('nulls') as any;
    sts.spec.template.spec.containers = [null];
    const s = await refused('list element null', () => t.client.post(stsPath, sts), 422, 'Invalid');
    assert.ok(s.body.details.causes.some((c: { field: string; reason: string }) =>
      c.field === 'spec.template.spec.containers[0].image' && c.reason === 'FieldValueRequired'), s.text);
    // Upstream decodes a patched object without apiVersion into its internal type, which takes
    // none of the wire's fields: the name is lost, and nothing written (patch.test covers the rest).
    await refused('apiVersion null', () => t.client.patch(`${cms}/target`, { apiVersion: null }), 400, 'BadRequest',
      'the name of the object (target based on URL) was undeterminable: name must be provided');
    assert.equal((await t.client.get(`${cms}/target`)).body.apiVersion, 'v1');
    const zero = await t.client.post(`${cms}?dryRun=All`, { metadata: { name: 'zero', labels: { a: null } }, data: { k: null } });
    assert.equal(zero.status, 201, zero.text);
    assert.deepEqual([zero.body.metadata.labels, zero.body.data], [{ a: '' }, { k: '' }]);
  });

  test('4. a JSON patch of more than 10,000 operations is 413', async () => {
    const ops = (n: number) => JSON.stringify(Array.from({ length: n }, () => ({ op: 'test', path: '/kind', value: 'ConfigMap' })));
    const r = await refused('10,001 operations', patch(`${cms}/target`, ops(10_001), JSONPATCH), 413, 'RequestEntityTooLarge');
    assert.equal(r.body.message, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    const before = await revision();
    const ok = await t.client.request('PATCH', `${cms}/target`, { raw: ops(10_000), contentType: JSONPATCH });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(await revision(), before, 'tests only: nothing changes');
  });

  test('5. a malformed or unsupported Content-Type is 415', async () => {
    const body = '{"metadata":{"name":"ct"}}';
    for (const ct of ['application/json;;;;', 'application/json; charset', 'application/json; charset=latin9', 'text/plain', '; charset=utf-8', 'application/json/x']) {
      await refused(`POST ${ct}`, post(cms, body, ct), 415, 'UnsupportedMediaType', 'accepted media types include');
      await refused(`PATCH ${ct}`, patch(`${cms}/target`, '{}', ct), 415, 'UnsupportedMediaType');
    }
    const ok = await t.client.request('POST', `${cms}?dryRun=All`, { raw: body, contentType: 'Application/JSON; charset="utf-8"' });
    assert.equal(ok.status, 201, ok.text);
  });

  test('6. query parameters are converted as upstream converts them', async () => {
    const c = t.client;
    // Booleans: false only for 0 and false, in any case; python clients send watch=True.
    const w = await c.watch(`${cms}?watch=True&resourceVersion=0&fieldSelector=metadata.name%3Dtarget&timeoutSeconds=5`);
    assert.equal(w.status, 200);
    assert.equal((await w.next())?.type, 'ADDED');
    w.close();
    assert.equal((await c.get(`${cms}?watch=FALSE`)).body.kind, 'ConfigMapList');
    // Integers: strconv.ParseInt's own words.
    await refused('limit', () => c.get(`${cms}?limit=abc`), 400, 'BadRequest');
    assert.equal((await c.get(`${cms}?limit=abc`)).body.message, 'strconv.ParseInt: parsing "abc": invalid syntax');
    // A watch decodes the same ListOptions: a malformed limit is refused before it starts.
    const watchLimit = await refused('limit on a watch', () => c.get(`${cms}?watch=true&limit=abc&timeoutSeconds=5`), 400, 'BadRequest');
    assert.equal(watchLimit.body.message, 'strconv.ParseInt: parsing "abc": invalid syntax');
    await refused('timeoutSeconds', () => c.get(`${cms}?timeoutSeconds=1.5`), 400, 'BadRequest', 'strconv.ParseInt: parsing "1.5": invalid syntax');
    await refused('gracePeriodSeconds', () => c.delete(`${cms}/target?gracePeriodSeconds=99999999999999999999`), 400, 'BadRequest',
      'strconv.ParseInt: parsing "99999999999999999999": value out of range');
    assert.equal((await c.get(`${cms}/target`)).status, 200);
    // fieldManager: ValidateFieldManager, on the options kind of the verb.
    const long = await refused('fieldManager too long', () => c.post(`${cms}?fieldManager=${'m'.repeat(129)}`, { metadata: { name: 'fm' } }), 422, 'Invalid',
      'CreateOptions', 'fieldManager: Too long: may not be more than 128 bytes');
    assert.deepEqual(long.body.details.causes[0], { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 128 bytes', field: 'fieldManager' });
    await refused('fieldManager control character', () => c.put(`${cms}/target?fieldManager=a%07b`, { metadata: { name: 'target' } }), 422, 'Invalid',
      'UpdateOptions', 'invalid character U+0007 (at position 1)');
    await refused('fieldManager on a patch', () => c.request('PATCH', `${cms}/target?fieldManager=%C2%A0`, { body: { data: { b: '2' } }, contentType: MERGE }), 422, 'Invalid',
      'PatchOptions', 'invalid character U+00A0 (at position 0)');
    // timeout: a Go duration, on reads and writes alike.
    await refused('timeout on a read', () => c.get(`${cms}?timeout=abc`), 400, 'BadRequest',
      'invalid timeout specified in the request URL - time: invalid duration "abc"');
    await refused('timeout on a write', () => c.post(`${cms}?timeout=10`, { metadata: { name: 'tm' } }), 400, 'BadRequest',
      'invalid timeout specified in the request URL - time: missing unit in duration "10"');
  });

  test('6b. a request still running at its timeout is answered 504, and its late work stops without harm', async () => {
    const c = t.client;
    // A read waiting for a future resourceVersion would wait 3 s; the timeout cuts it short.
    const future = Number(await revision()) + 1000;
    const started = Date.now();
    const r = await c.get(`${cms}?resourceVersion=${future}&resourceVersionMatch=NotOlderThan&timeout=300ms`);
    assertStatus(r, 504, 'Timeout');
    assert.equal(r.body.message, 'Timeout: request did not complete within the allotted timeout');
    assert.ok(Date.now() - started < 2500, 'answered at the timeout, not when the wait ends');
    // A write that takes longer than its timeout: deleting many objects one by one.
    assert.equal((await c.post('/api/v1/namespaces', { metadata: { name: 'slow' } })).status, 201);
    for (let i = 0; i < 100; i++) assert.equal((await c.post('/api/v1/namespaces/slow/configmaps', { metadata: { name: `cm-${i}` } })).status, 201);
    const d = await c.delete('/api/v1/namespaces/slow/configmaps?timeout=2ms');
    assertStatus(d, 504, 'Timeout');
    assert.equal(d.body.message, 'Timeout: request did not complete within requested timeout - context deadline exceeded', 'a write\'s deadline, as upstream\'s write handlers word it');
    assert.equal(d.headers['retry-after'], undefined, 'what the write did is unknown: nothing invites a blind retry');
    // The work stops at its next write once the 504 is out (as upstream's, whose context ends
    // with it), and its end must not take the server down.
    const stopped = (l: string) => l.includes('post-timeout activity') && l.includes('/namespaces/slow/configmaps') && l.includes('result="cancelled"');
    await pollUntil(async () => t.logs, (ls) => ls.some(stopped), 'the late deletion to stop', 20_000);
    const left = (await c.get('/api/v1/namespaces/slow/configmaps')).body.items.length;
    assert.ok(left > 0, 'the deletion stopped with objects left');
    assert.equal((await c.get('/livez')).status, 200);
    assert.equal((await c.get(`${cms}/target`)).status, 200);
  });

  test('7. seeded random deep, numeric, null and malformed bodies for every kind: no 5xx, nothing written', async () => {
    const c = t.client;
    const r = seededRandom(20261124);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const failures: string[] = [];
    const expect4xx = (what: string, res: Response) => {
      if (res.status < 400 || res.status >= 500 || res.body?.kind !== 'Status') failures.push(`${what} -> ${res.status} ${res.text.slice(0, 200)}`);
    };
    const expectNo5xx = (what: string, res: Response) => {
      if (res.status >= 500 || res.status === 0) failures.push(`${what} -> ${res.status} ${res.text.slice(0, 200)}`);
    };
    const nameOf = (f: KindFixture) => `${f.resource.slice(0, 8)}-hb`;
    for (const f of fixtures) assert.equal((await c.post(collectionPath(f), f.make(nameOf(f)))).status, 201, f.kind);
    const start = await revision();

    /** Every path of a JSON value (objects' keys, arrays' indices), the root excluded. */
    const pathsOf = (v: unknown, prefix: (string | number)[] = []): (string | number)[][] => {
      if (Array.isArray(v)) return v.flatMap((x, i) => [[...prefix, i], ...pathsOf(x, [...prefix, i])]);
      if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [[...prefix, k], ...pathsOf(x, [...prefix, k])]);
      return [];
    };
    const setAt = (obj: any, path: (string | number)[], value: unknown) => {
      let cur = obj;
      for (const seg of path.slice(0, -1)) cur = cur[seg];
      cur[path[path.length - 1]!] = value;
    };
    /** The object's JSON with the value at a random known path replaced by a raw text. */
    const withRawAt = (obj: unknown, raw: string): string => {
      const copy = JSON.parse(JSON.stringify(obj));
      const paths = pathsOf(copy).filter((p) => p.join('.') !== 'metadata.name');
      setAt(copy, pick(paths), '\u0000RAW\u0000');
      return JSON.stringify(copy).replace('"\\u0000RAW\\u0000"', raw);
    };
    const randomNest = (depth: number): string => {
      let s = '1';
      for (let i = 0; i < depth; i++) s = r() < 0.5 ? `[${s}]` : `{"${pick(['a', 'spec', 'x y', '\\u0041'])}":${s}}`;
      return s;
    };
    const inexact = ['1e999', '-1e999', '1e-999', '-4e-400', '9223372036854775808', '9007199254740993', '18446744073709551616', '123456789012345678901234567890'];
    const outOfRange = ['2147483648', '-2147483649', '1e308', '3.5', '1e21', '-0.0'];
    const badTypes = ['application/json;;;;', 'application/json; charset', 'text/plain', '; charset=utf-8', 'application/json; charset=ebcdic', 'application/jso n'];

    for (const f of fixtures) {
      const base = f.make(nameOf(f));
      const item = itemPath(f, nameOf(f));
      for (let i = 0; i < 6; i++) {
        // Deep: anywhere in the object, as JSON and as YAML (JSON is YAML's flow style), by every verb.
        const deep = withRawAt(base, randomNest(MAX_NESTING_DEPTH + 1 + Math.floor(r() * MAX_NESTING_DEPTH * 2)));
        expect4xx(`POST deep ${f.kind}`, await c.request('POST', collectionPath(f), { raw: deep, contentType: pick(['application/json', YAML]) }));
        expect4xx(`PUT deep ${f.kind}`, await c.request('PUT', item, { raw: deep, contentType: pick(['application/json', YAML]) }));
        expect4xx(`PATCH deep ${f.kind}`, await c.request('PATCH', item, { raw: deep, contentType: pick([MERGE, SMP]) }));
        expect4xx(`JSON patch deep ${f.kind}`, await c.request('PATCH', item, { raw: `[{"op":"add","path":"/metadata/labels","value":${randomNest(MAX_NESTING_DEPTH + 2)}}]`, contentType: JSONPATCH }));
        let block = `apiVersion: ${f.apiVersion}\nkind: ${f.kind}\nmetadata:\n  name: ${nameOf(f)}\nextra:\n`;
        const levels = MAX_NESTING_DEPTH + Math.floor(r() * 50);
        for (let l = 1; l < levels; l++) block += r() < 0.5 ? `${' '.repeat(l)}k${l}:\n` : `${' '.repeat(l)}-\n`;
        expect4xx(`POST deep block YAML ${f.kind}`, await c.request('POST', collectionPath(f), { raw: block, contentType: YAML }));
        // Numbers a double would alter: refused wherever they land.
        const num = withRawAt(base, pick(inexact));
        expect4xx(`POST ${num.slice(0, 160)}`, await c.request('POST', collectionPath(f), { raw: num, contentType: pick(['application/json', YAML]) }));
        expect4xx(`PATCH ${num.slice(0, 160)}`, await c.request('PATCH', item, { raw: num, contentType: pick([MERGE, SMP]) }));
        // Out of range for some fields, fine for others: judged without writing.
        const range = withRawAt(base, pick(outOfRange));
        expectNo5xx(`POST dryRun ${range.slice(0, 160)}`, await c.request('POST', `${collectionPath(f)}?dryRun=All`, { raw: range }));
        // Nulls anywhere: unset, zero values, or validation errors; judged without writing.
        const withNull = JSON.parse(JSON.stringify(base));
        setAt(withNull, pick(pathsOf(withNull)), null);
        expectNo5xx(`POST dryRun null ${JSON.stringify(withNull).slice(0, 160)}`, await c.request('POST', `${collectionPath(f)}?dryRun=All`, { body: withNull }));
        expectNo5xx(`PUT dryRun null ${f.kind}`, await c.request('PUT', `${item}?dryRun=All`, { body: { ...withNull, metadata: { ...withNull.metadata, name: nameOf(f) } } }));
        expectNo5xx(`PATCH dryRun null ${f.kind}`, await c.request('PATCH', `${item}?dryRun=All`, { body: withNull, contentType: pick([MERGE, SMP]) }));
        // Malformed: truncated text, a bad Content-Type, bad query parameters.
        const text = JSON.stringify(base);
        expect4xx(`POST truncated ${f.kind}`, await c.request('POST', collectionPath(f), { raw: text.slice(0, Math.floor(r() * (text.length - 1))), contentType: pick(['application/json', MERGE]) }));
        expect4xx(`POST ${f.kind} with a bad Content-Type`, await c.request('POST', collectionPath(f), { raw: text, contentType: pick(badTypes) }));
        const query = pick(['timeout=1', 'timeout=-', 'fieldManager=%01', `fieldManager=${'x'.repeat(200)}`, 'timeout=1y']);
        expect4xx(`POST ${f.kind}?${query}`, await c.request('POST', `${collectionPath(f)}?${query}`, { body: f.make(`${f.resource.slice(0, 8)}-q`) }));
        expect4xx(`GET ${f.kind} list with a bad limit`, await c.get(`${collectionPath(f)}?limit=${pick(['x', '', '1.0', '1e3', '99999999999999999999'])}`));
      }
    }
    assert.deepEqual(failures, []);
    assert.equal(await revision(), start, 'nothing was written');
    assert.equal((await c.get('/livez')).status, 200);
  });
});
