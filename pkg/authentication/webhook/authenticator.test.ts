import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import type { AuthenticationResult } from '../authenticator.js';
import { sendJSON, startTestHttpsServer, type TestHttpsServer, type TestRequest } from '../testing/https-server.js';
import { createTestCA, issueLoopbackServerCert, type KeyPairPem, type TestCA } from '../testing/pki.js';
import { WebhookTokenAuthenticator, type WebhookTokenOptions } from './authenticator.js';

const fastRetry = { initialDelayMs: 5, factor: 1.5, jitter: 0.2, steps: 5 };
const V1 = 'authentication.orch.io/v1';

/** A well-behaved token webhook: decides by the token it is sent. */
function review(req: TestRequest, res: ServerResponse): void {
  const body = JSON.parse(req.body) as { apiVersion: string; spec: { token: string; audiences?: string[] } };
  const answer = (status: object) => sendJSON(res, 200, { apiVersion: body.apiVersion, kind: 'TokenReview', status });
  switch (body.spec.token) {
    case 'good':
      return answer({ authenticated: true, user: { username: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } } });
    case 'scoped':
      return answer({ authenticated: true, user: { username: 'jane' }, audiences: ['orch'] });
    case 'elsewhere':
      return answer({ authenticated: true, user: { username: 'jane' }, audiences: ['vault'] });
    case 'denied':
      return answer({ authenticated: false });
    case 'was-revoked':
      return answer({ authenticated: false, error: 'token revoked' });
    case 'echo-me-back':
      return answer({ authenticated: false, error: 'unknown token echo-me-back' });
    case 'nameless':
      return answer({ authenticated: true, user: {} });
    default:
      return answer({ authenticated: false });
  }
}

function assertFailed(r: AuthenticationResult, pattern: RegExp): void {
  assert.equal(r.outcome, 'failed', JSON.stringify(r));
  if (r.outcome === 'failed') assert.match(r.reason, pattern);
}

describe('webhook token authenticator against a real HTTPS service', () => {
  let dir: string;
  let ca: TestCA;
  let clientCert: KeyPairPem;
  let mtls: TestHttpsServer;
  let bearer: TestHttpsServer;
  const open: WebhookTokenAuthenticator[] = [];

  function kubeconfig(server: string, user: string, cluster = 'certificate-authority: ca.crt'): string {
    const file = join(dir, `kubeconfig-${open.length}-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(
      file,
      `apiVersion: v1
kind: Config
clusters:
- name: hook
  cluster:
    server: ${server}
    ${cluster}
users:
- name: apiserver
  user:
${user}
contexts:
- name: webhook
  context: {cluster: hook, user: apiserver}
current-context: webhook
`,
    );
    return file;
  }

  function make(server: TestHttpsServer, opts: Partial<WebhookTokenOptions> = {}, user?: string): WebhookTokenAuthenticator {
    const u = user ?? (server === mtls ? '    client-certificate: client.crt\n    client-key: client.key' : '    token: hook-credential');
    const a = new WebhookTokenAuthenticator({ configFile: kubeconfig(`${server.url}/authenticate`, u), domain: defaultApiDomain, retryBackoff: fastRetry, ...opts });
    open.push(a);
    return a;
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-authn-'));
    ca = createTestCA('webhook-ca');
    const clientCA = createTestCA('webhook-client-ca');
    clientCert = clientCA.issue({ commonName: 'apiserver', usages: ['clientAuth'] });
    writeFileSync(join(dir, 'ca.crt'), ca.cert);
    writeFileSync(join(dir, 'client.crt'), clientCert.cert);
    writeFileSync(join(dir, 'client.key'), clientCert.key);
    const serving = issueLoopbackServerCert(ca);
    mtls = await startTestHttpsServer({ ...serving, clientCA: clientCA.cert, handler: (req, res) => (req.clientCN === 'apiserver' ? review(req, res) : sendJSON(res, 403, {})) });
    bearer = await startTestHttpsServer({
      ...serving,
      handler: (req, res) => (req.headers.authorization === 'Bearer hook-credential' ? review(req, res) : sendJSON(res, 401, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 })),
    });
  });

  after(async () => {
    for (const a of open) a.close();
    await mtls.close();
    await bearer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('with a client certificate: allowed tokens name the user; the review is a v1 TokenReview POST', async () => {
    const a = make(mtls);
    const r = await a.authenticateToken('good', []);
    assert.deepEqual(r, { outcome: 'authenticated', user: { name: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } } });
    const sent = mtls.requests.at(-1)!;
    assert.equal(sent.method, 'POST');
    assert.equal(sent.url, '/authenticate');
    assert.equal(sent.clientCN, 'apiserver');
    assert.match(String(sent.headers['content-type']), /^application\/json/);
    assert.equal(sent.headers.authorization, undefined);
    const body = JSON.parse(sent.body);
    assert.deepEqual({ apiVersion: body.apiVersion, kind: body.kind, spec: body.spec }, { apiVersion: V1, kind: 'TokenReview', spec: { token: 'good' } });
  });

  test('with a bearer token: denied tokens are not ours, status.error is the failure reason', async () => {
    const a = make(bearer);
    assert.equal((await a.authenticateToken('good', [])).outcome, 'authenticated');
    assert.equal(bearer.requests.at(-1)!.headers.authorization, 'Bearer hook-credential');
    assert.deepEqual(await a.authenticateToken('denied', []), { outcome: 'skipped' });
    assert.deepEqual(await a.authenticateToken('was-revoked', []), { outcome: 'failed', reason: 'token revoked' });
    assertFailed(await a.authenticateToken('echo-me-back', []), /^unknown token \[redacted\]$/);
    assertFailed(await a.authenticateToken('nameless', []), /without a username/);
  });

  test('the service refusing our credentials, or us refusing its certificate, fails without retry storms', async () => {
    const wrong = make(bearer, {}, '    token: not-the-credential');
    const before = bearer.requests.length;
    assertFailed(await wrong.authenticateToken('good', []), /^Unauthorized$/);
    assert.equal(bearer.requests.length, before + 1, '401 is not retried');
    const noCert = make(mtls, {}, '    token: hook-credential');
    assertFailed(await noCert.authenticateToken('good', []), /^Post "https:\/\/127\.0\.0\.1:\d+\/authenticate": /);
    const otherCA = createTestCA('untrusted');
    writeFileSync(join(dir, 'other.crt'), otherCA.cert);
    const untrusting = new WebhookTokenAuthenticator({
      configFile: kubeconfig(`${bearer.url}/authenticate`, '    token: hook-credential', 'certificate-authority: other.crt'),
      domain: defaultApiDomain,
      retryBackoff: fastRetry,
    });
    open.push(untrusting);
    assertFailed(await untrusting.authenticateToken('good', []), /certificate/);
  });

  test('audiences: sent in the review; the answer (or our API audiences) must meet them', async () => {
    const a = make(bearer, { apiAudiences: ['orch', 'https://api.example'] });
    assert.deepEqual(await a.authenticateToken('scoped', ['orch', 'x']), { outcome: 'authenticated', user: { name: 'jane', groups: [], extra: {} }, audiences: ['orch'] });
    assert.deepEqual(JSON.parse(bearer.requests.at(-1)!.body).spec, { token: 'scoped', audiences: ['orch', 'x'] });
    assert.deepEqual(await a.authenticateToken('elsewhere', ['orch']), { outcome: 'skipped' });
    assert.deepEqual(await a.authenticateToken('good', ['https://api.example']), {
      outcome: 'authenticated',
      user: { name: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } },
      audiences: ['https://api.example'],
    });
    assert.deepEqual(await a.authenticateToken('good', ['vault']), { outcome: 'skipped' }, 'no audiences in the answer: only ours count');
    assert.deepEqual(await make(bearer).authenticateToken('good', ['orch']), { outcome: 'skipped' }, 'no API audiences configured');
  });

  test('answers are cached (successes and denials), errors are not, and the TTL expires', async () => {
    let clock = 1_000_000;
    const a = make(bearer, { cacheTTLMs: 120_000, now: () => clock });
    const count = () => bearer.requests.length;
    const start = count();
    for (let i = 0; i < 3; i++) assert.equal((await a.authenticateToken('good', [])).outcome, 'authenticated');
    assert.equal(count(), start + 1);
    await Promise.all([a.authenticateToken('denied', []), a.authenticateToken('denied', []), a.authenticateToken('denied', [])]);
    await a.authenticateToken('denied', []);
    assert.equal(count(), start + 2, 'a denial is cached and concurrent lookups share one call');
    await a.authenticateToken('good', ['orch']);
    assert.equal(count(), start + 3, 'other audiences are another cache entry');
    await a.authenticateToken('was-revoked', []);
    await a.authenticateToken('was-revoked', []);
    assert.equal(count(), start + 5, 'status.error is an error: not cached');
    clock += 119_000;
    await a.authenticateToken('good', []);
    assert.equal(count(), start + 5);
    clock += 1_000;
    await a.authenticateToken('good', []);
    assert.equal(count(), start + 6, 'expired after the TTL');
  });

  test('v1beta1 sends and expects authentication.<domain>/v1beta1', async () => {
    const a = make(bearer, { version: 'v1beta1' });
    assert.equal((await a.authenticateToken('good', [])).outcome, 'authenticated');
    assert.equal(JSON.parse(bearer.requests.at(-1)!.body).apiVersion, 'authentication.orch.io/v1beta1');
    assert.throws(() => make(bearer, { version: 'v2' as never }), /unsupported authentication webhook version "v2"/);
  });

  describe('a misbehaving service', () => {
    let server: TestHttpsServer;
    before(async () => {
      server = await startTestHttpsServer({ ...issueLoopbackServerCert(ca), handler: review });
    });
    after(() => server.close());

    test('garbage JSON, wrong apiVersion or kind, malformed fields and oversized answers fail and are not cached', async () => {
      const a = make(server, { maxResponseBytes: 4096 });
      const cases: Array<[(req: TestRequest, res: ServerResponse) => void, RegExp]> = [
        [(_q, res) => sendJSON(res, 200, '{"kind": "TokenRev'), /^the webhook returned a response that is not valid JSON$/],
        [(_q, res) => sendJSON(res, 200, '[]'), /not a JSON object/],
        [(_q, res) => sendJSON(res, 200, { apiVersion: 'authentication.orch.io/v1beta1', kind: 'TokenReview', status: { authenticated: true, user: { username: 'x' } } }), /returned apiVersion "authentication.orch.io\/v1beta1" kind "TokenReview", expected apiVersion "authentication.orch.io\/v1"/],
        [(_q, res) => sendJSON(res, 200, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', status: { authenticated: true, user: { username: 'x' } } }), /expected apiVersion "authentication.orch.io\/v1"/],
        [(_q, res) => sendJSON(res, 200, { apiVersion: V1, kind: 'Status', status: 'Success' }), /kind "Status"/],
        [(_q, res) => sendJSON(res, 200, { apiVersion: V1, kind: 'TokenReview', status: { authenticated: 'yes' } }), /status.authenticated has the wrong type/],
        [(_q, res) => sendJSON(res, 200, { apiVersion: V1, kind: 'TokenReview', status: { authenticated: true, user: { username: 'x', groups: [1] } } }), /status.user.groups has the wrong type/],
        [(_q, res) => sendJSON(res, 200, { apiVersion: V1, kind: 'TokenReview', status: { authenticated: true, user: { username: 'x', groups: ['g'.repeat(8192)] } } }), /exceeds 4096 bytes/],
      ];
      for (const [handler, pattern] of cases) {
        server.setHandler(handler);
        const before = server.requests.length;
        assertFailed(await a.authenticateToken('good', []), pattern);
        assertFailed(await a.authenticateToken('good', []), pattern);
        assert.equal(server.requests.length, before + 2, `not retried, not cached: ${pattern}`);
      }
    });

    test('500s are retried with backoff; persistent ones fail after the last attempt', async () => {
      const a = make(server);
      let failures = 2;
      server.setHandler((req, res) => {
        if (failures-- > 0) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('database is on fire');
          return;
        }
        review(req, res);
      });
      const before = server.requests.length;
      assert.equal((await a.authenticateToken('good', [])).outcome, 'authenticated');
      assert.equal(server.requests.length, before + 3);

      server.setHandler((_q, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('still burning');
      });
      const again = server.requests.length;
      assertFailed(await a.authenticateToken('other', []), /^an error on the server \("still burning"\) has prevented the request from succeeding$/);
      assert.equal(server.requests.length, again + fastRetry.steps);
    });

    test('429 and 504 are retried; 503 only with Retry-After; other errors are not', async () => {
      const a = make(server);
      const attempts = async (status: number, headers: Record<string, string> = {}) => {
        server.setHandler((_q, res) => sendJSON(res, status, {}, headers));
        const before = server.requests.length;
        const r = await a.authenticateToken(`t-${status}-${Math.random()}`, []);
        assert.equal(r.outcome, 'failed');
        return server.requests.length - before;
      };
      assert.equal(await attempts(429), fastRetry.steps);
      assert.equal(await attempts(504), fastRetry.steps);
      assert.equal(await attempts(503), 1);
      assert.equal(await attempts(503, { 'retry-after': '0' }), 1);
      assert.equal(await attempts(503, { 'retry-after': '1' }), fastRetry.steps);
      assert.equal(await attempts(400), 1);
      assert.equal(await attempts(404), 1);
      server.setHandler((_q, res) => sendJSON(res, 500, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'InternalError', message: 'etcd unavailable', code: 500 }));
      assertFailed(await a.authenticateToken('status', []), /^etcd unavailable$/);
    });

    test('a service that does not answer times out (401, not a hang), and the timeout is not retried', async () => {
      const a = make(server, { requestTimeoutMs: 150 });
      server.setHandler(() => undefined);
      const before = server.requests.length;
      const t0 = Date.now();
      assertFailed(await a.authenticateToken('good', []), /context deadline exceeded \(Client\.Timeout exceeded while awaiting headers\)/);
      assert.ok(Date.now() - t0 < 5000);
      assert.equal(server.requests.length, before + 1);
      server.setHandler((_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"apiVersion":');
      });
      assertFailed(await a.authenticateToken('good2', []), /Client\.Timeout exceeded while reading body/);
      server.setHandler(review);
    });

    test('the token never appears in a failure reason, even when the service echoes it', async () => {
      const a = make(server);
      const token = 'very-secret-token-value';
      const echo: Array<(req: TestRequest, res: ServerResponse) => void> = [
        (_q, res) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`bad token ${token}`);
        },
        (_q, res) => sendJSON(res, 401, { kind: 'Status', message: `token ${token} rejected` }),
        (_q, res) => sendJSON(res, 200, `{"token": "${token}"`),
        (_q, res) => sendJSON(res, 200, { apiVersion: V1, kind: 'TokenReview', status: { authenticated: false, error: `no such token ${token}` } }),
      ];
      for (const h of echo) {
        server.setHandler(h);
        const r = await a.authenticateToken(token, []);
        assert.equal(r.outcome, 'failed');
        if (r.outcome === 'failed') assert.ok(!r.reason.includes(token), r.reason);
      }
      server.setHandler(review);
    });

    test('an unreachable service fails at once (connection refused is not retried)', async () => {
      const gone = await startTestHttpsServer({ ...issueLoopbackServerCert(ca), handler: review });
      const a = make(gone);
      await gone.close();
      const t0 = Date.now();
      assertFailed(await a.authenticateToken('good', []), /ECONNREFUSED/);
      assert.ok(Date.now() - t0 < 2000);
    });
  });
});
