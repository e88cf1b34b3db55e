import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quotaEvaluatorFor } from './evaluators.js';

const domain = { keyDomain: 'kubernetes.io', group: (p: string) => `${p}.k8s.io` };
const now = new Date();

test('evaluators by resource follow the domain', () => {
  assert.equal(quotaEvaluatorFor('pods', '', domain).groupResource, 'pods');
  const claims = quotaEvaluatorFor('persistentvolumeclaims', '', domain);
  assert.deepEqual([...claims.usage({ spec: { storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } } }, now).keys()].sort(), [
    'count/persistentvolumeclaims', 'fast.storageclass.storage.k8s.io/persistentvolumeclaims', 'fast.storageclass.storage.k8s.io/requests.storage',
    'persistentvolumeclaims', 'requests.storage',
  ]);
  const pods = quotaEvaluatorFor('pods', '', domain);
  assert.deepEqual(pods.matchingResources(['requests.kubernetes.io/x', 'requests.example.com/gpu', 'requests.hugepages-1Gi', 'hugepages-1Gi', 'example.com/gpu', 'secrets']),
    ['requests.example.com/gpu', 'requests.hugepages-1Gi', 'hugepages-1Gi']);
  assert.equal(pods.handles('UPDATE'), false);
  assert.equal(quotaEvaluatorFor('pods', '', domain, { chargePodUpdates: true }).handles('UPDATE'), true);
  const widgets = quotaEvaluatorFor('widgets', 'example.com', domain);
  assert.deepEqual(widgets.matchingResources(['count/widgets.example.com', 'count/widgets', 'widgets']), ['count/widgets.example.com']);
  assert.deepEqual([...quotaEvaluatorFor('secrets', '', domain).usage({}, now).keys()], ['count/secrets', 'secrets']);
  assert.equal(quotaEvaluatorFor('services', '', domain).handles('UPDATE'), true);
});
