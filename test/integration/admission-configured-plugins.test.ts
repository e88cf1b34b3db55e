// The admission plug-ins configured by --admission-control-config-file, through the real server
// with RBAC and an audit log: EventRateLimit (a per-namespace bucket), ImagePolicyWebhook (a real
// HTTPS webhook with its own CA, in the legacy file format), PodNodeSelector (namespace annotation,
// cluster default and whitelist) and OwnerReferencesPermissionEnforcement (the authorizer asked on
// the writer's behalf). Each must refuse or change one request and let another through.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { defaultAdmissionOptions } from '../../cmd/apiserver/app/admission-options.js';
import { defaultAuditOptions } from '../../cmd/apiserver/app/audit-options.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { imagesOf, startImagePolicyWebhook, type TestImagePolicyWebhook } from '../../pkg/admission/testing/image-policy-webhook.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { pollUntil } from './framework/authentication.js';
import type { Client, Response } from './framework/client.js';

const rbac = 'rbac.authorization.orch.io';
const plugins = ['EventRateLimit', 'ImagePolicyWebhook', 'PodNodeSelector', 'OwnerReferencesPermissionEnforcement'];
const pod = (name: string, image = 'registry.example/app:1', spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'app', image }], ...spec },
});

describe('admission plug-ins configured by --admission-control-config-file', () => {
  let t: TestServer;
  let dir: string;
  let hook: TestImagePolicyWebhook;
  let admin: Client;
  let dev: Client;

  /** Audit events of the request with this audit ID, once its ResponseComplete stage is written. */
  const auditOf = (r: Response) => pollUntil(
    async () => readFileSync(join(dir, 'audit.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>)
      .find((e) => e.auditID === r.headers['audit-id'] && e.stage === 'ResponseComplete'),
    (e) => e !== undefined, `the audit event of ${String(r.headers['audit-id'])}`,
  ).then((e) => e!);

  async function namespace(name: string, annotations?: Record<string, string>): Promise<void> {
    const r = await admin.post('/api/v1/namespaces', { metadata: { name, ...(annotations ? { annotations } : {}) } });
    assert.equal(r.status, 201, r.text);
    assert.equal((await admin.post(`/api/v1/namespaces/${name}/serviceaccounts`, { metadata: { name: 'default' } })).status, 201);
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-admission-config-'));
    hook = await startImagePolicyWebhook();
    hook.decide((review) => {
      const images = imagesOf(review);
      if (images.some((i) => i.includes('unsigned'))) return { allowed: false, reason: 'unsigned images are not allowed', auditAnnotations: { 'signature-check': 'failed' } };
      if (images.some((i) => i.includes('unreachable'))) return { httpStatus: 503 };
      return { allowed: true };
    });
    writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,1,"system:masters"\ndev-token,dev,2\n');
    writeFileSync(join(dir, 'policy.yaml'), `apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  resources:\n  - group: ""\n    resources: [pods]\n`);
    // The image policy file in upstream's legacy format, named by the AdmissionConfiguration.
    writeFileSync(join(dir, 'image-policy.yaml'), stringify({ imagePolicy: { kubeConfigFile: hook.writeKubeconfig(dir), retryBackoff: 1, defaultAllow: true } }));
    writeFileSync(join(dir, 'admission.yaml'), stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [
        { name: 'EventRateLimit', configuration: { apiVersion: 'eventratelimit.admission.orch.io/v1alpha1', kind: 'Configuration', limits: [{ type: 'Namespace', qps: 1, burst: 3 }] } },
        { name: 'ImagePolicyWebhook', path: 'image-policy.yaml' },
        { name: 'PodNodeSelector', configuration: { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'region=eu', restricted: 'region=eu,disk=ssd' } } },
      ],
    }));
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
      admission: { ...defaultAdmissionOptions(), plugins: { enable: plugins }, configFile: join(dir, 'admission.yaml') },
      audit: { ...defaultAuditOptions(), policyFile: join(dir, 'policy.yaml'), logPath: join(dir, 'audit.log') },
    });
    admin = t.client.withToken('admin-token');
    dev = t.client.withToken('dev-token');
    await pollUntil(() => t.client.get('/readyz'), (r) => r.status === 200, 'the bootstrap policy');
  });
  after(async () => {
    await t?.stop();
    await hook?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('EventRateLimit: a namespace\'s events beyond its burst are refused with 429; other namespaces and kinds pass', async () => {
    await namespace('events-a');
    await namespace('events-b');
    let n = 0;
    const event = (ns: string) => admin.post(`/api/v1/namespaces/${ns}/events`, {
      metadata: { name: `e${n++}` }, involvedObject: { kind: 'Pod', namespace: ns, name: 'p' }, reason: 'Tested', message: 'rate limited',
    });
    // The bucket starts full (burst 3) and refills one a second: the first three pass, and a quick
    // series of further events soon finds it empty.
    for (let i = 0; i < 3; i++) assert.equal((await event('events-a')).status, 201);
    const refused = await pollUntil(() => event('events-a'), (r) => r.status === 429, 'an event over the limit');
    assertStatus(refused, 429, 'TooManyRequests');
    assert.equal(refused.body.message, 'Too many requests: limit reached on type Namespace for key events-a');
    assert.equal((await event('events-b')).status, 201, 'another namespace has its own bucket');
    assert.equal((await admin.post('/api/v1/namespaces/events-a/configmaps', { metadata: { name: 'not-an-event' } })).status, 201, 'only events are limited');
  });

  test('ImagePolicyWebhook: the webhook admits or refuses the pod\'s images; when it fails, defaultAllow admits the pod marked failed-open', async () => {
    await namespace('images');
    const path = '/api/v1/namespaces/images/pods';
    const reviewed = hook.reviews().length;
    const ok = await admin.post(path, pod('signed', 'registry.example/app:1', {}, { 'ticket.image-policy.orch.io/id': 'T-7', unrelated: 'x' }));
    assert.equal(ok.status, 201, ok.text);
    const review = hook.reviews().slice(reviewed).find((r) => imagesOf(r).includes('registry.example/app:1'));
    assert.deepEqual(review?.spec, { containers: [{ image: 'registry.example/app:1' }], annotations: { 'ticket.image-policy.orch.io/id': 'T-7' }, namespace: 'images' });
    assert.equal(review?.apiVersion, 'imagepolicy.orch.io/v1alpha1');
    assert.equal(review?.clientCN, 'orch-apiserver', 'the server presents the kubeconfig\'s client certificate');

    const refused = await admin.post(path, pod('unsigned', 'registry.example/unsigned:1'));
    assertStatus(refused, 403, 'Forbidden');
    assert.equal(refused.body.message, 'pods "unsigned" is forbidden: image policy webhook backend denied one or more images: unsigned images are not allowed');
    assert.equal((await admin.get(`${path}/unsigned`)).status, 404);
    assert.equal((await auditOf(refused)).annotations?.['imagepolicywebhook.image-policy.orch.io/signature-check'], 'failed');

    const open = await admin.post(path, pod('failed-open', 'registry.example/unreachable:1'));
    assert.equal(open.status, 201, open.text);
    assert.equal(open.body.metadata.annotations['alpha.image-policy.orch.io/failed-open'], 'true');
    assert.equal((await admin.get(`${path}/failed-open`)).body.metadata.annotations['alpha.image-policy.orch.io/failed-open'], 'true');
    assert.equal((await auditOf(open)).annotations?.['imagepolicywebhook.image-policy.orch.io/failed-open'], 'true');
  });

  test('PodNodeSelector: the namespace\'s selector (annotation, else the cluster default) is merged in; conflicts and labels outside the whitelist are refused', async () => {
    await namespace('prod-nodes', { 'scheduler.alpha.orch.io/node-selector': 'env=prod' });
    await namespace('default-nodes');
    await namespace('restricted');
    const merged = await admin.post('/api/v1/namespaces/prod-nodes/pods', pod('merged', undefined, { nodeSelector: { disk: 'ssd' } }));
    assert.equal(merged.status, 201, merged.text);
    assert.deepEqual(merged.body.spec.nodeSelector, { env: 'prod', disk: 'ssd' });
    const conflict = await admin.post('/api/v1/namespaces/prod-nodes/pods', pod('conflict', undefined, { nodeSelector: { env: 'dev' } }));
    assertStatus(conflict, 403, 'Forbidden');
    assert.equal(conflict.body.message, 'pods "conflict" is forbidden: pod node label selector conflicts with its namespace node label selector');

    const defaulted = await admin.post('/api/v1/namespaces/default-nodes/pods', pod('defaulted'));
    assert.equal(defaulted.status, 201, defaulted.text);
    assert.deepEqual(defaulted.body.spec.nodeSelector, { region: 'eu' });

    const allowed = await admin.post('/api/v1/namespaces/restricted/pods', pod('ssd', undefined, { nodeSelector: { disk: 'ssd' } }));
    assert.equal(allowed.status, 201, allowed.text);
    const outside = await admin.post('/api/v1/namespaces/restricted/pods', pod('gpu', undefined, { nodeSelector: { gpu: 'true' } }));
    assertStatus(outside, 403, 'Forbidden');
    assert.equal(outside.body.message, 'pods "gpu" is forbidden: pod node label selector labels conflict with its namespace whitelist');
  });

  test('OwnerReferencesPermissionEnforcement: owner references need delete on the object, blocking ones update on the owner\'s finalizers', async () => {
    await namespace('owners');
    const cms = '/api/v1/namespaces/owners/configmaps';
    const grant = async (name: string, rules: unknown[]) => {
      assert.equal((await admin.post(`/apis/${rbac}/v1/namespaces/owners/roles`, { metadata: { name }, rules })).status, 201);
      const binding = { metadata: { name }, roleRef: { apiGroup: rbac, kind: 'Role', name }, subjects: [{ apiGroup: rbac, kind: 'User', name: 'dev' }] };
      assert.equal((await admin.post(`/apis/${rbac}/v1/namespaces/owners/rolebindings`, binding)).status, 201);
    };
    await grant('edit-configmaps', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'create', 'update', 'patch'] }]);
    const owner = await pollUntil(() => dev.post(cms, { metadata: { name: 'owner' } }), (r) => r.status !== 403, 'dev\'s role in effect');
    assert.equal(owner.status, 201, owner.text);
    const ownerRef = (over: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid, ...over });

    const created = await dev.post(cms, { metadata: { name: 'dependent', ownerReferences: [ownerRef()] } });
    assert.equal(created.status, 201, `a create may name an owner: ${created.text}`);
    const plain = await dev.post(cms, { metadata: { name: 'plain' } });
    const adopt = await dev.put(`${cms}/plain`, { ...plain.body, metadata: { ...plain.body.metadata, ownerReferences: [ownerRef()] } });
    assertStatus(adopt, 403, 'Forbidden');
    assert.equal(adopt.body.message, 'configmaps "plain" is forbidden: cannot set an ownerRef on a resource you can\'t delete: , <nil>');
    const blocking = await dev.post(cms, { metadata: { name: 'blocking', ownerReferences: [ownerRef({ blockOwnerDeletion: true })] } });
    assertStatus(blocking, 403, 'Forbidden');
    assert.equal(blocking.body.message, 'configmaps "blocking" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>');
    const unknown = await admin.post(cms, { metadata: { name: 'widget-owned', ownerReferences: [ownerRef({ apiVersion: 'example.com/v1', kind: 'Widget', blockOwnerDeletion: true })] } });
    assert.equal(unknown.status, 201, 'who may update every finalizer is asked nothing more');

    await grant('finalize-configmaps', [{ apiGroups: [''], resources: ['configmaps/finalizers'], verbs: ['update'] }, { apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] }]);
    const nowBlocking = await pollUntil(() => dev.post(cms, { metadata: { name: 'blocking', ownerReferences: [ownerRef({ blockOwnerDeletion: true })] } }),
      (r) => r.status !== 403, 'dev\'s finalizers grant in effect');
    assert.equal(nowBlocking.status, 201, nowBlocking.text);
    const adopted = await dev.put(`${cms}/plain`, { ...plain.body, metadata: { ...plain.body.metadata, ownerReferences: [ownerRef()] } });
    assert.equal(adopted.status, 200, adopted.text);
    const noKind = await dev.post(cms, { metadata: { name: 'widget', ownerReferences: [ownerRef({ apiVersion: 'example.com/v1', kind: 'Widget', blockOwnerDeletion: true })] } });
    assertStatus(noKind, 403, 'Forbidden');
    assert.equal(noKind.body.message, 'configmaps "widget" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"');
  });
});

test('a configured plug-in without its configuration stops the server, naming it', async () => {
  await assert.rejects(
    startTestServer({ admission: { ...defaultAdmissionOptions(), plugins: { enable: ['EventRateLimit'] } } }),
    /couldn't init admission plugin "EventRateLimit": limits: Invalid value: \[\]eventratelimit\.Limit\(nil\): must not be empty/,
  );
});
