// Admission webhooks through the real server, called over HTTPS at a real webhook server with its
// own CA: each matching dimension (operations, groups, versions, resources and sub-resource
// patterns, scope, namespace and object selectors, matchPolicy with conversion), a mutating chain
// with reinvocation and re-validation, call failures under both failure policies, dry run,
// v1beta1, service references, warnings, denial codes and the webhook metrics on /metrics.
// Every test isolates its webhooks with a namespace selector (or object labels) of its own, and
// waits for its configurations to be picked up with a dry-run probe before it asserts anything.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import {
  configurationsPath, createConfiguration, denied, patching, putLoopbackEndpoints, putStoredObject, startAdmissionWebhookServer,
  type AdmissionWebhookServer, type ReviewAnswer, type WebhookKind,
} from './framework/admission-webhook.js';
import { pollUntil } from './framework/authentication.js';
import type { Response } from './framework/client.js';

describe('admission webhooks', () => {
  let t: TestServer;
  let hooks: AdmissionWebhookServer;
  let domain: string;

  before(async () => {
    hooks = await startAdmissionWebhookServer();
    t = await startTestServer();
    domain = t.options.apiDomain;
  });
  after(async () => {
    await t?.stop();
    await hooks?.close();
  });

  const url = (path: string) => ({ url: `${hooks.url}${path}`, caBundle: hooks.caBundle });
  /** A webhook `<name>.hooks.test` (names must be domains) answering at path /<name>. */
  const webhook = (name: string, over: Record<string, unknown> = {}) => ({
    name: `${name}.hooks.test`,
    clientConfig: url(`/${name}`),
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...over,
  });
  /** A webhook that selects only the probe configmaps of `suite`, to learn when its configuration is in effect. */
  const probe = (suite: string) => webhook(`probe-${suite}`, { objectSelector: { matchLabels: { probe: suite } } });
  const inNamespace = (ns: string) => ({ namespaceSelector: { matchLabels: { 'webhook-suite': ns } } });

  async function namespace(name: string, labels: Record<string, string> = {}): Promise<void> {
    const r = await t.client.post('/api/v1/namespaces', { metadata: { name, labels: { 'webhook-suite': name, ...labels } } });
    assert.equal(r.status, 201, r.text);
  }

  /** Creates the configuration with a probe webhook added, and waits until the server calls it. */
  async function configure(kind: WebhookKind, name: string, webhooks: Record<string, unknown>[]): Promise<void> {
    await createConfiguration(t.client, domain, kind, name, [...webhooks, probe(name)]);
    await pollUntil(
      () => t.client.post('/api/v1/namespaces/default/configmaps?dryRun=All', { metadata: { generateName: 'probe-', labels: { probe: name } } }),
      () => hooks.reviews(`/probe-${name}`).length > 0,
      `configuration ${name} to be in effect`,
    );
  }

  /** A webhook's denial as the client sees it: the code, no reason unless the webhook gave one, and the prefixed message. */
  function assertDenied(r: Response, code: number, message: string): void {
    assert.equal(r.status, code, r.text);
    assert.equal(r.body.kind, 'Status');
    assert.equal(r.body.status, 'Failure');
    assert.equal(r.body.code, code);
    assert.equal(r.body.message, message);
  }

  const putStored = (key: string, obj: Record<string, unknown>) => putStoredObject(t.etcd.endpoint, key, obj);

  const seen = (name: string) => hooks.reviews(`/${name}`).map((r) => `${r.request.operation} ${r.request.resource.resource}${r.request.subResource ? `/${r.request.subResource}` : ''}`);
  const configmap = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}) => ({ metadata: { name, labels }, data });

  test('rules: operations, API groups and versions, resources with sub-resource patterns, and scope', async () => {
    const ns = 'wh-match';
    await namespace(ns);
    const rule = (resources: string[], over: Record<string, unknown> = {}) => ({ operations: ['*'], apiGroups: ['apps'], apiVersions: ['v1'], resources, ...over });
    const matrix: Record<string, Record<string, unknown>> = {
      'create-only': rule(['deployments'], { operations: ['CREATE'] }),
      'star': rule(['*']),
      'star-star': rule(['*/*']),
      'deployments-sub': rule(['deployments/*']),
      'star-status': rule(['*/status']),
      'scale-only': rule(['deployments/scale'], { operations: ['UPDATE'] }),
      'other-group': rule(['*'], { apiGroups: ['batch'] }),
      'other-version': rule(['*'], { apiVersions: ['v2'] }),
      'cluster-scope': rule(['*/*'], { apiGroups: ['*'], apiVersions: ['*'], scope: 'Cluster' }),
      'namespaced-scope': rule(['*'], { scope: 'Namespaced' }),
    };
    await configure('validating', 'matching', Object.entries(matrix).map(([name, r]) => webhook(name, { rules: [r], ...inNamespace(ns) })));
    const base = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const created = await t.client.post(base, {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    assert.equal(created.status, 201, created.text);
    const status = await t.client.put(`${base}/web/status`, { ...created.body, status: { observedGeneration: 1 } });
    assert.equal(status.status, 200, status.text);
    const scale = await t.client.put(`${base}/web/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: ns }, spec: { replicas: 2 } });
    assert.equal(scale.status, 200, scale.text);
    assert.equal((await t.client.patch(`${base}/web`, { metadata: { labels: { patched: 'yes' } } })).status, 200);
    assert.equal((await t.client.delete(`${base}/web`)).status, 200);

    const main = ['CREATE deployments', 'UPDATE deployments', 'DELETE deployments'];
    assert.deepEqual(seen('create-only'), ['CREATE deployments']);
    assert.deepEqual(seen('star'), main);
    assert.deepEqual(seen('star-star'), ['CREATE deployments', 'UPDATE deployments/status', 'UPDATE deployments/scale', 'UPDATE deployments', 'DELETE deployments']);
    assert.deepEqual(seen('deployments-sub'), seen('star-star'), 'deployments/* covers the resource itself too');
    assert.deepEqual(seen('star-status'), ['UPDATE deployments/status']);
    assert.deepEqual(seen('scale-only'), ['UPDATE deployments/scale']);
    assert.deepEqual(seen('other-group'), []);
    assert.deepEqual(seen('other-version'), []);
    assert.deepEqual(seen('cluster-scope'), []);
    assert.deepEqual(seen('namespaced-scope'), main);
    const scaleReview = hooks.reviews('/scale-only')[0]!.request;
    assert.deepEqual(scaleReview.kind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    assert.deepEqual(scaleReview.resource, { group: 'apps', version: 'v1', resource: 'deployments' });
    const createReview = hooks.reviews('/create-only')[0]!;
    assert.equal(createReview.apiVersion, `admission.${domain}/v1`);
    assert.equal(createReview.request.name, 'web');
    assert.equal(createReview.request.namespace, ns);
    assert.equal(createReview.request.oldObject, null);
    assert.equal(createReview.request.dryRun, false);
    assert.deepEqual(createReview.request.options, { kind: 'CreateOptions', apiVersion: `meta.${domain}/v1` });
    assert.equal((createReview.request.object as { kind: string }).kind, 'Deployment');
    const del = hooks.reviews('/star').at(-1)!.request;
    assert.equal(del.object, null);
    assert.equal((del.oldObject as { metadata: { name: string } }).metadata.name, 'web');
    assert.equal((del.options as { kind: string }).kind, 'DeleteOptions');
    assert.equal(hooks.requests('/create-only')[0]!.url, '/create-only?timeout=10s');
  });

  test('namespaceSelector (namespaced objects and Namespace objects) and objectSelector (object or old object)', async () => {
    await namespace('wh-sel-a', { team: 'a' });
    await namespace('wh-sel-b', { team: 'b' });
    await configure('validating', 'selectors', [
      webhook('ns-team-a', { namespaceSelector: { matchLabels: { team: 'a' } } }),
      webhook('obj-web', { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a', 'b'] }] }, objectSelector: { matchLabels: { app: 'web' } } }),
      webhook('namespace-objects', {
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'], scope: 'Cluster' }],
        namespaceSelector: { matchLabels: { team: 'c' } },
      }),
    ]);
    for (const ns of ['wh-sel-a', 'wh-sel-b']) {
      assert.equal((await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('plain'))).status, 201);
      assert.equal((await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('web', { app: 'web' }))).status, 201);
    }
    const r = await t.client.put('/api/v1/namespaces/wh-sel-b/configmaps/web', configmap('web', { app: 'db' }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(hooks.reviews('/ns-team-a').map((x) => `${x.request.namespace}/${x.request.name}`), ['wh-sel-a/plain', 'wh-sel-a/web']);
    assert.deepEqual(hooks.reviews('/obj-web').map((x) => `${x.request.operation} ${x.request.namespace}/${x.request.name}`),
      ['CREATE wh-sel-a/web', 'CREATE wh-sel-b/web', 'UPDATE wh-sel-b/web'], 'the old object\'s labels count on update');
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: 'wh-sel-c', labels: { team: 'c' } } })).status, 201);
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: 'wh-sel-d', labels: { team: 'd' } } })).status, 201);
    assert.deepEqual(hooks.reviews('/namespace-objects').map((x) => x.request.name), ['wh-sel-c'], 'a Namespace is selected by its own labels');
  });

  test('matchPolicy Equivalent sends a core v1 Event converted to events/v1 and applies its patch; Exact is not called', async () => {
    const ns = 'wh-equivalent';
    await namespace(ns);
    const eventsRule = [{ operations: ['CREATE'], apiGroups: [`events.${domain}`], apiVersions: ['v1'], resources: ['events'] }];
    await configure('validating', 'equivalent-v', [
      webhook('equivalent', { rules: eventsRule, matchPolicy: 'Equivalent', ...inNamespace(ns) }),
      webhook('exact', { rules: eventsRule, matchPolicy: 'Exact', ...inNamespace(ns) }),
    ]);
    hooks.on('/equivalent-mutator', patching([{ op: 'replace', path: '/note', value: 'noted by the webhook' }]));
    await configure('mutating', 'equivalent-m', [webhook('equivalent-mutator', { rules: eventsRule, ...inNamespace(ns) })]);
    const r = await t.client.post(`/api/v1/namespaces/${ns}/events`, {
      metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: ns }, reason: 'Started', message: 'hello', type: 'Normal',
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.message, 'noted by the webhook', 'the patch of the events/v1 shape reached the core Event');
    const review = hooks.reviews('/equivalent')[0]!.request;
    assert.deepEqual(review.kind, { group: `events.${domain}`, version: 'v1', kind: 'Event' });
    assert.deepEqual(review.resource, { group: `events.${domain}`, version: 'v1', resource: 'events' });
    assert.deepEqual(review.requestKind, { group: '', version: 'v1', kind: 'Event' });
    assert.deepEqual(review.requestResource, { group: '', version: 'v1', resource: 'events' });
    assert.equal((review.object as { note: string }).note, 'noted by the webhook', 'validating webhooks see the mutated object');
    assert.equal((review.object as { apiVersion: string }).apiVersion, `events.${domain}/v1`);
    assert.equal(hooks.reviews('/exact').length, 0);
  });

  test('a mutating chain: patches in order, reinvocation of IfNeeded webhooks, and the patched object validated again', async () => {
    const ns = 'wh-mutating';
    await namespace(ns);
    const addLabelOnce = (label: string): ReviewAnswer => (review, req, res, respond) => {
      const labels = ((review.request.object as { metadata: { labels?: Record<string, string> } }).metadata.labels) ?? {};
      if (labels[label]) return respond({ allowed: true });
      return patching([{ op: 'add', path: `/metadata/labels/${label}`, value: 'yes' }])(review, req, res, respond);
    };
    hooks.on('/first', addLabelOnce('first'));
    hooks.on('/second', addLabelOnce('second'));
    hooks.on('/breaker', patching([{ op: 'add', path: '/data', value: { 'not a valid key!': 'x' } }]));
    await configure('mutating', 'mutating-a', [webhook('first', { reinvocationPolicy: 'IfNeeded', ...inNamespace(ns) })]);
    await configure('mutating', 'mutating-b', [
      webhook('second', { ...inNamespace(ns), objectSelector: { matchExpressions: [{ key: 'break', operator: 'DoesNotExist' }] } }),
      webhook('breaker', { ...inNamespace(ns), objectSelector: { matchLabels: { break: 'yes' } } }),
    ]);
    const r = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('chained', { app: 'x' }));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.metadata.labels, { app: 'x', first: 'yes', second: 'yes' });
    assert.equal(hooks.reviews('/first').length, 2, 'first (IfNeeded) is called again after second changed the object');
    assert.equal(hooks.reviews('/second').length, 1, 'second (Never) is not');
    const again = hooks.reviews('/first')[1]!.request.object as { metadata: { labels: Record<string, string> } };
    assert.equal(again.metadata.labels['second'], 'yes', 'the second call sees the later change');
    const broken = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('broken', { break: 'yes' }));
    assertStatus(broken, 422, 'Invalid');
    assert.match(broken.body.message, /not a valid key!/);
    assert.equal((await t.client.get(`/api/v1/namespaces/${ns}/configmaps/broken`)).status, 404);
  });

  test('timeouts, garbage, non-200 answers and a wrong uid fail the request under Fail and not under Ignore; /metrics counts them', async () => {
    const ns = 'wh-failures';
    await namespace(ns);
    const answers: Record<string, ReviewAnswer> = {
      garbage: (_r, _q, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"this is": not json'); },
      status500: (_r, _q, res) => { res.writeHead(500, { 'content-type': 'text/plain' }); res.end('webhook broke'); },
      wronguid: (review, _q, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: 'not-the-uid', allowed: true } })); },
      timeout: async (_review, _req, res, respond) => { await new Promise((done) => setTimeout(done, 2500)); if (!res.destroyed) respond({ allowed: true }); },
    };
    const webhooks = [];
    for (const [c, a] of Object.entries(answers)) {
      for (const policy of ['Fail', 'Ignore']) {
        const name = `${c}-${policy.toLowerCase()}`;
        hooks.on(`/${name}`, a);
        webhooks.push(webhook(name, { failurePolicy: policy, timeoutSeconds: 1, ...inNamespace(ns), objectSelector: { matchLabels: { case: c, policy: policy.toLowerCase() } } }));
      }
    }
    await configure('validating', 'failures', webhooks);
    const expected: Record<string, string> = {
      garbage: 'failed to call webhook: couldn\'t get version/kind; json parse error:',
      status500: 'failed to call webhook: an error on the server ("webhook broke") has prevented the request from succeeding',
      wronguid: 'received invalid webhook response: expected response.uid=',
      timeout: `failed to call webhook: Post "${hooks.url}/timeout-fail?timeout=1s": context deadline exceeded`,
    };
    for (const c of Object.keys(answers)) {
      const fail = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap(`${c}-fail`, { case: c, policy: 'fail' }));
      assertStatus(fail, 500, 'InternalError', c);
      assert.ok(fail.body.message.startsWith(`Internal error occurred: failed calling webhook "${c}-fail.hooks.test": ${expected[c]}`), fail.body.message);
      const ignore = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap(`${c}-ignore`, { case: c, policy: 'ignore' }));
      assert.equal(ignore.status, 201, `${c} under Ignore: ${ignore.text}`);
    }
    const metrics = (await t.client.get('/metrics')).text;
    for (const [c, code] of [['garbage', 400], ['status500', 500], ['wronguid', 503], ['timeout', 400]] as const) {
      assert.ok(metrics.includes(`apiserver_admission_webhook_rejection_count{name="${c}-fail.hooks.test",type="validating",operation="CREATE",error_type="calling_webhook_error",rejection_code="${code}"} 1`), `${c} rejection counted`);
      assert.ok(!metrics.includes(`apiserver_admission_webhook_rejection_count{name="${c}-ignore.hooks.test"`), `${c} under Ignore rejects nothing`);
      assert.ok(metrics.includes(`apiserver_admission_webhook_fail_open_count{name="${c}-ignore.hooks.test",type="validating"} 1`), `${c} failed open`);
      assert.ok(metrics.includes(`apiserver_admission_webhook_request_total{name="${c}-fail.hooks.test",type="validating",operation="CREATE",code="${code}",rejected="true"} 1`), `${c} request counted`);
    }
  });

  test('dry run: a webhook with side effects fails a dry-run request; NoneOnDryRun is called with dryRun true and nothing is stored', async () => {
    const ns = 'wh-dry-run';
    await namespace(ns);
    await configure('validating', 'dry-run', [webhook('no-side-effects-on-dry-run', { sideEffects: 'NoneOnDryRun', ...inNamespace(ns), objectSelector: { matchLabels: { hook: 'nofx' } } })]);
    const nofx = await t.client.post(`/api/v1/namespaces/${ns}/configmaps?dryRun=All`, configmap('dry', { hook: 'nofx' }));
    assert.equal(nofx.status, 201, nofx.text);
    assert.equal(hooks.reviews('/no-side-effects-on-dry-run')[0]!.request.dryRun, true);
    assert.deepEqual(hooks.reviews('/no-side-effects-on-dry-run')[0]!.request.options, { kind: 'CreateOptions', apiVersion: `meta.${domain}/v1`, dryRun: ['All'] });
    assert.equal((await t.client.get(`/api/v1/namespaces/${ns}/configmaps/dry`)).status, 404);
    // v1 accepts only None and NoneOnDryRun; a configuration an older server stored may still say Some.
    await putStored(`/registry/admissionregistration.${domain}/validatingwebhookconfigurations/side-effects`, {
      apiVersion: `admissionregistration.${domain}/v1`, kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'side-effects', uid: '6b8d8a4e-4c61-4a5e-9d0e-4f1c2b3a4d5e', creationTimestamp: '2024-01-01T00:00:00Z' },
      webhooks: [{
        ...webhook('side-effects', { sideEffects: 'Some', ...inNamespace(ns), objectSelector: { matchLabels: { hook: 'fx' } } }),
        failurePolicy: 'Ignore', matchPolicy: 'Equivalent', timeoutSeconds: 10,
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }],
      }],
    });
    const real = await pollUntil(() => t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap(`fx-${Date.now()}`, { hook: 'fx' })),
      () => hooks.reviews('/side-effects').length > 0, 'the stored configuration to be in effect');
    assert.equal(real.status, 201, 'a real request reaches it');
    const dry = await t.client.post(`/api/v1/namespaces/${ns}/configmaps?dryRun=All`, configmap('fx-dry', { hook: 'fx' }));
    assertStatus(dry, 400, 'BadRequest');
    assert.equal(dry.body.message, 'admission webhook "side-effects.hooks.test" does not support dry run', 'even under failurePolicy Ignore');
    assert.equal(hooks.reviews('/side-effects').filter((r) => r.request.dryRun).length, 0, 'the webhook never sees the dry run');
  });

  test('v1beta1 is sent to a webhook that accepts only it, and its denial is honoured', async () => {
    const ns = 'wh-v1beta1';
    await namespace(ns);
    hooks.on('/beta', (review, _req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: false, status: { message: 'beta says no' } } }));
    });
    await configure('validating', 'v1beta1', [webhook('beta', { admissionReviewVersions: ['v1beta1'], ...inNamespace(ns) })]);
    const r = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('c'));
    assertDenied(r, 400, 'admission webhook "beta.hooks.test" denied the request: beta says no');
    assert.equal(hooks.reviews('/beta')[0]!.apiVersion, `admission.${domain}/v1beta1`);
  });

  test('denials return the webhook\'s code, reason and message; warnings become Warning headers; /metrics counts rejections', async () => {
    const ns = 'wh-denials';
    await namespace(ns);
    hooks.on('/deny-409', denied({ code: 409, reason: 'AlreadyExists', message: 'taken already' }));
    hooks.on('/deny-nocode', denied({ message: 'just no' }));
    hooks.on('/warn', (_review, _req, _res, respond) => respond({ allowed: true, warnings: ['mind the gap', 'second "quoted" warning'] }));
    await configure('validating', 'denials', [
      webhook('deny-409', { ...inNamespace(ns), objectSelector: { matchLabels: { deny: '409' } } }),
      webhook('deny-nocode', { ...inNamespace(ns), objectSelector: { matchLabels: { deny: 'nocode' } } }),
      webhook('warn', { ...inNamespace(ns), objectSelector: { matchLabels: { warn: 'yes' } } }),
    ]);
    const r409 = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('a', { deny: '409' }));
    assertStatus(r409, 409, 'AlreadyExists');
    assert.equal(r409.body.message, 'admission webhook "deny-409.hooks.test" denied the request: taken already');
    const r400 = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('b', { deny: 'nocode' }));
    assertDenied(r400, 400, 'admission webhook "deny-nocode.hooks.test" denied the request: just no');
    const warned = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('c', { warn: 'yes' }));
    assert.equal(warned.status, 201, warned.text);
    assert.deepEqual(warned.headers['warning'], '299 - "mind the gap", 299 - "second \\"quoted\\" warning"');
    const metrics = (await t.client.get('/metrics')).text;
    assert.ok(metrics.includes('apiserver_admission_webhook_rejection_count{name="deny-409.hooks.test",type="validating",operation="CREATE",error_type="no_error",rejection_code="409"} 1'), 'a denial with its code');
    assert.ok(metrics.includes('apiserver_admission_webhook_rejection_count{name="deny-nocode.hooks.test",type="validating",operation="CREATE",error_type="no_error",rejection_code="400"} 1'), 'a denial without a code counts as 400');
    assert.ok(/apiserver_admission_webhook_admission_duration_seconds_count\{name="warn.hooks.test",type="validating",operation="CREATE",rejected="false"\} 1/.test(metrics), 'webhook latency');
    assert.ok(/apiserver_admission_controller_admission_duration_seconds_count\{name="ValidatingAdmissionWebhook",type="validate",operation="CREATE",rejected="true"\} \d+/.test(metrics), 'plug-in latency');
    assert.ok(/apiserver_admission_step_admission_duration_seconds_count\{type="admit",operation="CREATE",rejected="false"\} \d+/.test(metrics), 'phase latency');
  });

  test('a service reference is resolved through the Service and its Endpoints and verified as <svc>.<ns>.svc', async () => {
    const ns = 'wh-service';
    await namespace(ns);
    const svcHooks = await startAdmissionWebhookServer({ ca: hooks.ca, cert: hooks.ca.issue({ commonName: `hook.${ns}.svc`, hosts: [`hook.${ns}.svc`], usages: ['serverAuth'] }) });
    try {
      svcHooks.on('/admit', denied({ code: 403, message: 'reached through the service' }));
      const svc = await t.client.post(`/api/v1/namespaces/${ns}/services`, { metadata: { name: 'hook' }, spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] } });
      assert.equal(svc.status, 201, svc.text);
      // Endpoints validation refuses loopback addresses, as upstream's does; the webhook listens only
      // on loopback, so its Endpoints are stored as an endpoints controller would have left them.
      await putLoopbackEndpoints(t.etcd.endpoint, ns, 'hook', 'https', Number(new URL(svcHooks.url).port));
      await configure('validating', 'service', [webhook('by-service', {
        clientConfig: { service: { namespace: ns, name: 'hook', path: '/admit' }, caBundle: hooks.caBundle },
        ...inNamespace(ns), objectSelector: { matchLabels: { via: 'service' } },
      })]);
      const r = await pollUntil(() => t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('c', { via: 'service' })), (x) => x.status !== 500, 'the Endpoints to be cached');
      assertDenied(r, 403, 'admission webhook "by-service.hooks.test" denied the request: reached through the service');
      assert.equal(svcHooks.requests('/admit').at(-1)!.headers.host, `hook.${ns}.svc`);
      assert.equal(svcHooks.requests('/admit').at(-1)!.url, '/admit?timeout=10s');
    } finally {
      await svcHooks.close();
    }
  });

  test('a configuration change is in effect without a restart, and its deletion ends its webhooks', async () => {
    const ns = 'wh-changes';
    await namespace(ns);
    hooks.on('/changing', denied({ message: 'denied for now' }));
    await configure('validating', 'changing', [webhook('changing', { ...inNamespace(ns) })]);
    assertDenied(await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('a')), 400, 'admission webhook "changing.hooks.test" denied the request: denied for now');
    assert.equal((await t.client.delete(configurationsPath(domain, 'validating', 'changing'))).status, 200);
    const r: Response = await pollUntil(() => t.client.post(`/api/v1/namespaces/${ns}/configmaps`, configmap('a')), (x) => x.status === 201, 'the deletion to be in effect', 2_000);
    assert.equal(r.status, 201);
  });
});
