import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiDomain } from '../../../api/domain.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, Operation } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { rejection } from '../testing/rejection.js';
import { loadConfiguration } from './config.js';
import { conflicts, inWhitelist, selectorToLabelsMap } from './labels-map.js';
import { podNodeSelectorFactory, type PodNodeSelector } from './plugin.js';

const ANN = 'scheduler.alpha.orch.io/node-selector';
const ns = (name: string, selector?: string): AdmissionObject => ({ metadata: { name, ...(selector === undefined ? {} : { annotations: { [ANN]: selector } }) } });
const pod = (nodeSelector?: Record<string, string>, name = 'p'): AdmissionObject => ({
  metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }], ...(nodeSelector ? { nodeSelector } : {}) },
});
const make = (namespaces: AdmissionObject[], config?: unknown, domain = 'orch.io') =>
  podNodeSelectorFactory(config, staticDeps({ '/namespaces': namespaces }, apiDomain(domain))) as PodNodeSelector;
const selectorOf = (o: AdmissionObject) => (o['spec'] as { nodeSelector?: Record<string, string> }).nodeSelector;

describe('PodNodeSelector', () => {
  test('registered; mutating and validating, on creates only', () => {
    assert.ok(builtinPlugins().has('PodNodeSelector'));
    const p = make([]);
    assert.equal(p.annotation, ANN);
    assert.equal(typeof p.admit, 'function');
    assert.equal(typeof p.validate, 'function');
    assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as Operation[]).map((o) => p.handles(o)), [true, false, false, false]);
  });

  test('the namespace annotation is merged into the pod\'s selector; a conflicting pod is refused with upstream\'s message', async () => {
    const p = make([ns('ns', 'env=prod, tier = web')]);
    const o = pod({ disk: 'ssd' });
    await p.admit(podAttrs({ object: o }));
    assert.deepEqual(selectorOf(o), { env: 'prod', tier: 'web', disk: 'ssd' });
    const same = pod({ env: 'prod' });
    await p.admit(podAttrs({ object: same }));
    assert.deepEqual(selectorOf(same), { env: 'prod', tier: 'web' });
    for (const phase of ['admit', 'validate'] as const) {
      const err = await rejection(p[phase](podAttrs({ object: pod({ env: 'dev' }) })));
      assert.equal(err.code, 403);
      assert.equal(err.reason, 'Forbidden');
      assert.equal(err.message, 'pods "p" is forbidden: pod node label selector conflicts with its namespace node label selector');
      assert.deepEqual(err.status.details, { name: 'p', group: '', kind: 'pods' });
    }
    // A pod named by generateName is refused under its (still empty) name, as upstream does.
    const unnamed = await rejection(p.admit(podAttrs({ object: pod({ env: 'dev' }, '') })));
    assert.equal(unnamed.message, 'pods "" is forbidden: pod node label selector conflicts with its namespace node label selector');
  });

  test('without the annotation the cluster default applies; an empty annotation means none', async () => {
    const config = { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'region=eu' } };
    const p = make([ns('plain'), ns('own', '')], config);
    const o = pod();
    await p.admit(podAttrs({ object: o, namespace: 'plain' }));
    assert.deepEqual(selectorOf(o), { region: 'eu' });
    const mine = pod();
    await p.admit(podAttrs({ object: mine, namespace: 'own' }));
    assert.equal(selectorOf(mine), undefined, 'nothing to merge: no selector is added');
    await rejection(p.admit(podAttrs({ object: pod({ region: 'us' }), namespace: 'plain' })));
  });

  test('the namespace whitelist of the configuration limits the labels a pod may select', async () => {
    const config = { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'region=eu', team: 'region=eu,gpu=true' } };
    const p = make([ns('team'), ns('other')], config);
    const ok = pod({ gpu: 'true' });
    await p.admit(podAttrs({ object: ok, namespace: 'team' }));
    assert.deepEqual(selectorOf(ok), { region: 'eu', gpu: 'true' });
    for (const sel of [{ gpu: 'false' }, { disk: 'ssd' }] as Record<string, string>[]) {
      const err = await rejection(p.admit(podAttrs({ object: pod(sel), namespace: 'team' })));
      assert.equal(err.code, 403);
      assert.equal(err.message, 'pods "p" is forbidden: pod node label selector labels conflict with its namespace whitelist');
    }
    // The validating phase checks the final object (a webhook may have changed it since).
    await rejection(p.validate(podAttrs({ object: pod({ region: 'eu', zone: 'b' }), namespace: 'team' })));
    // A namespace without a whitelist may select anything beyond its defaults.
    await p.admit(podAttrs({ object: pod({ disk: 'ssd' }), namespace: 'other' }));
  });

  test('a malformed annotation is refused naming the namespace; a missing namespace is NotFound', async () => {
    const p = make([ns('ns', 'env')]);
    const err = await rejection(p.admit(podAttrs({ object: pod() })));
    assert.equal(err.code, 403);
    assert.equal(err.message, `pods "p" is forbidden: namespace ns has an invalid ${ANN} annotation: invalid selector: [env]`);
    const missing = await rejection(make([]).admit(podAttrs({ object: pod(), namespace: 'ghost' })));
    assert.equal(missing.code, 404);
    assert.equal(missing.message, 'namespaces "ghost" not found');
  });

  test('other resources and sub-resources are left alone; the annotation follows the domain', async () => {
    const p = make([ns('ns', 'env=prod')]);
    for (const over of [{ subresource: 'binding' }, { resource: { group: '', version: 'v1', resource: 'podtemplates' } }]) {
      const o = pod({ env: 'dev' });
      await p.admit(podAttrs({ object: o, ...over }));
      assert.deepEqual(selectorOf(o), { env: 'dev' });
    }
    const k8s = make([{ metadata: { name: 'ns', annotations: { 'scheduler.alpha.kubernetes.io/node-selector': 'env=prod', [ANN]: 'env=dev' } } }], undefined, 'k8s.io');
    const o = pod();
    await k8s.admit(podAttrs({ object: o }));
    assert.deepEqual(selectorOf(o), { env: 'prod' });
  });
});

describe('PodNodeSelector configuration and selectors', () => {
  test('the document form, its key in any case, apiVersion and kind ignored', () => {
    assert.deepEqual(loadConfiguration(undefined), { clusterDefault: {}, whitelists: new Map() });
    const c = loadConfiguration({ apiVersion: 'whatever/v1', kind: 'X', PodNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'a=b', ns1: 'c=d,e=f', ns2: null } });
    assert.deepEqual(c.clusterDefault, { a: 'b' });
    assert.deepEqual([...c.whitelists], [['ns1', { c: 'd', e: 'f' }], ['ns2', {}]]);
  });

  test('a malformed configuration stops start-up, naming the entry', () => {
    assert.throws(() => loadConfiguration({ podNodeSelectorPluginConfig: ['a=b'] }), /podNodeSelectorPluginConfig must be a map of selectors/);
    assert.throws(() => loadConfiguration({ podNodeSelectorPluginConfig: { ns1: 3 } }), /podNodeSelectorPluginConfig\.ns1 must be a string/);
    assert.throws(() => loadConfiguration({ podNodeSelectorPluginConfig: { ns1: 'a=b=c' } }), /podNodeSelectorPluginConfig\.ns1: invalid selector: \[a b c\]/);
    assert.throws(() => builtinPlugins().newChain(['PodNodeSelector'], () => ({ podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'bad key=x' } }), staticDeps()),
      /^Error: couldn't init admission plugin "PodNodeSelector": podNodeSelectorPluginConfig\.clusterDefaultNodeSelector: : Invalid value: "bad key": name part must consist/);
  });

  test('selector parsing and label arithmetic', () => {
    assert.deepEqual(selectorToLabelsMap(''), {});
    assert.deepEqual(selectorToLabelsMap(' a = b ,c=d'), { a: 'b', c: 'd' });
    assert.deepEqual(selectorToLabelsMap('a='), { a: '' });
    assert.throws(() => selectorToLabelsMap('a=b,'), /^Error: invalid selector: \[\]$/);
    assert.throws(() => selectorToLabelsMap('a=b!'), /^Error: \[a\]: Invalid value: "b!": a valid label must be/);
    assert.equal(conflicts({ a: 'b' }, { a: 'c' }), true);
    assert.equal(conflicts({ a: 'b' }, { a: 'b', c: 'd' }), false);
    assert.equal(inWhitelist({ a: 'b' }, {}), true);
    assert.equal(inWhitelist({}, { a: 'b' }), true);
    assert.equal(inWhitelist({ a: 'b' }, { a: 'b', c: 'd' }), true);
    assert.equal(inWhitelist({ a: 'x' }, { a: 'b' }), false);
  });
});
