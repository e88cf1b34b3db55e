// The API server's credentials for admission webhooks (spec 10, rule 6): an
// --admission-control-config-file gives both webhook plug-ins a WebhookAdmissionConfiguration
// naming a kubeconfig whose users are chosen by the webhook's URL host:port or service DNS name
// with its port, with a lone `*` as the default. Each webhook server here refuses a request
// without its credential, so a call only succeeds when the right one was sent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultAdmissionOptions } from '../../cmd/apiserver/app/admission-options.js';
import { createTestCA } from '../../pkg/authentication/testing/pki.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { createConfiguration, putLoopbackEndpoints, startAdmissionWebhookServer, type AdmissionWebhookServer } from './framework/admission-webhook.js';
import { pollUntil } from './framework/authentication.js';

describe('admission webhook credentials from the admission configuration file', () => {
  const files = tempFiles('orch-admission-');
  const ca = createTestCA('webhook-serving-ca');
  const clientCA = createTestCA('webhook-client-ca');
  const clientCert = clientCA.issue({ commonName: 'orch-apiserver-admission' });
  const token = 'admission-token-3c9f1b';
  const basic = `Basic ${Buffer.from('admission:p4ssw0rd').toString('base64')}`;
  let certHooks: AdmissionWebhookServer;
  let tokenHooks: AdmissionWebhookServer;
  let basicHooks: AdmissionWebhookServer;
  let t: TestServer;
  let domain: string;
  const ns = 'creds';

  before(async () => {
    certHooks = await startAdmissionWebhookServer({ ca, clientCA: clientCA.cert });
    tokenHooks = await startAdmissionWebhookServer({
      ca, cert: ca.issue({ commonName: `token-hook.${ns}.svc`, hosts: [`token-hook.${ns}.svc`], usages: ['serverAuth'] }),
      authorize: (req) => req.headers.authorization === `Bearer ${token}`,
    });
    basicHooks = await startAdmissionWebhookServer({ ca, authorize: (req) => req.headers.authorization === basic });
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const kubeconfig = files.write('webhooks.kubeconfig', JSON.stringify({
      apiVersion: 'v1', kind: 'Config',
      users: [
        { name: `127.0.0.1:${new URL(certHooks.url).port}`, user: { 'client-certificate-data': b64(clientCert.cert), 'client-key-data': b64(clientCert.key) } },
        { name: `*.${ns}.svc:8443`, user: { token } },
        { name: '*', user: { username: 'admission', password: 'p4ssw0rd' } },
      ],
    }));
    const plugin = (name: string) => ({
      name,
      configuration: { apiVersion: 'apiserver.config.orch.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: kubeconfig },
    });
    const admissionConfig = files.write('admission.yaml', JSON.stringify({
      apiVersion: 'apiserver.config.orch.io/v1', kind: 'AdmissionConfiguration',
      plugins: [plugin('ValidatingAdmissionWebhook'), plugin('MutatingAdmissionWebhook')],
    }));
    t = await startTestServer({ admission: { ...defaultAdmissionOptions(), configFile: admissionConfig } });
    domain = t.options.apiDomain;
  });
  after(async () => {
    await t?.stop();
    await Promise.all([certHooks?.close(), tokenHooks?.close(), basicHooks?.close()]);
    files.remove();
  });

  test('a client certificate by URL host:port, a token by service DNS name and port, basic auth by the `*` default', async () => {
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    const svc = await t.client.post(`/api/v1/namespaces/${ns}/services`, { metadata: { name: 'token-hook' }, spec: { ports: [{ name: 'https', port: 8443 }] } });
    assert.equal(svc.status, 201, svc.text);
    await putLoopbackEndpoints(t.etcd.endpoint, ns, 'token-hook', 'https', Number(new URL(tokenHooks.url).port));
    const webhook = (name: string, clientConfig: Record<string, unknown>, kind: string) => ({
      name: `${name}.hooks.test`,
      clientConfig: { ...clientConfig, caBundle: Buffer.from(ca.cert).toString('base64') },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      objectSelector: { matchLabels: { via: kind } },
      sideEffects: 'None', admissionReviewVersions: ['v1'],
    });
    await createConfiguration(t.client, domain, 'validating', 'credentials', [
      webhook('client-cert', { url: `${certHooks.url}/cert` }, 'cert'),
      webhook('token', { service: { namespace: ns, name: 'token-hook', port: 8443, path: '/token' } }, 'token'),
    ]);
    // Mutating webhooks read the same configuration through their own plug-in.
    await createConfiguration(t.client, domain, 'mutating', 'credentials', [webhook('basic', { url: `${basicHooks.url}/basic` }, 'basic')]);
    for (const [via, server, path] of [['cert', certHooks, '/cert'], ['token', tokenHooks, '/token'], ['basic', basicHooks, '/basic']] as const) {
      const r = await pollUntil(
        () => t.client.post(`/api/v1/namespaces/${ns}/configmaps?dryRun=All`, { metadata: { name: `via-${via}`, labels: { via } } }),
        () => server.reviews(path).length > 0,
        `the ${via} webhook to be called`,
      );
      assert.equal(r.status, 201, `${via}: ${r.text}`);
    }
    assert.equal(certHooks.requests('/cert')[0]!.clientCN, 'orch-apiserver-admission');
    assert.equal(tokenHooks.requests('/token')[0]!.headers.authorization, `Bearer ${token}`);
    assert.equal(basicHooks.requests('/basic')[0]!.headers.authorization, basic);
    assert.equal(basicHooks.requests('/basic')[0]!.headers['user-agent'], 'orch-apiserver-admission');
  });
});
