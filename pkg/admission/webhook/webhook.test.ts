// The two webhook plug-ins against a real HTTPS webhook server with its own CA.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { sendJSON, startTestHttpsServer, type TestHttpsServer, type TestRequest } from '../../authentication/testing/https-server.js';
import { createTestCA, issueLoopbackServerCert, type TestCA } from '../../authentication/testing/pki.js';
import { StatusError } from '../../runtime/errors.js';
import { AdmissionChain } from '../chain.js';
import type { AdmissionObject, AdmissionObserver, Attributes, MutationInterface, PluginDeps } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { MutatingWebhookPlugin } from './mutating.js';
import type { Webhook } from './types.js';
import { ValidatingWebhookPlugin } from './validating.js';

type Review = { apiVersion: string; request: { uid: string; object: AdmissionObject | null; dryRun: boolean; [k: string]: unknown } };
type Answer = (review: Review, req: TestRequest, res: ServerResponse) => void;

let ca: TestCA;
let server: TestHttpsServer;
let answer: Answer;

const allow = (review: Review, extra: Record<string, unknown> = {}) => ({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, ...extra } });
const jsonPatch = (ops: unknown[]) => ({ patch: Buffer.from(JSON.stringify(ops)).toString('base64'), patchType: 'JSONPatch' });

before(async () => {
  ca = createTestCA('webhook-ca');
  const cert = issueLoopbackServerCert(ca);
  server = await startTestHttpsServer({
    ...cert,
    handler: (req, res) => answer(JSON.parse(req.body) as Review, req, res),
  });
});
after(() => server.close());

const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));

function hook(name: string, path: string, over: Partial<Webhook> = {}): Webhook {
  return {
    name,
    clientConfig: { url: `${server.url}${path}`, caBundle: Buffer.from(ca.cert).toString('base64') },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
    failurePolicy: 'Fail', matchPolicy: 'Equivalent', sideEffects: 'None', timeoutSeconds: 10, admissionReviewVersions: ['v1'],
    namespaceSelector: {}, objectSelector: {},
    ...over,
  };
}

function deps(kind: 'mutating' | 'validating', webhooks: Webhook[], extra: Record<string, AdmissionObject[]> = {}, metrics?: AdmissionObserver): PluginDeps {
  const d = staticDeps({
    [`admissionregistration.orch.io/${kind}webhookconfigurations`]: [{ metadata: { name: 'cfg', resourceVersion: '1' }, webhooks }],
    '/namespaces': [{ metadata: { name: 'ns', labels: { team: 'a' } } }],
    ...extra,
  });
  return metrics ? { ...d, metrics } : d;
}

const pod = (labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', labels }, spec: {} });

test('a mutating webhook gets an AdmissionReview v1 with ?timeout, and its JSON patch, warnings and annotations are applied', async () => {
  answer = (review, _req, res) => sendJSON(res, 200, allow(review, { ...jsonPatch([{ path: '/metadata/labels/added', op: 'add', value: 'yes' }]), warnings: ['be careful'], auditAnnotations: { why: 'because' } }));
  const warnings: string[] = [];
  const plugin = new MutatingWebhookPlugin(undefined, deps('mutating', [hook('m.example.com', '/mutate')]));
  const attrs = podAttrs({ object: pod(), name: 'p', warn: (w) => warnings.push(w) });
  await plugin.admit(attrs);
  assert.deepEqual((attrs.object?.['metadata'] as { labels: unknown }).labels, { added: 'yes' });
  assert.deepEqual(warnings, ['be careful']);
  const req = calls('/mutate').at(-1)!;
  assert.equal(req.url, '/mutate?timeout=10s');
  assert.equal(req.headers['content-type'], 'application/json');
  const sent = JSON.parse(req.body) as Review;
  assert.equal(sent.apiVersion, 'admission.orch.io/v1');
  assert.equal(sent.request['operation'], 'CREATE');
  assert.equal(sent.request['namespace'], 'ns');
  assert.deepEqual(sent.request['userInfo'], { username: 'alice', groups: ['system:authenticated'] });
  assert.deepEqual(attrs.annotations('Metadata'), {
    'm.example.com/why': 'because',
    'mutation.webhook.admission.orch.io/round_0_index_0': '{"configuration":"cfg","webhook":"m.example.com","mutated":true}',
  });
  assert.equal(attrs.annotations('Request')['patch.webhook.admission.orch.io/round_0_index_0'],
    '{"configuration":"cfg","webhook":"m.example.com","patch":[{"op":"add","path":"/metadata/labels/added","value":"yes"}],"patchType":"JSONPatch"}');
  assert.equal(attrs.reinvocation.shouldReinvoke(), true, 'a change asks for the second pass');
});

test('reinvocation: built-in plug-ins run again after a webhook change, and an IfNeeded webhook is called again when a later one changed the object', async () => {
  answer = (review, req, res) => {
    const labels = ((review.request.object?.['metadata'] as { labels?: Record<string, string> }).labels) ?? {};
    if (req.url.startsWith('/first') && !labels['first']) return sendJSON(res, 200, allow(review, jsonPatch([{ op: 'add', path: '/metadata/labels/first', value: '1' }])));
    if (req.url.startsWith('/second') && !labels['second']) return sendJSON(res, 200, allow(review, jsonPatch([{ op: 'add', path: '/metadata/labels/second', value: '1' }])));
    sendJSON(res, 200, allow(review));
  };
  const before = { first: calls('/first').length, second: calls('/second').length };
  let builtInRuns = 0;
  const builtIn: MutationInterface = { name: 'BuiltIn', handles: () => true, admit: () => { builtInRuns++; } };
  const plugin = new MutatingWebhookPlugin(undefined, deps('mutating', [hook('first', '/first', { reinvocationPolicy: 'IfNeeded' }), hook('second', '/second')]));
  const attrs = podAttrs({ object: pod(), name: 'p' });
  await new AdmissionChain([builtIn, plugin]).admit(attrs);
  assert.equal(builtInRuns, 2);
  assert.equal(calls('/first').length - before.first, 2, 'first is called again: second changed the object after it');
  assert.equal(calls('/second').length - before.second, 1, 'second (Never) is not');
  assert.equal(attrs.annotations()['mutation.webhook.admission.orch.io/round_1_index_0'], '{"configuration":"cfg","webhook":"first","mutated":false}');
});

test('a validating denial returns the webhook\'s code and message; a code below 400 becomes 400', async () => {
  answer = (review, _req, res) => sendJSON(res, 200, { ...allow(review), response: { uid: review.request.uid, allowed: false, status: { code: 409, message: 'no way', reason: 'Conflict' } } });
  const seen: string[] = [];
  const metrics: AdmissionObserver = {
    step: () => {}, controller: () => {}, webhookFailOpen: () => {},
    webhook: (name, type, op, rejected, code) => seen.push(`request ${name} ${type} ${op} ${rejected} ${code}`),
    webhookRejection: (name, type, op, errorType, code) => seen.push(`rejection ${name} ${type} ${op} ${errorType} ${code}`),
  };
  const plugin = new ValidatingWebhookPlugin(undefined, deps('validating', [hook('v.example.com', '/validate')], {}, metrics));
  await assert.rejects(plugin.validate(podAttrs({ object: pod(), name: 'p' })), (e: StatusError) => {
    assert.equal(e.code, 409);
    assert.equal(e.reason, 'Conflict');
    assert.equal(e.status.message, 'admission webhook "v.example.com" denied the request: no way');
    return true;
  });
  assert.deepEqual(seen, ['rejection v.example.com validating CREATE no_error 409', 'request v.example.com validating CREATE true 409']);
  answer = (review, _req, res) => sendJSON(res, 200, { ...allow(review), response: { uid: review.request.uid, allowed: false, status: { code: 200 } } });
  await assert.rejects(plugin.validate(podAttrs({ object: pod(), name: 'p' })), (e: StatusError) => e.code === 400 && e.status.message === 'admission webhook "v.example.com" denied the request without explanation');
});

test('garbage, a non-200, a wrong uid and a timeout are call errors: Fail rejects with 500, Ignore lets the request through', async () => {
  const cases: [string, Answer, RegExp][] = [
    ['garbage', (_r, _q, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('not json'); }, /failed calling webhook "h": failed to call webhook: couldn't get version\/kind; json parse error/],
    ['non-200', (_r, _q, res) => { res.writeHead(500, { 'content-type': 'text/plain' }); res.end('boom'); }, /failed calling webhook "h": failed to call webhook: an error on the server \("boom"\) has prevented the request from succeeding/],
    ['wrong uid', (r, _q, res) => sendJSON(res, 200, { ...allow(r), response: { uid: 'other', allowed: true } }), /failed calling webhook "h": received invalid webhook response: expected response.uid=/],
  ];
  for (const [what, a, message] of cases) {
    answer = a;
    const fail = new ValidatingWebhookPlugin(undefined, deps('validating', [hook('h', '/v')]));
    await assert.rejects(fail.validate(podAttrs({ object: pod(), name: 'p' })), (e: StatusError) => {
      assert.equal(e.code, 500, what);
      assert.match(e.status.message ?? '', /^Internal error occurred: /);
      assert.match(e.status.message ?? '', message);
      return true;
    });
    const ignore = new ValidatingWebhookPlugin(undefined, deps('validating', [hook('h', '/v', { failurePolicy: 'Ignore' })]));
    const attrs = podAttrs({ object: pod(), name: 'p' });
    await ignore.validate(attrs);
    assert.equal(attrs.annotations()['failed-open.validating.webhook.admission.orch.io/round_0_index_0'], 'h', what);
  }
  answer = () => { /* never answers */ };
  const slow = new MutatingWebhookPlugin(undefined, deps('mutating', [hook('slow', '/slow', { timeoutSeconds: 1 })]));
  const started = Date.now();
  await assert.rejects(slow.admit(podAttrs({ object: pod(), name: 'p' })), (e: StatusError) =>
    e.code === 500 && (e.status.message ?? '').includes(`failed calling webhook "slow": failed to call webhook: Post "${server.url}/slow?timeout=1s": context deadline exceeded`));
  assert.ok(Date.now() - started < 5000);
});

test('dry run: a webhook with side effects fails the request whatever its failurePolicy; NoneOnDryRun is called with dryRun true', async () => {
  answer = (review, _req, res) => sendJSON(res, 200, allow(review));
  const some = new ValidatingWebhookPlugin(undefined, deps('validating', [hook('fx', '/fx', { sideEffects: 'Some', failurePolicy: 'Ignore' })]));
  await assert.rejects(some.validate(podAttrs({ object: pod(), name: 'p', dryRun: true })), (e: StatusError) =>
    e.code === 400 && e.reason === 'BadRequest' && e.status.message === 'admission webhook "fx" does not support dry run');
  const none = new ValidatingWebhookPlugin(undefined, deps('validating', [hook('nofx', '/nofx', { sideEffects: 'NoneOnDryRun' })]));
  await none.validate(podAttrs({ object: pod(), name: 'p', dryRun: true }));
  assert.equal((JSON.parse(calls('/nofx').at(-1)!.body) as Review).request.dryRun, true);
});

test('v1beta1 is negotiated from admissionReviewVersions and its answer is not checked for the uid', async () => {
  answer = (_review, _req, res) => sendJSON(res, 200, { response: { allowed: false } });
  const plugin = new ValidatingWebhookPlugin(undefined, deps('validating', [hook('beta', '/beta', { admissionReviewVersions: ['v2', 'v1beta1'] })]));
  await assert.rejects(plugin.validate(podAttrs({ object: pod(), name: 'p' })), (e: StatusError) => e.code === 400);
  assert.equal((JSON.parse(calls('/beta').at(-1)!.body) as Review).apiVersion, 'admission.orch.io/v1beta1');
});

test('namespace and object selectors decide whether the webhook is called', async () => {
  answer = (review, _req, res) => sendJSON(res, 200, allow(review));
  const count = () => calls('/sel').length;
  const run = async (over: Partial<Webhook>, attrs: Attributes) => {
    const before = count();
    await new ValidatingWebhookPlugin(undefined, deps('validating', [hook('sel', '/sel', over)])).validate(attrs);
    return count() - before;
  };
  assert.equal(await run({ namespaceSelector: { matchLabels: { team: 'a' } } }, podAttrs({ object: pod(), name: 'p' })), 1);
  assert.equal(await run({ namespaceSelector: { matchLabels: { team: 'b' } } }, podAttrs({ object: pod(), name: 'p' })), 0);
  assert.equal(await run({ objectSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] } }, podAttrs({ object: pod({ app: 'web' }), name: 'p' })), 1);
  assert.equal(await run({ objectSelector: { matchLabels: { app: 'web' } } }, podAttrs({ operation: 'UPDATE', object: pod(), oldObject: pod({ app: 'web' }), name: 'p' })), 1, 'the old object counts');
  assert.equal(await run({ objectSelector: { matchLabels: { app: 'web' } } }, podAttrs({ object: pod({ app: 'db' }), name: 'p' })), 0);
  await assert.rejects(run({ namespaceSelector: { matchLabels: { team: 'a' } } }, podAttrs({ object: pod(), name: 'p', namespace: 'gone' })), (e: StatusError) => e.code === 404 && e.status.message === 'namespaces "gone" not found');
});

test('a service reference is called at an endpoint of its Endpoints, verified as <svc>.<ns>.svc', async () => {
  const svcCert = ca.issue({ commonName: 'hook.team.svc', hosts: ['hook.team.svc'], usages: ['serverAuth'] });
  const svcServer = await startTestHttpsServer({ ...svcCert, handler: (req, res) => sendJSON(res, 200, allow(JSON.parse(req.body) as Review)) });
  try {
    const port = Number(new URL(svcServer.url).port);
    const webhooks = [hook('svc', '', { clientConfig: { service: { namespace: 'team', name: 'hook', path: '/check', port: 8443 }, caBundle: Buffer.from(ca.cert).toString('base64') } })];
    const plugin = new ValidatingWebhookPlugin(undefined, deps('validating', webhooks, {
      '/services': [{ metadata: { name: 'hook', namespace: 'team' }, spec: { type: 'ClusterIP', ports: [{ name: 'https', port: 8443 }] } }],
      '/endpoints': [{ metadata: { name: 'hook', namespace: 'team' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] }],
    }));
    await plugin.validate(podAttrs({ object: pod(), name: 'p' }));
    assert.equal(svcServer.requests.length, 1);
    assert.equal(svcServer.requests[0]!.url, '/check?timeout=10s');
    assert.equal(svcServer.requests[0]!.headers.host, 'hook.team.svc:8443');
    const missing = new ValidatingWebhookPlugin(undefined, deps('validating', webhooks));
    await assert.rejects(missing.validate(podAttrs({ object: pod(), name: 'p' })), (e: StatusError) =>
      e.code === 500 && (e.status.message ?? '').includes('failed calling webhook "svc": failed to call webhook: Post "https://hook.team.svc:8443/check?timeout=10s": service "hook" not found'));
  } finally {
    await svcServer.close();
  }
});

test('the webhook configuration kinds are never sent to webhooks', async () => {
  answer = (review, _req, res) => sendJSON(res, 200, { ...allow(review), response: { uid: review.request.uid, allowed: false } });
  const plugin = new ValidatingWebhookPlugin(undefined, deps('validating', [hook('all', '/all', { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }] })]));
  await plugin.validate(podAttrs({
    kind: { group: 'admissionregistration.orch.io', version: 'v1', kind: 'ValidatingWebhookConfiguration' },
    resource: { group: 'admissionregistration.orch.io', version: 'v1', resource: 'validatingwebhookconfigurations' },
    namespace: '', object: { metadata: { name: 'x' } },
  }));
});
