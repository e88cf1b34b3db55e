// Bootstrap token Secrets (spec 2.12) over the real path: a malformed one is refused with 422 and
// one cause per bad field, without the token secret in the answer; a well-formed one is stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const encode = (data: Record<string, string>) => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)]));

describe('bootstrap token Secrets', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  const path = '/api/v1/namespaces/orch-system/secrets';
  const secret = (name: string, data: Record<string, string>) => ({ metadata: { name }, type: 'bootstrap.orch.io/token', data: encode(data) });

  test('a well-formed token Secret is created', async () => {
    const r = await t.client.post(path, secret('bootstrap-token-abcdef', {
      'token-id': 'abcdef',
      'token-secret': '0123456789abcdef',
      expiration: '2030-01-01T00:00:00Z',
      'usage-bootstrap-authentication': 'true',
      'auth-extra-groups': 'system:bootstrappers:worker',
    }));
    assert.equal(r.status, 201, r.text);
  });

  test('a malformed one is 422 with a cause per field and no secret in the answer', async () => {
    const leaked = 'NOT-A-GOOD-SECRET';
    const r = await t.client.post(path, secret('bootstrap-token-zzzzzz', {
      'token-id': 'abcdef',
      'token-secret': leaked,
      expiration: 'tomorrow',
      'usage-bootstrap-signing': 'yes',
      'auth-extra-groups': 'system:masters',
    }));
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(r.body.details.causes.map((c: { field: string }) => c.field), [
      'metadata.name',
      'data[token-secret]',
      'data[expiration]',
      'data[usage-bootstrap-signing]',
      'data[auth-extra-groups]',
    ]);
    assert.ok(!r.text.includes(leaked), r.text);
    assert.equal((await t.client.get(`${path}/bootstrap-token-zzzzzz`)).status, 404);
  });

  test('an update may not break a stored token Secret', async () => {
    const current = await t.client.get(`${path}/bootstrap-token-abcdef`);
    assert.equal(current.status, 200);
    const r = await t.client.put(`${path}/bootstrap-token-abcdef`, { ...current.body, data: { ...current.body.data, 'token-id': b64('ABCDEF') } });
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(r.body.details.causes.map((c: { field: string }) => c.field), ['data[token-id]']);
  });
});
