// fieldValidation Ignore / Warn (default) / Strict for unknown and duplicated fields, in JSON and
// YAML bodies, on create and update (patch is covered in patch.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';

const cms = '/api/v1/namespaces/default/configmaps';
const warnings = (h: string | string[] | undefined) => (Array.isArray(h) ? h : h ? h.split(/,(?=\s*299)/) : []).map((w) => w.trim());

describe('field validation', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  const json = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"NAME","labels":{"a":"1","a":"2"}},"data":{"k":"v"},"bogus":1,"data":{"k":"w"}}';

  test('Warn (the default) keeps the last duplicate, drops unknown fields, one Warning each', async () => {
    const r = await t.client.request('POST', cms, { raw: json.replace('NAME', 'warn') });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.data.k, 'w');
    assert.equal(r.body.metadata.labels.a, '2');
    assert.equal(r.body.bogus, undefined);
    const w = warnings(r.headers.warning);
    assert.deepEqual(w, ['299 - "duplicate field \\"metadata.labels.a\\""', '299 - "duplicate field \\"data\\""', '299 - "unknown field \\"bogus\\""']);
  });

  test('Ignore says nothing; Strict answers 400 naming every field and stores nothing', async () => {
    const ignored = await t.client.request('POST', `${cms}?fieldValidation=Ignore`, { raw: json.replace('NAME', 'ignore') });
    assert.equal(ignored.status, 201, ignored.text);
    assert.equal(ignored.headers.warning, undefined);
    const strict = await t.client.request('POST', `${cms}?fieldValidation=Strict`, { raw: json.replace('NAME', 'strict') });
    assert.equal(strict.status, 400, strict.text);
    assert.equal(strict.body.reason, 'BadRequest');
    assert.equal(strict.body.message, 'strict decoding error: duplicate field "metadata.labels.a", duplicate field "data", unknown field "bogus"');
    assert.equal((await t.client.get(`${cms}/strict`)).status, 404);
    const bad = await t.client.request('POST', `${cms}?fieldValidation=Loose`, { raw: json.replace('NAME', 'loose') });
    assert.equal(bad.status, 400, bad.text);
  });

  test('YAML bodies: duplicates by line, unknown fields by path, on create and update', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: NAME\ndata:\n  k: v\n  k: w\nextra: true\n';
    const created = await t.client.request('POST', cms, { raw: yaml.replace('NAME', 'yml'), contentType: 'application/yaml' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.data.k, 'w');
    assert.deepEqual(warnings(created.headers.warning), ['299 - "line 7: key \\"k\\" already set in map"', '299 - "unknown field \\"extra\\""']);
    const strict = await t.client.request('PUT', `${cms}/yml?fieldValidation=Strict`, { raw: yaml.replace('NAME', 'yml'), contentType: 'application/yaml' });
    assert.equal(strict.status, 400, strict.text);
    assert.match(strict.body.message, /^strict decoding error: yaml: unmarshal errors:\n {2}line 7: key "k" already set in map, unknown field "extra"$/);
    const octal = await t.client.request('POST', cms, { raw: 'metadata:\n  name: octal\n  annotations:\n    mode: "0644"\n', contentType: 'application/yaml' });
    assert.equal(octal.status, 201, octal.text);
  });

  test('unknown fields deep inside a pod template are reported with their path', async () => {
    const body = {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'deep' },
      spec: { serviceName: 's', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', imagePullPolcy: 'Always' }] } } },
    };
    const r = await t.client.post('/apis/apps/v1/namespaces/default/statefulsets', body);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r.headers.warning), ['299 - "unknown field \\"spec.template.spec.containers[0].imagePullPolcy\\""']);
  });
});
