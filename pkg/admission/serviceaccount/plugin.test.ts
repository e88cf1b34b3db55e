import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain } from '../../../api/domain.js';
import { StatusError } from '../../runtime/errors.js';
import { staticDeps, staticLister } from '../testing/deps.js';
import { podAttrs } from '../testing/attrs.js';
import { serviceAccountFactory, ServiceAccountPlugin } from './plugin.js';
import type { ObjectLister } from '../interfaces.js';

const domain = apiDomain('orch.io');
const mountPath = '/var/run/secrets/orch.io/serviceaccount';
const sa = (name: string, extra: Record<string, unknown> = {}, ns = 'ns') =>
  ({ ...extra, metadata: { name, namespace: ns, ...((extra['metadata'] as object | undefined) ?? {}) } });
const plugin = (accounts: Record<string, unknown>[], lister?: ObjectLister) =>
  new ServiceAccountPlugin(domain, lister ?? staticLister(accounts), { retryDelayMs: 1 }, () => 'abcde');
const pod = (spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) =>
  ({ metadata: { name: 'p', ...meta }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });

async function refusal(p: Promise<void>): Promise<StatusError> {
  try { await p; } catch (e) { assert.ok(e instanceof StatusError); return e; }
  assert.fail('expected a refusal');
}

test('a pod without an account gets default, the token volume and a read-only mount in init and regular containers', async () => {
  const obj = pod({ initContainers: [{ name: 'i', image: 'i' }], ephemeralContainers: [{ name: 'e', image: 'i' }] });
  const a = podAttrs({ object: obj });
  await plugin([sa('default')]).admit(a);
  const spec = obj.spec as Record<string, any>;
  assert.equal(spec.serviceAccountName, 'default');
  assert.deepEqual(spec.volumes, [{
    name: 'kube-api-access-abcde',
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  }]);
  const mount = { name: 'kube-api-access-abcde', readOnly: true, mountPath };
  assert.deepEqual(spec.containers[0].volumeMounts, [mount]);
  assert.deepEqual(spec.initContainers[0].volumeMounts, [mount]);
  assert.equal(spec.ephemeralContainers[0].volumeMounts, undefined);
});

test('the random suffix is five characters of upstream\'s alphabet', async () => {
  const obj = pod();
  await new ServiceAccountPlugin(domain, staticLister([sa('default')])).admit(podAttrs({ object: obj }));
  assert.match((obj.spec as any).volumes[0].name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
});

test('the mount path follows the key domain (kubernetes.io for k8s.io)', async () => {
  const obj = pod();
  await new ServiceAccountPlugin(apiDomain('k8s.io'), staticLister([sa('default')])).admit(podAttrs({ object: obj }));
  assert.equal((obj.spec as any).containers[0].volumeMounts[0].mountPath, '/var/run/secrets/kubernetes.io/serviceaccount');
});

test('a container that already mounts something at the path is left alone; no container needing it, no volume', async () => {
  const own = { name: 'mine', mountPath };
  const obj = pod({ containers: [{ name: 'c', volumeMounts: [own] }], volumes: [{ name: 'mine', emptyDir: {} }] });
  await plugin([sa('default')]).admit(podAttrs({ object: obj }));
  assert.deepEqual((obj.spec as any).containers[0].volumeMounts, [own]);
  assert.deepEqual((obj.spec as any).volumes, [{ name: 'mine', emptyDir: {} }]);
});

test('an existing kube-api-access- volume is reused rather than a second one added', async () => {
  const vol = { name: 'kube-api-access-zzzzz', projected: { sources: [] } };
  const obj = pod({ volumes: [vol] });
  await plugin([sa('default')]).admit(podAttrs({ object: obj }));
  assert.deepEqual((obj.spec as any).volumes, [vol]);
  assert.equal((obj.spec as any).containers[0].volumeMounts[0].name, 'kube-api-access-zzzzz');
});

test('automount: the pod\'s false wins; else the account\'s false; the pod\'s true beats the account\'s false', async () => {
  const off = pod({ automountServiceAccountToken: false });
  await plugin([sa('default')]).admit(podAttrs({ object: off }));
  assert.equal((off.spec as any).volumes, undefined);
  assert.equal((off.spec as any).serviceAccountName, 'default');

  const saOff = pod({ serviceAccountName: 'quiet' });
  await plugin([sa('quiet', { automountServiceAccountToken: false })]).admit(podAttrs({ object: saOff }));
  assert.equal((saOff.spec as any).volumes, undefined);

  const podOn = pod({ serviceAccountName: 'quiet', automountServiceAccountToken: true });
  await plugin([sa('quiet', { automountServiceAccountToken: false })]).admit(podAttrs({ object: podOn }));
  assert.equal((podOn.spec as any).volumes.length, 1);
});

test('a missing account is refused 403 with upstream\'s message, after a live read', async () => {
  const e = await refusal(plugin([]).admit(podAttrs({ object: pod({ serviceAccountName: 'robot' }) })));
  assert.equal(e.code, 403);
  assert.equal(e.reason, 'Forbidden');
  assert.equal(e.message, 'pods "p" is forbidden: error looking up service account ns/robot: serviceaccount "robot" not found');
  const d = await refusal(plugin([]).admit(podAttrs({ object: pod() })));
  assert.match(d.message, /error looking up service account ns\/default: serviceaccount "default" not found$/);
  // An account in another namespace does not count.
  await refusal(plugin([sa('robot', {}, 'other')]).admit(podAttrs({ object: pod({ serviceAccountName: 'robot' }) })));
});

test('an account the cache has not seen yet is found by the live read; default is retried', async () => {
  let fetches = 0;
  const account = sa('default');
  const lister: ObjectLister = {
    get: () => undefined,
    list: () => [],
    fetch: async () => (++fetches >= 3 ? account : undefined),
  };
  const obj = pod();
  await plugin([], lister).admit(podAttrs({ object: obj }));
  assert.equal(fetches, 4, 'admit reads until the third answer; its own validation reads once more');
  assert.equal((obj.spec as any).volumes.length, 1);
  fetches = 0;
  await refusal(plugin([], { ...lister, fetch: async () => { fetches++; return undefined; } }).admit(podAttrs({ object: pod({ serviceAccountName: 'x' }) })));
  assert.equal(fetches, 1, 'a named account is read live once');
});

test('image pull secrets are copied from the account only when the pod has none', async () => {
  const account = sa('default', { imagePullSecrets: [{ name: 'reg' }] });
  const a = pod();
  await plugin([account]).admit(podAttrs({ object: a }));
  assert.deepEqual((a.spec as any).imagePullSecrets, [{ name: 'reg' }]);
  const b = pod({ imagePullSecrets: [{ name: 'mine' }] });
  await plugin([account]).admit(podAttrs({ object: b }));
  assert.deepEqual((b.spec as any).imagePullSecrets, [{ name: 'mine' }]);
});

test('mirror pods are not changed, but may not name an account, secrets or token projections', async () => {
  const mirror = { 'orch.io/config.mirror': 'x' };
  const clean = pod({}, { annotations: mirror });
  const before = structuredClone(clean);
  await plugin([]).admit(podAttrs({ object: clean }));
  assert.deepEqual(clean, before);

  const cases: [Record<string, unknown>, string][] = [
    [{ serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
    [{ volumes: [{ name: 's', secret: { secretName: 's' } }] }, 'a mirror pod may not reference secrets'],
    [{ imagePullSecrets: [{ name: 'reg' }] }, 'a mirror pod may not reference secrets'],
    [{ containers: [{ name: 'c', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }] }, 'a mirror pod may not reference secrets'],
    [{ volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }] }, 'a mirror pod may not use ServiceAccountToken volume projections'],
  ];
  for (const [spec, msg] of cases) {
    const e = await refusal(plugin([sa('default')]).admit(podAttrs({ object: pod(spec, { annotations: mirror }) })));
    assert.equal(e.message, `pods "p" is forbidden: ${msg}`);
  }
  // The upstream key does not make a pod a mirror pod on orch.io.
  const notMirror = pod({}, { annotations: { 'kubernetes.io/config.mirror': 'x' } });
  await plugin([sa('default')]).admit(podAttrs({ object: notMirror }));
  assert.equal((notMirror.spec as any).serviceAccountName, 'default');
});

test('enforce-mountable-secrets: only listed secrets in volumes, env and pull secrets', async () => {
  const account = sa('robot', { metadata: { annotations: { 'orch.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'ok' }], imagePullSecrets: [{ name: 'reg' }] });
  const admitted = pod({ serviceAccountName: 'robot', volumes: [{ name: 'v', secret: { secretName: 'ok' } }], imagePullSecrets: [{ name: 'reg' }] });
  await plugin([account]).admit(podAttrs({ object: admitted }));

  const cases: [Record<string, unknown>, string][] = [
    [{ volumes: [{ name: 'v', secret: { secretName: 'nope' } }] }, 'volume with secret.secretName="nope" is not allowed because service account robot does not reference that secret'],
    [{ initContainers: [{ name: 'i', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }] }] }, 'init container i with envVar E referencing secret.secretName="nope" is not allowed because service account robot does not reference that secret'],
    [{ containers: [{ name: 'c', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }] }] }, 'container c with envVar E referencing secret.secretName="nope" is not allowed because service account robot does not reference that secret'],
    [{ imagePullSecrets: [{ name: 'reg' }, { name: 'other' }] }, 'imagePullSecrets[1].name="other" is not allowed because service account robot does not reference that imagePullSecret'],
  ];
  for (const [spec, msg] of cases) {
    const e = await refusal(plugin([account]).admit(podAttrs({ object: pod({ serviceAccountName: 'robot', ...spec }) })));
    assert.equal(e.message, `pods "p" is forbidden: ${msg}`);
  }
  // Without the annotation (or with a false value) anything goes.
  const lax = sa('robot', { metadata: { annotations: { 'orch.io/enforce-mountable-secrets': 'false' } } });
  await plugin([lax]).admit(podAttrs({ object: pod({ serviceAccountName: 'robot', volumes: [{ name: 'v', secret: { secretName: 'nope' } }] }) }));
});

test('ephemeral containers added later are held to the enforced secrets; other updates pass', async () => {
  const account = sa('robot', { metadata: { annotations: { 'orch.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'ok' }] });
  const p = pod({ serviceAccountName: 'robot', ephemeralContainers: [{ name: 'dbg', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'nope' } } }] }] });
  const e = await refusal(plugin([account]).validate(podAttrs({ operation: 'UPDATE', subresource: 'ephemeralcontainers', object: p, oldObject: p })));
  assert.equal(e.message, 'pods "p" is forbidden: ephemeral container dbg with envVar E referencing secret.secretName="nope" is not allowed because service account robot does not reference that secret');
  await plugin([account]).validate(podAttrs({ operation: 'UPDATE', object: p, oldObject: p }));
  await plugin([account]).admit(podAttrs({ operation: 'UPDATE', subresource: 'ephemeralcontainers', object: p, oldObject: p }));
});

test('validate refuses a pod that reached it without an account', async () => {
  const e = await refusal(plugin([sa('default')]).validate(podAttrs({ object: { metadata: { name: 'p' }, spec: { containers: [] } } })));
  assert.equal(e.message, 'pods "p" is forbidden: no service account specified for pod ns/p');
});

test('other resources, sub-resources, and deletes are left alone; dryRun mutates the same way', async () => {
  const p = plugin([]);
  const obj = pod();
  await p.admit(podAttrs({ subresource: 'status', operation: 'UPDATE', object: obj, oldObject: obj }));
  await p.admit(podAttrs({ subresource: 'binding', object: { metadata: { name: 'p' } } }));
  await p.admit(podAttrs({ resource: { group: '', version: 'v1', resource: 'configmaps' }, kind: { group: '', version: 'v1', kind: 'ConfigMap' }, object: { metadata: { name: 'c' } } }));
  assert.equal((obj.spec as any).serviceAccountName, undefined);
  assert.ok(!p.handles('DELETE') && !p.handles('CONNECT') && p.handles('CREATE') && p.handles('UPDATE'));
  const dry = pod();
  await plugin([sa('default')]).admit(podAttrs({ object: dry, dryRun: true }));
  assert.equal((dry.spec as any).volumes.length, 1);
});

test('the factory reads service accounts from the core lister', async () => {
  const p = serviceAccountFactory(undefined, staticDeps({ '/serviceaccounts': [sa('default')] })) as ServiceAccountPlugin;
  assert.equal(p.name, 'ServiceAccount');
  await p.admit(podAttrs({ object: pod() }));
  assert.throws(() => serviceAccountFactory(undefined, { domain, lister: () => undefined }), /missing serviceAccountLister/);
});
