// ValidatingWebhookConfiguration and MutatingWebhookConfiguration through the real server: every
// v1 default is filled in, bad configurations are refused with 422 and upstream's causes, the
// generation follows the webhooks, webhooks merge by name, and kubectl prints upstream's columns.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

describe('admission webhook configurations', () => {
  let t: TestServer;
  let kc: Kubeconfig;
  let kubectl: Kubectl;
  let group: string;
  const path = (kind: 'validating' | 'mutating', name = '') => `/apis/${group}/v1/${kind}webhookconfigurations${name ? `/${name}` : ''}`;
  const vwc = (name: string, webhooks: Record<string, unknown>[]) =>
    ({ apiVersion: `${group}/v1`, kind: 'ValidatingWebhookConfiguration', metadata: { name }, webhooks });
  const mwc = (name: string, webhooks: Record<string, unknown>[]) =>
    ({ apiVersion: `${group}/v1`, kind: 'MutatingWebhookConfiguration', metadata: { name }, webhooks });
  const hook = (over: Record<string, unknown> = {}) => ({
    name: 'check.hooks.example.com',
    clientConfig: { url: 'https://hooks.example.com:8443/check' },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...over,
  });

  before(async () => {
    t = await startTestServer();
    group = `admissionregistration.${t.options.apiDomain}`;
    kc = writeKubeconfig(t);
    kubectl = new Kubectl(kc);
  });
  after(async () => {
    kc?.remove();
    await t?.stop();
  });

  test('both kinds are created over HTTPS with every v1 default filled in', async () => {
    const caBundle = Buffer.from('-----BEGIN CERTIFICATE-----\nnot checked here\n-----END CERTIFICATE-----\n').toString('base64');
    const v = await t.client.post(path('validating'), vwc('defaults', [hook({ clientConfig: { url: 'https://hooks.example.com/check', caBundle } })]));
    assert.equal(v.status, 201, v.text);
    const m = await t.client.post(path('mutating'), mwc('defaults', [hook({ clientConfig: { service: { namespace: 'hooks', name: 'mutator', path: '/mutate' } } })]));
    assert.equal(m.status, 201, m.text);
    for (const [kind, created] of [['validating', v], ['mutating', m]] as const) {
      const got = await t.client.get(path(kind, 'defaults'));
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.body, created.body, 'what the create answered is what is stored');
      const w = got.body.webhooks[0];
      assert.equal(got.body.metadata.generation, 1);
      assert.equal(w.failurePolicy, 'Fail');
      assert.equal(w.matchPolicy, 'Equivalent');
      assert.deepEqual(w.namespaceSelector, {});
      assert.deepEqual(w.objectSelector, {});
      assert.equal(w.timeoutSeconds, 10);
      assert.equal(w.rules[0].scope, '*');
      assert.equal(w.sideEffects, 'None');
      assert.deepEqual(w.admissionReviewVersions, ['v1']);
      if (kind === 'mutating') {
        assert.equal(w.reinvocationPolicy, 'Never');
        assert.deepEqual(w.clientConfig, { service: { namespace: 'hooks', name: 'mutator', path: '/mutate', port: 443 } });
      } else {
        assert.equal('reinvocationPolicy' in w, false);
        assert.deepEqual(w.clientConfig, { url: 'https://hooks.example.com/check', caBundle });
      }
    }
    // Explicit values are kept as given.
    const explicit = await t.client.post(path('mutating'), mwc('explicit', [hook({
      failurePolicy: 'Ignore', matchPolicy: 'Exact', timeoutSeconds: 30, reinvocationPolicy: 'IfNeeded', sideEffects: 'NoneOnDryRun',
      admissionReviewVersions: ['v1beta1', 'v1'], namespaceSelector: { matchLabels: { team: 'a' } },
      rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: 'Namespaced' }],
      matchConditions: [{ name: 'skip-system', expression: '!request.userInfo.username.startsWith("system:")' }],
    })]));
    assert.equal(explicit.status, 201, explicit.text);
    const w = explicit.body.webhooks[0];
    assert.deepEqual([w.failurePolicy, w.matchPolicy, w.timeoutSeconds, w.reinvocationPolicy, w.sideEffects, w.rules[0].scope],
      ['Ignore', 'Exact', 30, 'IfNeeded', 'NoneOnDryRun', 'Namespaced']);
  });

  /** The causes of a 422 as `field: message`, after checking the Status around them. */
  async function refused(kind: 'validating' | 'mutating', name: string, webhooks: Record<string, unknown>[]): Promise<string[]> {
    const body = kind === 'validating' ? vwc(name, webhooks) : mwc(name, webhooks);
    const r = await t.client.post(path(kind), body);
    assertStatus(r, 422, 'Invalid', name);
    const kindName = kind === 'validating' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration';
    assert.equal(r.body.details.kind, kindName);
    assert.equal(r.body.details.group, group);
    assert.equal(r.body.details.name, name);
    assert.ok(r.body.message.startsWith(`${kindName}.${group} "${name}" is invalid: `), r.body.message);
    assert.equal((await t.client.get(path(kind, name))).status, 404, 'nothing was stored');
    return (r.body.details.causes as { field: string; message: string; reason: string }[]).map((c) => `${c.reason} ${c.field}: ${c.message}`);
  }

  test('URLs must be https with a host and without user information, query or fragment', async () => {
    const form = '; desired format: https://host[/path]';
    const url = (u: string) => [hook({ clientConfig: { url: u } })];
    const f = 'webhooks[0].clientConfig.url';
    assert.deepEqual(await refused('validating', 'plain-http', url('http://hooks.example.com/check')),
      [`FieldValueInvalid ${f}: Invalid value: "http": 'https' is the only allowed URL scheme${form}`]);
    assert.deepEqual(await refused('mutating', 'user-info', url('https://admin:hunter2@hooks.example.com/check')),
      [`FieldValueInvalid ${f}: Invalid value: "admin:xxxxx": user information is not permitted in the URL`]);
    assert.deepEqual(await refused('validating', 'query', url('https://hooks.example.com/check?debug=1')),
      [`FieldValueInvalid ${f}: Invalid value: "debug=1": query parameters are not permitted in the URL`]);
    assert.deepEqual(await refused('validating', 'fragment', url('https://hooks.example.com/check#here')),
      [`FieldValueInvalid ${f}: Invalid value: "here": fragments are not permitted in the URL`]);
    assert.deepEqual(await refused('validating', 'no-host', url('https:///check')),
      [`FieldValueInvalid ${f}: Invalid value: "": host must be specified${form}`]);
    assert.deepEqual(await refused('validating', 'both', [hook({ clientConfig: { url: 'https://a.example.com', service: { namespace: 'n', name: 's' } } })]),
      ['FieldValueRequired webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
    assert.deepEqual(await refused('validating', 'bad-service', [hook({ clientConfig: { service: { namespace: 'n', name: '', path: 'check', port: 70000 } } })]), [
      'FieldValueRequired webhooks[0].clientConfig.service.name: Required value: service name is required',
      'FieldValueInvalid webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      'FieldValueInvalid webhooks[0].clientConfig.service.path: Invalid value: "check": must start with a \'/\'',
    ]);
  });

  test('webhook names, timeouts, side effects and review versions are refused as upstream refuses them', async () => {
    assert.deepEqual(await refused('validating', 'duplicate', [hook(), hook()]),
      ['FieldValueDuplicate webhooks[1].name: Duplicate value: "check.hooks.example.com"']);
    assert.deepEqual(await refused('mutating', 'short-name', [hook({ name: 'check.example' })]),
      ['FieldValueInvalid webhooks[0].name: Invalid value: "check.example": should be a domain with at least three segments separated by dots']);
    assert.deepEqual(await refused('validating', 'slow', [hook({ timeoutSeconds: 31 })]),
      ['FieldValueInvalid webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds']);
    assert.deepEqual(await refused('mutating', 'side-effects', [hook({ sideEffects: 'Some' })]),
      ['FieldValueNotSupported webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
    const { sideEffects: _s, ...noSideEffects } = hook();
    assert.deepEqual(await refused('validating', 'no-side-effects', [noSideEffects]),
      ['FieldValueRequired webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']);
    const { admissionReviewVersions: _a, ...noVersions } = hook();
    assert.deepEqual(await refused('validating', 'no-versions', [noVersions]),
      ['FieldValueRequired webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']);
    assert.deepEqual(await refused('mutating', 'unknown-version', [hook({ admissionReviewVersions: ['v2'] })]),
      ['FieldValueInvalid webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1']);
    assert.deepEqual(await refused('validating', 'policies', [hook({ failurePolicy: 'Maybe', matchPolicy: 'Fuzzy' })]), [
      'FieldValueNotSupported webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
      'FieldValueNotSupported webhooks[0].matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
    ]);
    assert.deepEqual(await refused('validating', 'rules', [hook({ rules: [{ operations: ['*', 'CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*/*', 'pods'] }] })]), [
      'FieldValueInvalid webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations',
      'FieldValueInvalid webhooks[0].rules[0].resources: Invalid value: ["*/*","pods"]: if \'*/*\' is present, must not specify other resources',
    ]);
    const upper = await refused('mutating', 'Upper', [hook()]);
    assert.equal(upper.length, 1, upper.join('\n'));
    assert.match(upper[0]!, /^FieldValueInvalid metadata\.name: Invalid value: "Upper": a lowercase RFC 1123 subdomain/);
  });

  test('an update raises the generation only when the webhooks change; webhooks merge by name', async () => {
    const name = 'generations';
    assert.equal((await t.client.post(path('validating'), vwc(name, [hook()]))).status, 201);
    const labelled = await t.client.patch(path('validating', name), { metadata: { labels: { team: 'a' } } });
    assert.equal(labelled.status, 200, labelled.text);
    assert.equal(labelled.body.metadata.generation, 1);
    // A strategic merge patch adds a webhook beside the existing one, matched by name.
    const added = await t.client.patch(path('validating', name), { webhooks: [hook({ name: 'second.hooks.example.com', timeoutSeconds: 3 })] },
      'application/strategic-merge-patch+json');
    assert.equal(added.status, 200, added.text);
    assert.deepEqual(added.body.webhooks.map((w: { name: string }) => w.name), ['second.hooks.example.com', 'check.hooks.example.com']);
    assert.equal(added.body.metadata.generation, 2);
    const same = await t.client.put(path('validating', name), added.body);
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.metadata.generation, 2, 'an unchanged PUT keeps the generation');
    // An update of a stored configuration is checked too.
    const bad = await t.client.patch(path('validating', name), { webhooks: [{ name: 'second.hooks.example.com', timeoutSeconds: 0 }] },
      'application/strategic-merge-patch+json');
    assertStatus(bad, 422, 'Invalid');
    assert.deepEqual(bad.body.details.causes.map((c: { field: string }) => c.field), ['webhooks[0].timeoutSeconds']);
  });

  test('tables and kubectl get show NAME, WEBHOOKS and AGE', async () => {
    assert.equal((await t.client.post(path('validating'), vwc('two-hooks', [hook(), hook({ name: 'other.hooks.example.com' })]))).status, 201);
    const table = await t.client.get(path('validating', 'two-hooks'), { headers: { Accept: `application/json;as=Table;g=meta.${t.options.apiDomain};v=v1` } });
    assert.equal(table.status, 200, table.text);
    assert.deepEqual(table.body.columnDefinitions.map((c: { name: string; type: string }) => `${c.name}:${c.type}`), ['Name:string', 'Webhooks:integer', 'Age:string']);
    assert.deepEqual(table.body.rows[0].cells.slice(0, 2), ['two-hooks', 2]);
    for (const [resource, name, count] of [['validatingwebhookconfigurations', 'two-hooks', '2'], ['mutatingwebhookconfigurations', 'defaults', '1']] as const) {
      const out = (await kubectl.ok(['get', resource, name])).stdout.trim().split('\n');
      assert.deepEqual(out[0]!.split(/\s+/), ['NAME', 'WEBHOOKS', 'AGE'], out.join('\n'));
      assert.deepEqual(out[1]!.split(/\s+/).slice(0, 2), [name, count], out.join('\n'));
    }
  });
});
