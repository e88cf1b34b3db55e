// Disabling webhook admission (spec 9.4): with --runtime-config=admissionregistration.<domain>/v1=false
// the configuration kinds are not served and the configurations already stored are not acted on.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { configurationsPath, createConfiguration, denied, startAdmissionWebhookServer, type AdmissionWebhookServer } from './framework/admission-webhook.js';
import { pollUntil } from './framework/authentication.js';

describe('admission webhooks turned off with --runtime-config', () => {
  let hooks: AdmissionWebhookServer;
  let t: TestServer;

  before(async () => {
    hooks = await startAdmissionWebhookServer();
    t = await startTestServer();
  });
  after(async () => {
    await t?.stop();
    await hooks?.close();
  });

  test('a stored configuration denies while the group is served, and nothing calls it once admissionregistration/v1=false', async () => {
    const domain = t.options.apiDomain;
    hooks.on('/deny', denied({ message: 'webhooks are on' }));
    await createConfiguration(t.client, domain, 'validating', 'deny-all', [{
      name: 'deny.hooks.test',
      clientConfig: { url: `${hooks.url}/deny`, caBundle: hooks.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      sideEffects: 'None', admissionReviewVersions: ['v1'],
    }]);
    const denial = await pollUntil(() => t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'on' } }), (r) => r.status === 400, 'the webhook to deny');
    assert.equal(denial.body.message, 'admission webhook "deny.hooks.test" denied the request: webhooks are on');
    const calls = hooks.reviews('/deny').length;

    t.options.runtimeConfig = `admissionregistration.${domain}/v1=false`;
    await t.restart();
    assert.equal((await t.client.get(configurationsPath(domain, 'validating'))).status, 404, 'the kind is not served');
    assert.equal((await t.client.get(`/apis/admissionregistration.${domain}/v1`)).status, 404, 'nor the group/version');
    const r = await t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'off' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(hooks.reviews('/deny').length, calls, 'the stored configuration is not acted on');
  });
});
