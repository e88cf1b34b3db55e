// --allow-privileged as kube-apiserver's: by default a privileged container, in a pod (regular,
// init or ephemeral) or in the pod template of any workload kind, is refused by validation with
// upstream's cause; the built binary started with --allow-privileged=true takes them. Host
// namespaces are not the flag's business.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { startBinaryServer, type BinaryServer } from './framework/binary-server.js';
import type { Client } from './framework/client.js';

const privileged = { privileged: true };
const container = (name: string, securityContext?: Record<string, unknown>) => ({ name, image: 'registry.example/app:1', ...(securityContext ? { securityContext } : {}) });
const podSpec = (extra: Record<string, unknown> = {}) => ({ containers: [container('app', privileged)], ...extra });
const template = (spec: Record<string, unknown>) => ({ metadata: { labels: { app: 'priv' } }, spec });
const selector = { matchLabels: { app: 'priv' } };

/** Each workload kind with a privileged container in its template, and where its template's containers are. */
const workloads: { path: string; body: Record<string, unknown>; at: string }[] = [
  { path: '/apis/apps/v1/namespaces/default/deployments', body: { metadata: { name: 'priv' }, spec: { selector, template: template(podSpec()) } }, at: 'spec.template.spec' },
  { path: '/apis/apps/v1/namespaces/default/replicasets', body: { metadata: { name: 'priv' }, spec: { selector, template: template(podSpec()) } }, at: 'spec.template.spec' },
  { path: '/apis/apps/v1/namespaces/default/statefulsets', body: { metadata: { name: 'priv' }, spec: { selector, serviceName: 'priv', template: template(podSpec()) } }, at: 'spec.template.spec' },
  { path: '/apis/apps/v1/namespaces/default/daemonsets', body: { metadata: { name: 'priv' }, spec: { selector, template: template(podSpec()) } }, at: 'spec.template.spec' },
  { path: '/api/v1/namespaces/default/replicationcontrollers', body: { metadata: { name: 'priv' }, spec: { selector: { app: 'priv' }, template: template(podSpec()) } }, at: 'spec.template.spec' },
  { path: '/apis/batch/v1/namespaces/default/jobs', body: { metadata: { name: 'priv' }, spec: { template: template(podSpec({ restartPolicy: 'Never' })) } }, at: 'spec.template.spec' },
  { path: '/apis/batch/v1/namespaces/default/cronjobs', body: { metadata: { name: 'priv' }, spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: template(podSpec({ restartPolicy: 'OnFailure' })) } } } }, at: 'spec.jobTemplate.spec.template.spec' },
];

describe('without --allow-privileged (the default)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('a privileged pod is refused with upstream\'s cause for each privileged container, and nothing is stored', async () => {
    const r = await t.client.post('/api/v1/namespaces/default/pods', { metadata: { name: 'priv' }, spec: podSpec({ initContainers: [container('init', privileged)] }) });
    assertStatus(r, 422, 'Invalid');
    assert.equal(r.body.message, 'Pod "priv" is invalid: [spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy, spec.initContainers[0].securityContext.privileged: Forbidden: disallowed by cluster policy]');
    assert.deepEqual(r.body.details.causes, [
      { reason: 'FieldValueForbidden', message: 'Forbidden: disallowed by cluster policy', field: 'spec.containers[0].securityContext.privileged' },
      { reason: 'FieldValueForbidden', message: 'Forbidden: disallowed by cluster policy', field: 'spec.initContainers[0].securityContext.privileged' },
    ]);
    assert.equal((await t.client.get('/api/v1/namespaces/default/pods/priv')).status, 404);
  });

  test('an unprivileged pod, and one using the host\'s namespaces, are created; a privileged ephemeral container is refused', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    const plain = await t.client.post(pods, { metadata: { name: 'plain' }, spec: { containers: [container('app', { privileged: false })], hostNetwork: true, hostPID: true, hostIPC: true } });
    assert.equal(plain.status, 201, plain.text);
    const debug = { ...plain.body, spec: { ...plain.body.spec, ephemeralContainers: [{ ...container('debug', privileged), terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }] } };
    const r = await t.client.put(`${pods}/plain/ephemeralcontainers`, debug);
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(r.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), ['spec.ephemeralContainers[0].securityContext.privileged: Forbidden: disallowed by cluster policy']);
  });

  test('every workload kind with a privileged container in its pod template is refused at the template\'s path', async () => {
    for (const w of workloads) {
      const r = await t.client.post(w.path, w.body);
      assertStatus(r, 422, 'Invalid', w.path);
      const causes = r.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
      assert.deepEqual(causes, [`${w.at}.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy`], w.path);
    }
  });
});

describe('the binary with --allow-privileged=true', () => {
  let s: BinaryServer;
  let client: Client;
  before(async () => {
    s = await startBinaryServer({ workers: 1, args: ['--allow-privileged=true'] });
    client = s.client;
    await ensureDefaultServiceAccount(client, 'default');
  });
  after(async () => s?.stop());

  test('privileged pods and workloads with privileged templates are created', async () => {
    const pod = await client.post('/api/v1/namespaces/default/pods', { metadata: { name: 'priv' }, spec: podSpec({ initContainers: [container('init', privileged)] }) });
    assert.equal(pod.status, 201, pod.text);
    assert.equal(pod.body.spec.containers[0].securityContext.privileged, true);
    for (const w of workloads) {
      const r = await client.post(w.path, w.body);
      assert.equal(r.status, 201, `${w.path}: ${r.text}`);
    }
  });
});
