import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiDomain } from '../../../api/domain.js';
import { isStatusError, type StatusError } from '../../runtime/errors.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, Operation } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { imagesOf, startImagePolicyWebhook, type TestImagePolicyWebhook } from '../testing/image-policy-webhook.js';
import { loadConfiguration, type ImagePolicyConfig } from './config.js';
import { ImagePolicyWebhook, imagePolicyWebhookFactory } from './plugin.js';

const pod = (images: string[], annotations?: Record<string, string>, extra: Record<string, unknown> = {}): AdmissionObject => ({
  metadata: { name: 'p', ...(annotations ? { annotations } : {}) },
  spec: { containers: images.map((image, i) => ({ name: `c${i}`, image })), ...extra },
});
const config = (over: Partial<ImagePolicyConfig> = {}): ImagePolicyConfig =>
  ({ kubeConfigFile: 'unused', allowTTLMs: 300_000, denyTTLMs: 30_000, retryBackoffMs: 1, defaultAllow: false, ...over });

async function outcome(p: ImagePolicyWebhook, object: AdmissionObject, over: { subresource?: string; operation?: Operation; resource?: string } = {}) {
  const attrs = podAttrs({ object, name: 'p', ...(over.subresource ? { subresource: over.subresource } : {}), operation: over.operation ?? 'CREATE',
    ...(over.resource ? { resource: { group: '', version: 'v1', resource: over.resource } } : {}) });
  try {
    await p.validate(attrs);
    return { attrs, err: undefined as StatusError | undefined };
  } catch (e) {
    assert.ok(isStatusError(e), String(e));
    return { attrs, err: e };
  }
}

describe('ImagePolicyWebhook against a real HTTPS webhook', () => {
  let hook: TestImagePolicyWebhook;
  const plugins: ImagePolicyWebhook[] = [];
  const clock = { now: 0 };
  const make = (over: Partial<ImagePolicyConfig> = {}, domain = 'orch.io') => {
    const p = new ImagePolicyWebhook(config(over), staticDeps({}, apiDomain(domain)), { client: hook.client, now: () => clock.now });
    plugins.push(p);
    return p;
  };
  before(async () => {
    hook = await startImagePolicyWebhook();
  });
  after(async () => {
    for (const p of plugins) p.close();
    await hook?.close();
  });

  test('registered; validating only, on creates and updates', () => {
    assert.ok(builtinPlugins().has('ImagePolicyWebhook'));
    const p = make();
    assert.equal('admit' in p, false);
    assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as Operation[]).map((o) => p.handles(o)), [true, true, false, false]);
  });

  test('the review carries the images, the image-policy annotations and the namespace; an allowed pod passes', async () => {
    hook.decide(() => ({ allowed: true }));
    const before = hook.reviews().length;
    const annotations = { 'a.image-policy.orch.io/ticket': 'T-1', 'image-policy.orch.io/no-prefix': 'x', 'other.example/key': 'y' };
    const { err } = await outcome(make(), pod(['registry.example/app:1', 'registry.example/sidecar:2'], annotations, { initContainers: [{ name: 'init', image: 'registry.example/init:1' }] }));
    assert.equal(err, undefined);
    const [review] = hook.reviews().slice(before);
    assert.deepEqual(review, {
      apiVersion: 'imagepolicy.orch.io/v1alpha1', kind: 'ImageReview', metadata: { creationTimestamp: null },
      spec: { containers: [{ image: 'registry.example/app:1' }, { image: 'registry.example/sidecar:2' }, { image: 'registry.example/init:1' }], annotations: { 'a.image-policy.orch.io/ticket': 'T-1' }, namespace: 'ns' },
      status: { allowed: false }, clientCN: 'orch-apiserver',
    });
  });

  test('a denial is refused with upstream\'s message, with or without a reason; audit annotations are recorded either way', async () => {
    hook.decide((r) => imagesOf(r).includes('bad:1')
      ? { allowed: false, reason: 'bad:1 is not signed', auditAnnotations: { 'signature-check': 'failed' } }
      : { allowed: false });
    const p = make();
    const denied = await outcome(p, pod(['bad:1']));
    assert.equal(denied.err?.code, 403);
    assert.equal(denied.err?.message, 'pods "p" is forbidden: image policy webhook backend denied one or more images: bad:1 is not signed');
    assert.deepEqual(denied.attrs.annotations(), { 'imagepolicywebhook.image-policy.orch.io/signature-check': 'failed' });
    const bare = await outcome(p, pod(['worse:1']), { operation: 'UPDATE' });
    assert.equal(bare.err?.message, 'pods "p" is forbidden: one or more images rejected by webhook backend');
  });

  test('answers are cached by the whole review, allowed ones for allowTTL and denials for denyTTL', async () => {
    let allow = true;
    hook.decide(() => ({ allowed: allow, auditAnnotations: { answered: String(allow) } }));
    const p = make({ allowTTLMs: 10_000, denyTTLMs: 2_000 });
    const count = () => hook.reviews().length;
    const start = count();
    assert.equal((await outcome(p, pod(['cached:1']))).err, undefined);
    allow = false;
    const hit = await outcome(p, pod(['cached:1']));
    assert.equal(hit.err, undefined, 'the cached allow still counts');
    assert.deepEqual(hit.attrs.annotations(), { 'imagepolicywebhook.image-policy.orch.io/answered': 'true' }, 'a cached answer still records its audit annotations');
    assert.equal(count(), start + 1);
    assert.ok((await outcome(p, pod(['cached:1'], { 'x.image-policy.orch.io/why': 'new' }))).err, 'another annotation is another review');
    assert.equal(count(), start + 2);
    clock.now += 10_000;
    assert.ok((await outcome(p, pod(['cached:1']))).err, 'the allowed answer expired');
    allow = true;
    clock.now += 1_999;
    assert.ok((await outcome(p, pod(['cached:1']))).err, 'the denial is still cached');
    clock.now += 1;
    assert.equal((await outcome(p, pod(['cached:1']))).err, undefined);
    assert.equal(count(), start + 4);
    // A TTL of -1 (0 here) caches nothing.
    const uncached = make({ allowTTLMs: 0 });
    await outcome(uncached, pod(['cached:1']));
    await outcome(uncached, pod(['cached:1']));
    assert.equal(count(), start + 6);
  });

  test('a webhook that fails is retried, then refuses the pod, or with defaultAllow admits it marked failed-open', async () => {
    let failures = 2;
    hook.decide(() => (failures-- > 0 ? { httpStatus: 500 } : { allowed: true }));
    const start = hook.reviews().length;
    assert.equal((await outcome(make(), pod(['flaky:1']))).err, undefined, 'two 500s, then an answer');
    assert.equal(hook.reviews().length - start, 3);
    hook.decide(() => ({ httpStatus: 500 }));
    const closed = await outcome(make(), pod(['down:1']));
    assert.equal(closed.err?.code, 403);
    assert.equal(closed.err?.message, 'pods "p" is forbidden: an error on the server ("the image policy service is not available") has prevented the request from succeeding');
    const object = pod(['down:1'], { keep: 'me' });
    const open = await outcome(make({ defaultAllow: true }), object);
    assert.equal(open.err, undefined);
    assert.deepEqual((object['metadata'] as { annotations: unknown }).annotations, { keep: 'me', 'alpha.image-policy.orch.io/failed-open': 'true' });
    assert.deepEqual(open.attrs.annotations(), { 'imagepolicywebhook.image-policy.orch.io/failed-open': 'true' });
    // A 4xx is not retried; a malformed answer is a failure too.
    hook.decide(() => ({ httpStatus: 403 }));
    const s = hook.reviews().length;
    assert.ok((await outcome(make(), pod(['forbidden:1']))).err);
    assert.equal(hook.reviews().length - s, 1);
  });

  test('ephemeral containers are reviewed through their sub-resource; other sub-resources and resources are not', async () => {
    hook.decide(() => ({ allowed: false }));
    const p = make();
    const debug = pod(['app:1'], undefined, { ephemeralContainers: [{ name: 'debug', image: 'debugger:1' }] });
    const start = hook.reviews().length;
    assert.ok((await outcome(p, debug, { subresource: 'ephemeralcontainers', operation: 'UPDATE' })).err);
    assert.deepEqual(imagesOf(hook.reviews()[start]!), ['debugger:1']);
    for (const over of [{ subresource: 'status' }, { subresource: 'binding' }, { resource: 'podtemplates' }]) {
      assert.equal((await outcome(p, debug, over)).err, undefined, JSON.stringify(over));
    }
    assert.equal(hook.reviews().length, start + 1);
  });

  test('the group and annotation keys follow the domain', async () => {
    hook.decide(() => ({ allowed: true }));
    const start = hook.reviews().length;
    await outcome(make({}, 'k8s.io'), pod(['x:1'], { 'a.image-policy.k8s.io/b': 'c', 'a.image-policy.orch.io/b': 'd' }));
    const [review] = hook.reviews().slice(start);
    assert.equal(review!.apiVersion, 'imagepolicy.k8s.io/v1alpha1');
    assert.deepEqual(review!.spec.annotations, { 'a.image-policy.k8s.io/b': 'c' });
  });

  test('the factory reads the kubeconfig the configuration names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'image-policy-'));
    try {
      const file = hook.writeKubeconfig(dir);
      hook.decide(() => ({ allowed: false, reason: 'via kubeconfig' }));
      const p = imagePolicyWebhookFactory({ imagePolicy: { kubeConfigFile: file, retryBackoff: 1 } }, staticDeps()) as ImagePolicyWebhook;
      plugins.push(p);
      assert.match((await outcome(p, pod(['k:1']))).err?.message ?? '', /via kubeconfig/);
      writeFileSync(join(dir, 'broken.kubeconfig'), 'clusters: [');
      assert.throws(() => builtinPlugins().newChain(['ImagePolicyWebhook'], () => ({ imagePolicy: { kubeConfigFile: join(dir, 'broken.kubeconfig') } }), staticDeps()),
        /^Error: couldn't init admission plugin "ImagePolicyWebhook": error parsing the webhook kubeconfig/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ImagePolicyWebhook configuration', () => {
  test('upstream\'s defaults, units and sentinels; apiVersion and kind are ignored', () => {
    assert.deepEqual(loadConfiguration({ imagePolicy: { kubeConfigFile: '/k' } }),
      { kubeConfigFile: '/k', allowTTLMs: 300_000, denyTTLMs: 30_000, retryBackoffMs: 500, defaultAllow: false });
    assert.deepEqual(loadConfiguration({ apiVersion: 'imagepolicy.admission.k8s.io/v1alpha1', kind: 'ImagePolicyWebhookConfiguration',
      imagePolicy: { kubeConfigFile: '/k', allowTTL: 50, denyTTL: -1, retryBackoff: 250, defaultAllow: true } }),
    { kubeConfigFile: '/k', allowTTLMs: 50_000, denyTTLMs: 0, retryBackoffMs: 250, defaultAllow: true });
  });

  test('what upstream refuses stops start-up, with its messages', () => {
    const refuse = (c: unknown, message: string | RegExp) => assert.throws(() => loadConfiguration(c), (e: Error) => {
      if (typeof message === 'string') assert.equal(e.message, message);
      else assert.match(e.message, message);
      return true;
    });
    refuse(undefined, 'no config specified');
    refuse({ imagePolicy: {} }, /kubeConfigFile is required/);
    refuse({ imagePolicy: { kubeConfigFile: '/k', allowTTL: 1 } }, 'valid value is between 1s and 30m0s, got 1s');
    refuse({ imagePolicy: { kubeConfigFile: '/k', denyTTL: 2700 } }, 'valid value is between 1s and 30m0s, got 45m0s');
    refuse({ imagePolicy: { kubeConfigFile: '/k', retryBackoff: 300_001 } }, 'valid value is between 1ns and 5m0s, got 5m0.001s');
    refuse({ imagePolicy: { kubeConfigFile: '/k', allowTTL: -2 } }, 'valid value is between 1s and 30m0s, got -2s');
    refuse({ imagePolicy: { kubeConfigFile: '/k', allowTTL: '5m' } }, 'json: cannot unmarshal string into Go struct field imagePolicyWebhookConfig.imagePolicy.allowTTL of type time.Duration');
    refuse({ imagePolicy: { kubeConfigFile: '/k', defaultAllow: 'yes' } }, /defaultAllow must be true or false/);
    assert.throws(() => builtinPlugins().newChain(['ImagePolicyWebhook'], () => undefined, staticDeps()), /couldn't init admission plugin "ImagePolicyWebhook": no config specified/);
  });
});
