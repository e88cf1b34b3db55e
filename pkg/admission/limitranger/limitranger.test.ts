import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultLimitRange, type LimitRange, type LimitRangeItem } from '../../../api/core/v1/limit-range.js';
import type { Container } from '../../../api/core/v1/pod-template.js';
import type { PodLike } from '../../quota/pod-evaluator.js';
import { applyLimitRangeDefaults } from './defaults.js';
import { defaultPod, limitRangeRefusal, limitRangerApplies } from './plugin.js';
import { aggregateMessage, claimLimitViolations, podLimitViolations } from './validate.js';

function range(...limits: LimitRangeItem[]): LimitRange {
  const lr = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits } } as LimitRange;
  defaultLimitRange(lr);
  return lr;
}
function container(name: string, requests?: Record<string, string>, limits?: Record<string, string>): Container {
  return { name, image: 'x', resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } } as Container;
}
const pod = (...containers: Container[]): PodLike => ({ metadata: { name: 'p' }, spec: { containers } as PodLike['spec'] });

test('defaults fill what containers leave out and annotate the pod', () => {
  const lr = range({ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m' } });
  const p = pod(container('a'), container('b', { cpu: '50m' }, { memory: '1Gi', cpu: '1' }));
  p.spec!.initContainers = [container('init', { memory: '64Mi' })];
  assert.equal(applyLimitRangeDefaults(p, lr, 'orch.io'), true);
  assert.deepEqual(p.spec!.containers[0]!.resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
  assert.deepEqual(p.spec!.containers[1]!.resources, { requests: { cpu: '50m', memory: '256Mi' }, limits: { memory: '1Gi', cpu: '1' } });
  assert.equal(p.metadata!.annotations!['orch.io/limit-ranger'],
    'LimitRanger plugin set: cpu, memory request for container a; cpu, memory limit for container a; ' +
    'memory request for container b; cpu request for init container init; cpu, memory limit for init container init');
  // A pod with everything stated is left alone.
  const full = pod(container('a', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }));
  assert.equal(applyLimitRangeDefaults(full, lr, 'orch.io'), false);
  assert.equal(full.metadata!.annotations, undefined);
  // Items of other types give no defaults.
  assert.equal(applyLimitRangeDefaults(pod(container('a')), range({ type: 'Pod', max: { cpu: '2' } }), 'orch.io'), false);
});

test('Container min, max and ratio, with upstream\'s messages', () => {
  const lr = range({ type: 'Container', min: { cpu: '100m' }, max: { memory: '1Gi' }, maxLimitRequestRatio: { cpu: '2' } });
  assert.deepEqual(podLimitViolations(pod(container('a', { cpu: '50m' }, { cpu: '100m', memory: '1Gi' })), lr),
    ['minimum cpu usage per Container is 100m, but request is 50m']);
  // Defaulting gave the container no cpu limit here, so the ratio check has none.
  const bare = range({ type: 'Container', min: { cpu: '100m' } });
  assert.deepEqual(podLimitViolations(pod(container('a')), bare), ['minimum cpu usage per Container is 100m.  No request is specified']);
  assert.deepEqual(podLimitViolations(pod(container('a', { cpu: '200m' }, { cpu: '50m' })), bare),
    ['minimum cpu usage per Container is 100m, but limit is 50m']);
  const max = { type: 'Container', max: { memory: '1Gi' } } as LimitRangeItem;
  const lrMax = { spec: { limits: [max] } } as LimitRange; // not defaulted: no default limit from max
  assert.deepEqual(podLimitViolations(pod(container('a', { memory: '2Gi' })), lrMax), ['maximum memory usage per Container is 1Gi.  No limit is specified']);
  assert.deepEqual(podLimitViolations(pod(container('a', { memory: '2Gi' }, { memory: '3Gi' })), lrMax),
    ['maximum memory usage per Container is 1Gi, but limit is 3Gi']);
  assert.deepEqual(podLimitViolations(pod(container('a', { memory: '2Gi' }, { memory: '1Gi' })), lrMax),
    ['maximum memory usage per Container is 1Gi, but request is 2Gi']);
  const ratio = { spec: { limits: [{ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }] } } as LimitRange;
  assert.deepEqual(podLimitViolations(pod(container('a', { cpu: '250m' }, { cpu: '1' })), ratio),
    ['cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000']);
  assert.deepEqual(podLimitViolations(pod(container('a', { cpu: '500m' }, { cpu: '1' })), ratio), []);
  assert.deepEqual(podLimitViolations(pod(container('a', undefined, { cpu: '1' })), ratio),
    ['cpu max limit to request ratio per Container is 2, but no request is specified or request is 0']);
  assert.deepEqual(podLimitViolations(pod(container('a', { cpu: '1' })), ratio),
    ['cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0']);
  assert.deepEqual(podLimitViolations(pod(container('a', { cpu: '300m' }, { cpu: '1' })), ratio),
    ['cpu max limit to request ratio per Container is 2, but provided ratio is 3.333333']);
});

test('Pod items check the summed requests and limits', () => {
  const lr = { spec: { limits: [{ type: 'Pod', max: { cpu: '2' }, min: { memory: '100Mi' } }] } } as LimitRange;
  const p = pod(container('a', { cpu: '1', memory: '60Mi' }, { cpu: '1500m' }), container('b', { cpu: '1', memory: '60Mi' }, { cpu: '1' }));
  assert.deepEqual(podLimitViolations(p, lr), ['maximum cpu usage per Pod is 2, but limit is 2500m']);
  const small = pod(container('a', { memory: '60Mi' }, { cpu: '1' }));
  assert.deepEqual(podLimitViolations(small, lr), ['minimum memory usage per Pod is 100Mi, but request is 60Mi']);
});

test('PersistentVolumeClaim items check requests only', () => {
  const lr = { spec: { limits: [{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }] } } as LimitRange;
  const claim = (storage?: string, limit?: string) => ({ spec: { resources: { ...(storage ? { requests: { storage } } : {}), ...(limit ? { limits: { storage: limit } } : {}) } } });
  assert.deepEqual(claimLimitViolations(claim('5Gi', '50Gi'), lr), []);
  assert.deepEqual(claimLimitViolations(claim('500Mi'), lr), ['minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi']);
  assert.deepEqual(claimLimitViolations(claim('20Gi'), lr), ['maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi']);
  assert.deepEqual(claimLimitViolations(claim(), lr), [
    'minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified',
    'maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified',
  ]);
  // Pods are not checked against claim items, nor claims against container items.
  assert.deepEqual(podLimitViolations(pod(container('a')), lr), []);
  assert.deepEqual(claimLimitViolations(claim('1'), range({ type: 'Container', min: { cpu: '1' } })), []);
});

test('violations aggregate as upstream prints them', () => {
  assert.equal(aggregateMessage([]), undefined);
  assert.equal(aggregateMessage(['a']), 'a');
  assert.equal(aggregateMessage(['a', 'b', 'a']), '[a, b]');
  assert.equal(aggregateMessage(['a', 'a']), 'a');
});

test('the plug-in: which requests, defaults from every range, one refusal over all ranges', () => {
  assert.equal(limitRangerApplies('pods', 'CREATE', ''), 'pods');
  assert.equal(limitRangerApplies('pods', 'UPDATE', ''), undefined);
  assert.equal(limitRangerApplies('pods', 'UPDATE', 'resize'), 'pods');
  assert.equal(limitRangerApplies('pods', 'CREATE', 'binding'), undefined);
  assert.equal(limitRangerApplies('persistentvolumeclaims', 'UPDATE', ''), 'persistentvolumeclaims');
  assert.equal(limitRangerApplies('persistentvolumeclaims', 'UPDATE', 'status'), undefined);
  assert.equal(limitRangerApplies('services', 'CREATE', ''), undefined);
  const cpu = range({ type: 'Container', defaultRequest: { cpu: '100m' }, min: { cpu: '200m' } });
  const mem = range({ type: 'Container', default: { memory: '64Mi' }, max: { memory: '32Mi' } });
  const p = pod(container('a'));
  assert.equal(defaultPod(p, [cpu, mem], 'orch.io'), true);
  assert.deepEqual(p.spec!.containers[0]!.resources, { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '64Mi' } });
  assert.equal(limitRangeRefusal('pods', p, [cpu, mem]),
    '[minimum cpu usage per Container is 200m, but request is 100m, maximum memory usage per Container is 32Mi, but limit is 64Mi]');
  assert.equal(limitRangeRefusal('persistentvolumeclaims', { spec: {} }, [cpu]), undefined);
});
