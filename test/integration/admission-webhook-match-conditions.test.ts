// Webhook matchConditions through the real server and a real HTTPS webhook: a webhook is called
// only when every condition holds (object, oldObject, request and authorizer readable); a
// condition that errors follows the webhook's failurePolicy (Fail: 403 naming the error and the
// webhook not called; Ignore: the webhook skipped); a configuration with an expression that does
// not compile is refused with cel-go's error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { configurationsPath, createConfiguration, startAdmissionWebhookServer, type AdmissionWebhookServer } from './framework/admission-webhook.js';
import { pollUntil } from './framework/authentication.js';

describe('admission webhook matchConditions', () => {
  let t: TestServer;
  let hooks: AdmissionWebhookServer;
  let domain: string;

  before(async () => {
    hooks = await startAdmissionWebhookServer();
    t = await startTestServer();
    domain = t.options.apiDomain;
    const r = await t.client.post('/api/v1/namespaces', { metadata: { name: 'mc', labels: { 'mc-suite': 'yes' } } });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await t?.stop();
    await hooks?.close();
  });

  const webhook = (name: string, matchConditions: { name: string; expression: string }[], over: Record<string, unknown> = {}) => ({
    name: `${name}.hooks.test`,
    clientConfig: { url: `${hooks.url}/${name}`, caBundle: hooks.caBundle },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    namespaceSelector: { matchLabels: { 'mc-suite': 'yes' } },
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    matchConditions,
    ...over,
  });
  const post = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}) =>
    t.client.post('/api/v1/namespaces/mc/configmaps', { metadata: { name, labels }, data });
  const names = (path: string) => hooks.reviews(path).map((r) => r.request.name);

  test('a webhook is called only for requests all its conditions match', async () => {
    await createConfiguration(t.client, domain, 'validating', 'mc-match', [
      webhook('selective', [
        { name: 'labelled', expression: "has(object.metadata.labels) && 'call' in object.metadata.labels" },
        { name: 'not-by-nobody', expression: "request.userInfo.username != 'nobody' && request.resource.resource == 'configmaps'" },
        { name: 'may-read', expression: "authorizer.group('').resource('configmaps').namespace('mc').check('get').allowed()" },
        { name: 'create-or-changed', expression: "oldObject == null || object.data != oldObject.data" },
      ]),
    ]);
    await pollUntil(() => post(`probe-${Date.now()}`, { call: 'yes' }), () => hooks.reviews('/selective').length > 0, 'the configuration to be in effect');
    const before = hooks.reviews('/selective').length;
    assert.equal((await post('unlabelled')).status, 201);
    assert.equal((await post('labelled', { call: 'yes' }, { a: '1' })).status, 201);
    assert.deepEqual(names('/selective').slice(before), ['labelled'], 'only the labelled configmap reached the webhook');
    // An update that leaves data alone fails the last condition; one that changes it matches.
    const cm = (await t.client.get('/api/v1/namespaces/mc/configmaps/labelled')).body;
    assert.equal((await t.client.put('/api/v1/namespaces/mc/configmaps/labelled', { ...cm, metadata: { ...cm.metadata, annotations: { x: 'y' } } })).status, 200);
    assert.equal(hooks.reviews('/selective').length, before + 1);
    const cm2 = (await t.client.get('/api/v1/namespaces/mc/configmaps/labelled')).body;
    assert.equal((await t.client.put('/api/v1/namespaces/mc/configmaps/labelled', { ...cm2, data: { a: '2' } })).status, 200);
    assert.equal(hooks.reviews('/selective').length, before + 2);
  });

  test('an erroring condition fails the request under Fail and skips the webhook under Ignore', async () => {
    const erroring = [{ name: 'reads-missing', expression: "object.metadata.labels['missing'] == 'x'" }];
    await createConfiguration(t.client, domain, 'validating', 'mc-errors', [
      webhook('fail', erroring, { failurePolicy: 'Fail', objectSelector: { matchLabels: { policy: 'fail' } } }),
      webhook('ignore', erroring, { failurePolicy: 'Ignore', objectSelector: { matchLabels: { policy: 'ignore' } } }),
    ]);
    const r = await pollUntil(() => post(`f-${Date.now()}`, { policy: 'fail' }), (res) => res.status === 403, 'the Fail webhook to be in effect');
    assert.equal(r.body.reason, 'Forbidden');
    assert.match(r.body.message, /^configmaps "f-\d+" is forbidden: expression 'object\.metadata\.labels\['missing'\] == 'x'' resulted in error: no such key: missing$/);
    assert.equal(hooks.reviews('/fail').length, 0, 'the webhook was not called');
    assert.equal((await post('i-1', { policy: 'ignore' })).status, 201);
    assert.equal(hooks.reviews('/ignore').length, 0, 'the webhook was skipped');
  });

  test('a configuration whose expression does not compile is refused', async () => {
    const r = await t.client.post(configurationsPath(domain, 'validating'), {
      metadata: { name: 'mc-bad' },
      webhooks: [webhook('bad', [{ name: 'typo', expression: 'objekt.metadata.name == "a"' }])],
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.details.causes[0].field, 'webhooks[0].matchConditions[0].expression');
    assert.match(r.body.details.causes[0].message, /compilation failed: ERROR: <input>:1:1: undeclared reference to 'objekt' \(in container ''\)/);
  });
});
