import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../../api/domain.js';
import { sendJSON, startTestHttpsServer, type TestHttpsServer, type TestRequest } from '../../authentication/testing/https-server.js';
import { createTestCA, issueLoopbackServerCert, type TestCA } from '../../authentication/testing/pki.js';
import type { UserInfo } from '../../runtime/user.js';
import { nonResourceAttributes, resourceAttributes } from '../attributes.js';
import { buildAuthorizationChain, defaultAuthorizationOptions } from '../modes.js';
import { localAnswerCaches } from '../../util/cache/answer-cache.js';
import { bothAllowedAndDenied, noRuleResolution, WebhookAuthorizer, webhookAuthorizerFromOptions, type WebhookAuthorizerOptions } from './authorizer.js';

const fastRetry = { initialDelayMs: 5, factor: 1.5, jitter: 0.2, steps: 5 };
const V1 = 'authorization.orch.io/v1';
const jane: UserInfo = { name: 'jane', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } };
const get = (resource: string, extra: object = {}) => resourceAttributes(jane, { verb: 'get', apiVersion: 'v1', resource, namespace: 'n', ...extra });

/** A policy service: decides by the resource (or path) it is asked about. */
function policy(req: TestRequest, res: ServerResponse): void {
  const body = JSON.parse(req.body) as { apiVersion: string; spec: { resourceAttributes?: { resource?: string }; nonResourceAttributes?: { path?: string } } };
  const answer = (status: object) => sendJSON(res, 200, { apiVersion: body.apiVersion, kind: 'SubjectAccessReview', status });
  const what = body.spec.resourceAttributes?.resource ?? body.spec.nonResourceAttributes?.path;
  switch (what) {
    case 'pods':
    case '/healthz':
      return answer({ allowed: true, reason: 'pods are fine' });
    case 'secrets':
      return answer({ allowed: false, denied: true, reason: 'no secrets for you' });
    case 'both':
      return answer({ allowed: true, denied: true, reason: 'confused' });
    case 'evaluated':
      return answer({ allowed: false, reason: 'could not tell', evaluationError: 'rule 3 failed' });
    default:
      return answer({ allowed: false });
  }
}

describe('webhook authorizer against a real HTTPS service', () => {
  let dir: string;
  let ca: TestCA;
  let server: TestHttpsServer;
  const open: WebhookAuthorizer[] = [];

  function make(opts: Partial<WebhookAuthorizerOptions> = {}, url = `${server.url}/authorize`): WebhookAuthorizer {
    const file = join(dir, `kubeconfig-${open.length}.yaml`);
    writeFileSync(
      file,
      `apiVersion: v1
kind: Config
clusters:
- name: authz
  cluster: {server: "${url}", certificate-authority: ca.crt}
users:
- name: apiserver
  user: {token: hook-credential}
contexts:
- name: webhook
  context: {cluster: authz, user: apiserver}
current-context: webhook
`,
    );
    const a = new WebhookAuthorizer({ configFile: file, domain: defaultApiDomain, retryBackoff: fastRetry, ...opts });
    open.push(a);
    return a;
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-authz-'));
    ca = createTestCA('authz-ca');
    writeFileSync(join(dir, 'ca.crt'), ca.cert);
    server = await startTestHttpsServer({ ...issueLoopbackServerCert(ca), handler: policy });
  });

  after(async () => {
    for (const a of open) a.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('allowed, denied, neither, and both: decisions with the service\'s reason; the review is a v1 POST with our credentials', async () => {
    const a = make();
    assert.deepEqual(await a.authorize(get('pods')), { decision: 'allow', reason: 'pods are fine' });
    const sent = server.requests.at(-1)!;
    assert.equal(sent.method, 'POST');
    assert.equal(sent.url, '/authorize');
    assert.equal(sent.headers.authorization, 'Bearer hook-credential');
    assert.match(String(sent.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(sent.body), {
      kind: 'SubjectAccessReview',
      apiVersion: V1,
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: { namespace: 'n', verb: 'get', version: 'v1', resource: 'pods' },
        user: 'jane', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] }, uid: 'u-1',
      },
      status: { allowed: false },
    });
    assert.deepEqual(await a.authorize(get('secrets')), { decision: 'deny', reason: 'no secrets for you' });
    assert.deepEqual(await a.authorize(get('configmaps')), { decision: 'noOpinion', reason: '' });
    assert.deepEqual(await a.authorize(get('both')), { decision: 'deny', reason: 'confused', evaluationError: bothAllowedAndDenied });
    assert.deepEqual(await a.authorize(get('evaluated')), { decision: 'noOpinion', reason: 'could not tell' }, "the service's evaluationError is not ours, as upstream");
    assert.deepEqual(await a.authorize(nonResourceAttributes(jane, 'get', '/healthz')), { decision: 'allow', reason: 'pods are fine' });
    assert.deepEqual(JSON.parse(server.requests.at(-1)!.body).spec.nonResourceAttributes, { path: '/healthz', verb: 'get' });
  });

  test('v1beta1 and another domain: the review\'s apiVersion and group field follow', async () => {
    const a = make({ version: 'v1beta1', domain: apiDomain('k8s.io') });
    assert.equal((await a.authorize(get('pods'))).decision, 'allow');
    const body = JSON.parse(server.requests.at(-1)!.body);
    assert.equal(body.apiVersion, 'authorization.k8s.io/v1beta1');
    assert.deepEqual(body.spec.group, ['dev', 'system:authenticated']);
    assert.equal(body.spec.groups, undefined);
    assert.throws(() => make({ version: 'v2' }), { message: 'unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"' });
  });

  test('cache: allowed answers for the authorized TTL, the rest for the unauthorized TTL, keyed by the whole review', async () => {
    let clock = 1_000_000;
    const a = make({ authorizedTTLMs: 300_000, unauthorizedTTLMs: 30_000, now: () => clock });
    const calls = () => server.requests.length;
    const start = calls();
    for (let i = 0; i < 3; i++) assert.equal((await a.authorize(get('pods'))).decision, 'allow');
    for (let i = 0; i < 3; i++) assert.equal((await a.authorize(get('secrets'))).decision, 'deny');
    assert.equal(calls(), start + 2);
    await a.authorize(get('pods', { name: 'p1' }));
    await a.authorize(resourceAttributes({ ...jane, groups: ['dev'] }, { verb: 'get', apiVersion: 'v1', resource: 'pods', namespace: 'n' }));
    await a.authorize(resourceAttributes({ ...jane, extra: {} }, { verb: 'get', apiVersion: 'v1', resource: 'pods', namespace: 'n' }));
    assert.equal(calls(), start + 5, 'a different name, groups or extra is another review');
    clock += 30_000;
    await a.authorize(get('pods'));
    assert.equal(calls(), start + 5, 'allowed answers are still cached');
    await a.authorize(get('secrets'));
    assert.equal(calls(), start + 6, 'the denial expired after 30s');
    clock += 270_000;
    await a.authorize(get('pods'));
    assert.equal(calls(), start + 7, 'the allowance expired after 5m');

    const none = make({ authorizedTTLMs: 0, unauthorizedTTLMs: 0 });
    const before = calls();
    await none.authorize(get('pods'));
    await none.authorize(get('pods'));
    assert.equal(calls(), before + 2, 'TTLs of 0 cache nothing');

    const huge = get('pods', { name: 'x'.repeat(10_000) });
    const b2 = calls();
    await a.authorize(huge);
    await a.authorize(huge);
    assert.equal(calls(), b2 + 2, 'oversized attributes are not cached');
  });

  test('built from the flags: config file, version and TTLs', async () => {
    make(); // writes a kubeconfig
    const file = join(dir, `kubeconfig-${open.length - 1}.yaml`);
    const a = webhookAuthorizerFromOptions({ ...defaultAuthorizationOptions(), modes: ['Webhook'], webhookConfigFile: file, webhookVersion: 'v1beta1' }, defaultApiDomain, localAnswerCaches);
    open.push(a);
    assert.equal((await a.authorize(get('pods'))).decision, 'allow');
    assert.equal(JSON.parse(server.requests.at(-1)!.body).apiVersion, 'authorization.orch.io/v1beta1');
    assert.throws(() => webhookAuthorizerFromOptions({ ...defaultAuthorizationOptions(), modes: ['Webhook'] }, defaultApiDomain, localAnswerCaches), /authorization config file not passed/);
  });

  test('rule listing is not supported: incomplete, with upstream\'s error', async () => {
    assert.deepEqual(await make().rulesFor(jane, 'n'), { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: noRuleResolution });
  });

  describe('failures: no opinion with the error (failure policy NoOpinion), never cached', () => {
    let flaky: TestHttpsServer;
    before(async () => {
      flaky = await startTestHttpsServer({ ...issueLoopbackServerCert(ca), handler: policy });
    });
    after(() => flaky.close());

    const fails = async (a: WebhookAuthorizer, pattern: RegExp, resource = 'pods') => {
      const d = await a.authorize(get(resource));
      assert.equal(d.decision, 'noOpinion', JSON.stringify(d));
      assert.equal(d.reason, '');
      assert.match(d.evaluationError ?? '', pattern);
    };

    test('500s are retried with backoff; a persistent one is the error after the last attempt', async () => {
      const a = make({}, `${flaky.url}/authorize`);
      let failures = 2;
      flaky.setHandler((req, res) => {
        if (failures-- > 0) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('policy engine down');
          return;
        }
        policy(req, res);
      });
      const start = flaky.requests.length;
      assert.equal((await a.authorize(get('pods'))).decision, 'allow');
      assert.equal(flaky.requests.length, start + 3);
      flaky.setHandler((_q, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('still down');
      });
      const again = flaky.requests.length;
      await fails(a, /^an error on the server \("still down"\) has prevented the request from succeeding$/, 'secrets');
      assert.equal(flaky.requests.length, again + fastRetry.steps);
      await fails(a, /still down/, 'secrets');
      assert.equal(flaky.requests.length, again + 2 * fastRetry.steps, 'errors are not cached');
    });

    test('non-retryable statuses, bad answers and timeouts fail at once', async () => {
      const a = make({ requestTimeoutMs: 150, maxResponseBytes: 2048 }, `${flaky.url}/authorize`);
      const cases: Array<[(req: TestRequest, res: ServerResponse) => void, RegExp]> = [
        [(_q, res) => sendJSON(res, 403, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'who are you', reason: 'Forbidden', code: 403 }), /^who are you$/],
        [(_q, res) => sendJSON(res, 404, {}), /could not find the requested resource/],
        [(_q, res) => sendJSON(res, 200, '{"status": {"allowed": tru'), /not valid JSON/],
        [(_q, res) => sendJSON(res, 200, { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', status: {} }), /expected a SubjectAccessReview of authorization.orch.io/],
        [(_q, res) => sendJSON(res, 200, { apiVersion: V1, kind: 'SubjectAccessReview', status: { allowed: 1 } }), /status.allowed of type bool/],
        [(_q, res) => sendJSON(res, 200, { apiVersion: V1, kind: 'SubjectAccessReview', status: { allowed: true, reason: 'r'.repeat(4096) } }), /exceeds 2048 bytes/],
        [() => undefined, /context deadline exceeded \(Client\.Timeout exceeded while awaiting headers\)/],
      ];
      for (const [handler, pattern] of cases) {
        flaky.setHandler(handler);
        const start = flaky.requests.length;
        await fails(a, pattern);
        assert.equal(flaky.requests.length, start + 1, `not retried: ${pattern}`);
      }
      flaky.setHandler(policy);
    });

    test('an unreachable service fails fast; later modes still decide, and the error reaches the union only if none does', async () => {
      const gone = await startTestHttpsServer({ ...issueLoopbackServerCert(ca), handler: policy });
      const url = `${gone.url}/authorize`;
      await gone.close();
      const t0 = Date.now();
      await fails(make({}, url), /ECONNREFUSED/);
      assert.ok(Date.now() - t0 < 2000);

      const hook = () => make({}, url);
      const allowAfter = buildAuthorizationChain(['Webhook', 'AlwaysAllow'], { Webhook: hook });
      assert.deepEqual(await allowAfter.authorizer.authorize(get('pods')), { decision: 'allow', reason: '' });
      const nobody = buildAuthorizationChain(['Webhook', 'AlwaysDeny'], { Webhook: hook });
      const d = await nobody.authorizer.authorize(get('pods'));
      assert.equal(d.decision, 'noOpinion');
      assert.equal(d.reason, 'Everything is forbidden.');
      assert.match(d.evaluationError ?? '', /ECONNREFUSED/);
      assert.deepEqual((await nobody.ruleResolver.rulesFor(jane, 'n')).evaluationError, noRuleResolution);
    });
  });
});
