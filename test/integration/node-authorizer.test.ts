// The Node authorizer through the real server, as kubeadm runs it (--authorization-mode=Node,RBAC
// with NodeRestriction): two node agents authenticate with client certificates of the cluster CA
// (CN system:node:<name>, O system:nodes) and may do what a kubelet does and no more. Their
// access to secrets, config maps, claims and volumes follows the pods bound to them, as the
// server's pod and PV caches report those pods (so every change is awaited by polling).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAdmissionOptions } from '../../cmd/apiserver/app/admission-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { createTestCA } from '../../pkg/authentication/testing/pki.js';
import { generateTestKeyPair, tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { domainOf, pollUntil, requestToken } from './framework/authentication.js';
import type { Client, Response } from './framework/client.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

const adminToken = 'node-authz-admin';
const ns = 'node-app';
const leases = 'orch-node-lease';
const forbidden = (r: Response, message: string) => {
  assertStatus(r, 403, 'Forbidden');
  assert.equal(r.body.message, message);
};
const noRelation = (resource: string, name: string, node = 'n1') =>
  `${resource} "${name}" is forbidden: User "system:node:${node}" cannot get resource "${resource}" in API group "" in the namespace "${ns}": no relationship found between node '${node}' and this object`;

describe('the Node authorizer (--authorization-mode=Node,RBAC with NodeRestriction)', () => {
  const files = tempFiles('orch-node-authz-');
  const ca = createTestCA('cluster-ca');
  const creds = (node: string) => ca.issue({ commonName: `system:node:${node}`, organizations: ['system:nodes'] });
  const n1Cert = creds('n1');
  let t: TestServer;
  let admin: Client;
  let n1: Client;
  let n2: Client;
  let kubeconfig: Kubeconfig;
  let coordination: string;

  /** A pod bound to `node` at creation ('' for none yet). */
  const podOn = (name: string, node: string, spec: Record<string, unknown> = {}) => ({
    metadata: { name }, spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: 'app', image: 'busybox' }], ...spec },
  });
  const create = async (path: string, body: unknown) => {
    const r = await admin.post(path, body);
    assert.equal(r.status, 201, r.text);
    return r.body;
  };
  /** Waits until the node's request is answered with `status`: the graph follows the pod cache. */
  const eventually = (what: string, request: () => Promise<Response>, status: number) =>
    pollUntil(request, (r) => r.status === status, what, 20_000);

  before(async () => {
    const signing = generateTestKeyPair('rsa');
    t = await startTestServer({
      authentication: {
        ...defaultAuthenticationOptions(),
        clientCAFile: files.write('ca.crt', ca.cert),
        tokenAuthFile: files.write('tokens.csv', `${adminToken},admin,1,"system:masters"\n`),
        serviceAccountIssuers: ['https://issuer.example.test'],
        serviceAccountSigningKeyFile: files.write('sa.key', signing.pkcs8Pem),
        serviceAccountKeyFiles: [files.write('sa.pub', signing.publicPem)],
      },
      authorization: { ...defaultAuthorizationOptions(), modes: ['Node', 'RBAC'] },
      admission: { ...defaultAdmissionOptions(), plugins: { enable: ['NodeRestriction'] } },
    });
    admin = t.client.withToken(adminToken);
    n1 = t.client.withCredentials({ tls: n1Cert });
    n2 = t.client.withCredentials({ tls: creds('n2') });
    coordination = domainOf(t).group('coordination');
    kubeconfig = writeKubeconfig(t, n1Cert);
    await create('/api/v1/namespaces', { metadata: { name: ns } });
    await ensureDefaultServiceAccount(admin, ns);
    await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'runner' } });
    await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'other-runner' } });
    for (const name of ['mine', 'unrelated', 'later']) await create(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name }, data: { k: 'dg==' } });
    for (const name of ['cm', 'other-cm']) await create(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data: { k: 'v' } });
    for (const name of ['data', 'other-data']) {
      await create(`/api/v1/namespaces/${ns}/persistentvolumeclaims`, { metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    }
    await create(`/api/v1/namespaces/${ns}/pods`, podOn('web', 'n1', {
      serviceAccountName: 'runner',
      containers: [{ name: 'app', image: 'busybox', envFrom: [{ secretRef: { name: 'mine' } }] }],
      volumes: [{ name: 'conf', configMap: { name: 'cm' } }, { name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
    }));
    await create(`/api/v1/namespaces/${ns}/pods`, podOn('elsewhere', 'n2', {
      serviceAccountName: 'other-runner', volumes: [{ name: 'conf', configMap: { name: 'other-cm' } }],
    }));
  });
  after(async () => {
    kubeconfig?.remove();
    await t?.stop();
    files.remove();
  });

  test('a node registers its own Node, reads it and reports its status; another node\'s Node it may not change', async () => {
    const r = await n1.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    assert.equal(r.status, 201, r.text);
    assert.equal((await n2.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' } })).status, 201);
    forbidden(await n1.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n3' } }),
      'nodes "n3" is forbidden: node "n1" is not allowed to modify node "n3"');
    const got = await n1.get('/api/v1/nodes/n1');
    assert.equal(got.status, 200, got.text);
    const ready = { status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] } };
    const patched = await n1.patch('/api/v1/nodes/n1/status', ready);
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.status.conditions[0].reason, 'KubeletReady');
    forbidden(await n1.patch('/api/v1/nodes/n2/status', ready), 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    forbidden(await n1.delete('/api/v1/nodes/n1'),
      'nodes "n1" is forbidden: User "system:node:n1" cannot delete resource "nodes" in API group "" at the cluster scope');
  });

  test('a node reads the secrets, config maps, claims and volumes its pods refer to, and nothing else', async () => {
    const secrets = `/api/v1/namespaces/${ns}/secrets`;
    await eventually('n1 to read the secret its pod refers to', () => n1.get(`${secrets}/mine`), 200);
    assert.equal((await n1.get(`/api/v1/namespaces/${ns}/configmaps/cm`)).status, 200);
    assert.equal((await n1.get(`/api/v1/namespaces/${ns}/persistentvolumeclaims/data`)).status, 200);
    forbidden(await n1.get(`${secrets}/unrelated`), noRelation('secrets', 'unrelated'));
    forbidden(await n1.get(`/api/v1/namespaces/${ns}/configmaps/other-cm`), noRelation('configmaps', 'other-cm'));
    forbidden(await n2.get(`${secrets}/mine`), noRelation('secrets', 'mine', 'n2'));
    assert.equal((await n2.get(`/api/v1/namespaces/${ns}/configmaps/other-cm`)).status, 200);
    // The kubelet watches each secret alone, by field selector; all secrets it may not list.
    const watch = await n1.get(`${secrets}?fieldSelector=metadata.name%3Dmine&watch=true&timeoutSeconds=1`);
    assert.equal(watch.status, 200, watch.text);
    assert.match(watch.text, /"name":"mine"/);
    forbidden(await n1.get(`${secrets}?fieldSelector=metadata.name%3Dunrelated`),
      `secrets "unrelated" is forbidden: User "system:node:n1" cannot list resource "secrets" in API group "" in the namespace "${ns}": no relationship found between node 'n1' and this object`);
    forbidden(await n1.get(secrets),
      `secrets is forbidden: User "system:node:n1" cannot list resource "secrets" in API group "" in the namespace "${ns}": No Object name found`);
    forbidden(await n1.put(`${secrets}/mine`, { metadata: { name: 'mine' } }),
      `secrets "mine" is forbidden: User "system:node:n1" cannot update resource "secrets" in API group "" in the namespace "${ns}": can only read resources of this type`);

    // A PV bound to the claim of n1's pod, with a secret of its own.
    await create('/api/v1/persistentvolumes', {
      metadata: { name: 'pv-data' },
      spec: {
        capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], claimRef: { namespace: ns, name: 'data' },
        csi: { driver: 'csi.example.com', volumeHandle: 'h', nodePublishSecretRef: { namespace: ns, name: 'later' } },
      },
    });
    await eventually('n1 to read the PV bound to its pod\'s claim', () => n1.get('/api/v1/persistentvolumes/pv-data'), 200);
    assert.equal((await n1.get(`${secrets}/later`)).status, 200, 'the PV\'s node publish secret');
    forbidden(await n2.get('/api/v1/persistentvolumes/pv-data'),
      'persistentvolumes "pv-data" is forbidden: User "system:node:n2" cannot get resource "persistentvolumes" in API group "" at the cluster scope: no relationship found between node \'n2\' and this object');
    // Released from the claim, the PV and its secret are out of n1's reach again.
    const released = await admin.patch('/api/v1/persistentvolumes/pv-data', { spec: { claimRef: null } });
    assert.equal(released.status, 200, released.text);
    await eventually('the released PV\'s secret to be out of n1\'s reach', () => n1.get(`${secrets}/later`), 403);
    forbidden(await n1.get('/api/v1/persistentvolumes/pv-data'),
      'persistentvolumes "pv-data" is forbidden: User "system:node:n1" cannot get resource "persistentvolumes" in API group "" at the cluster scope: no relationship found between node \'n1\' and this object');
  });

  test('a node gains a secret when a pod referring to it is bound to it, and loses it when the pod goes', async () => {
    const unrelated = `/api/v1/namespaces/${ns}/secrets/unrelated`;
    forbidden(await n1.get(unrelated), noRelation('secrets', 'unrelated'));
    await create(`/api/v1/namespaces/${ns}/pods`, podOn('uses-it', '', { volumes: [{ name: 's', secret: { secretName: 'unrelated' } }] }));
    // Bound by the scheduler's way: a Binding.
    const bound = await admin.post(`/api/v1/namespaces/${ns}/pods/uses-it/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'uses-it' }, target: { apiVersion: 'v1', kind: 'Node', name: 'n1' } });
    assert.equal(bound.status, 201, bound.text);
    const got = await eventually('n1 to read the secret of the pod bound to it', () => n1.get(unrelated), 200);
    assert.equal(got.body.data.k, 'dg==');
    assert.equal((await admin.delete(`/api/v1/namespaces/${ns}/pods/uses-it`)).status, 200);
    const gone = await eventually('n1 to lose the secret with the pod', () => n1.get(unrelated), 403);
    forbidden(gone, noRelation('secrets', 'unrelated'));
    assert.equal((await n1.get(`/api/v1/namespaces/${ns}/secrets/mine`)).status, 200, 'what its other pod refers to stays');
  });

  test('a node updates the status of its pods and not of other nodes\' pods', async () => {
    const status = (phase: string) => ({ status: { phase, conditions: [{ type: 'Ready', status: 'True' }] } });
    const r = await n1.patch(`/api/v1/namespaces/${ns}/pods/web/status`, status('Running'));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status.phase, 'Running');
    forbidden(await n1.patch(`/api/v1/namespaces/${ns}/pods/elsewhere/status`, status('Running')),
      `pods "elsewhere" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself`);
    forbidden(await n1.patch(`/api/v1/namespaces/${ns}/pods/web`, { metadata: { labels: { a: 'b' } } }),
      `pods "web" is forbidden: User "system:node:n1" cannot patch resource "pods" in API group "" in the namespace "${ns}"`);
  });

  test('a node asks for tokens of its pods\' service accounts, bound to those pods, and no others', async () => {
    const web = await admin.get(`/api/v1/namespaces/${ns}/pods/web`);
    const boundTo = (name: string, uid: string) => ({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name, uid } });
    const r = await requestToken(t, n1, ns, 'runner', boundTo('web', web.body.metadata.uid));
    assert.equal(r.status, 201, r.text);
    assert.equal(typeof r.body.status.token, 'string');
    forbidden(await requestToken(t, n1, ns, 'other-runner', boundTo('web', web.body.metadata.uid)),
      `serviceaccounts "other-runner" is forbidden: User "system:node:n1" cannot create resource "serviceaccounts/token" in API group "" in the namespace "${ns}": no relationship found between node 'n1' and this object`);
    forbidden(await requestToken(t, n1, ns, 'runner'), `serviceaccounts "runner" is forbidden: node requested token not bound to a pod`);
  });

  test('a node creates and renews its own Lease, and not another node\'s', async () => {
    const path = `/apis/${coordination}/v1/namespaces/${leases}/leases`;
    const lease = (name: string, renewTime: string) => ({ apiVersion: `${coordination}/v1`, kind: 'Lease', metadata: { name }, spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime } });
    const created = await n1.post(path, lease('n1', '2026-01-01T00:00:00.000000Z'));
    assert.equal(created.status, 201, created.text);
    const renewed = await n1.put(`${path}/n1`, { ...lease('n1', '2026-01-01T00:00:10.000000Z'), metadata: { name: 'n1', resourceVersion: created.body.metadata.resourceVersion } });
    assert.equal(renewed.status, 200, renewed.text);
    assert.equal(renewed.body.spec.renewTime, '2026-01-01T00:00:10.000000Z');
    forbidden(await n1.post(path, lease('n2', '2026-01-01T00:00:00.000000Z')),
      `leases.${coordination} "n2" is forbidden: can only access node lease with the same name as the requesting node`);
    assert.equal((await n2.post(path, lease('n2', '2026-01-01T00:00:00.000000Z'))).status, 201);
    forbidden(await n1.put(`${path}/n2`, lease('n2', '2026-01-01T00:00:10.000000Z')),
      `leases.${coordination} "n2" is forbidden: User "system:node:n1" cannot update resource "leases" in API group "${coordination}" in the namespace "${leases}": can only access node lease with the same name as the requesting node`);
    forbidden(await n1.get(`/apis/${coordination}/v1/namespaces/default/leases/n1`),
      `leases.${coordination} "n1" is forbidden: User "system:node:n1" cannot get resource "leases" in API group "${coordination}" in the namespace "default": can only access leases in the "${leases}" system namespace`);
  });

  test('only node identities are the Node authorizer\'s: one in system:nodes that names no node is refused, as upstream', async () => {
    const nameless = t.client.withCredentials({ tls: creds('') });
    forbidden(await nameless.get('/api/v1/nodes'),
      'nodes is forbidden: User "system:node:" cannot list resource "nodes" in API group "" at the cluster scope: unknown node for user "system:node:"');
    // In the group but not named as a node, or named as a node outside the group: RBAC alone decides.
    const impostor = t.client.withCredentials({ tls: ca.issue({ commonName: 'n1', organizations: ['system:nodes'] }) });
    forbidden(await impostor.get('/api/v1/nodes'), 'nodes is forbidden: User "n1" cannot list resource "nodes" in API group "" at the cluster scope');
    const groupless = t.client.withCredentials({ tls: ca.issue({ commonName: 'system:node:n1' }) });
    forbidden(await groupless.get(`/api/v1/namespaces/${ns}/secrets/mine`),
      `secrets "mine" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "${ns}"`);
  });

  test('stock kubectl with the node\'s kubeconfig lists nodes and its pods as a kubelet does, and no secrets', async () => {
    const kubectl = new Kubectl(kubeconfig);
    const nodes = await kubectl.ok(['get', 'nodes', '-o', 'name']);
    assert.match(nodes.stdout, /node\/n1/);
    assert.match(nodes.stdout, /node\/n2/);
    const pods = await kubectl.ok(['get', 'pods', '--all-namespaces', '--field-selector', 'spec.nodeName=n1', '-o', 'name']);
    assert.equal(pods.stdout.trim(), 'pod/web');
    assert.match((await kubectl.ok(['get', 'secret', 'mine', '-n', ns, '-o', 'name'])).stdout, /secret\/mine/);
    const listed = await kubectl.run(['get', 'secrets', '-n', ns]);
    assert.notEqual(listed.code, 0);
    assert.match(listed.stderr, /Error from server \(Forbidden\): secrets is forbidden: User "system:node:n1" cannot list resource "secrets" in API group "" in the namespace "node-app": No Object name found/);
  });
});
