import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceQuota } from '../../api/core/v1/resource-quota.js';
import { checkQuota, type QuotaDecision } from './check.js';
import { claimEvaluator, objectCountEvaluator, serviceEvaluator } from './object-count-evaluators.js';
import { podEvaluator, type PodLike } from './pod-evaluator.js';

const now = new Date('2026-01-01T00:00:00Z');
const pods = podEvaluator({ keyDomain: 'orch.io' });

function quota(name: string, hard: Record<string, string>, used?: Record<string, string>, spec: ResourceQuota['spec'] = {}): ResourceQuota {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'ns' }, spec: { hard, ...spec }, status: { hard, ...(used ? { used } : {}) } } as ResourceQuota;
}

function pod(requests: Record<string, string> = {}, limits: Record<string, string> = {}, extra: Partial<PodLike['spec']> = {}): PodLike {
  const resources = { ...(Object.keys(requests).length ? { requests } : {}), ...(Object.keys(limits).length ? { limits } : {}) };
  return { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'app', image: 'x', resources }], ...extra } as PodLike['spec'] };
}

function used(d: QuotaDecision, name: string): Record<string, string> | undefined {
  assert.equal(d.allowed, true, d.allowed ? '' : d.message);
  return d.allowed ? d.used.get(name) : undefined;
}
function refused(d: QuotaDecision): string {
  assert.equal(d.allowed, false);
  return d.allowed ? '' : d.message;
}

test('a pod below the quota charges its usage (upstream TestAdmitBelowQuotaLimit)', () => {
  const q = quota('quota', { cpu: '3', memory: '100Gi', pods: '5' }, { cpu: '1', memory: '50Gi', pods: '3' });
  const d = checkQuota([q], pods, { operation: 'CREATE', object: pod({ cpu: '100m', memory: '2Gi' }, { cpu: '200m', memory: '3Gi' }), now });
  assert.deepEqual(used(d, 'quota'), { cpu: '1100m', memory: '52Gi', pods: '4' });
});

test('a pod over the quota is refused with upstream\'s message (TestAdmitExceedQuotaLimit)', () => {
  const q = quota('quota', { cpu: '3', memory: '100Gi', pods: '5' }, { cpu: '1', memory: '50Gi', pods: '3' });
  const d = checkQuota([q], pods, { operation: 'CREATE', object: pod({ cpu: '3', memory: '2Gi' }), now });
  assert.equal(refused(d), 'exceeded quota: quota, requested: cpu=3, used: cpu=1, limited: cpu=3');
  const many = checkQuota([quota('q', { pods: '3', 'requests.memory': '1Gi' }, { pods: '3', 'requests.memory': '512Mi' })], pods,
    { operation: 'CREATE', object: pod({ memory: '1Gi' }), now });
  assert.equal(refused(many), 'exceeded quota: q, requested: pods=1,requests.memory=1Gi, used: pods=3,requests.memory=512Mi, limited: pods=3,requests.memory=1Gi');
});

test('a quota whose usage is not known yet refuses', () => {
  const q = quota('quota', { cpu: '3', pods: '5' });
  const d = checkQuota([q], pods, { operation: 'CREATE', object: pod({ cpu: '1' }), now });
  assert.equal(refused(d), 'status unknown for quota: quota, resources: cpu,pods');
  // A quota that lists no status.hard yet does not track anything.
  const fresh = { ...q, status: {} };
  assert.deepEqual(checkQuota([fresh], pods, { operation: 'CREATE', object: pod({ cpu: '1' }), now }), { allowed: true, used: new Map() });
});

test('quotas on cpu or memory require every container to state them (TestAdmitEnforceQuotaConstraints)', () => {
  const q = quota('quota', { 'limits.cpu': '2', 'limits.memory': '1Gi', pods: '5' }, { 'limits.cpu': '0', 'limits.memory': '0', pods: '0' });
  const p = pod({ cpu: '100m' });
  p.spec!.initContainers = [{ name: 'init', image: 'x', resources: { limits: { cpu: '1' } } }];
  assert.equal(refused(checkQuota([q], pods, { operation: 'CREATE', object: p, now })),
    'failed quota: quota: must specify limits.cpu for: app; limits.memory for: app,init');
  // Resources outside the historical set are not required.
  const gpu = quota('g', { 'requests.example.com/gpu': '2' }, { 'requests.example.com/gpu': '0' });
  assert.deepEqual(used(checkQuota([gpu], pods, { operation: 'CREATE', object: pod({ 'example.com/gpu': '1' }, { 'example.com/gpu': '1' }), now }), 'g'),
    { 'requests.example.com/gpu': '1' });
});

test('only the quotas naming a resource the pod uses are charged, masked to their names', () => {
  const a = quota('a', { 'requests.cpu': '2' }, { 'requests.cpu': '500m' });
  const b = quota('b', { configmaps: '2' }, { configmaps: '0' });
  const d = checkQuota([a, b], pods, { operation: 'CREATE', object: pod({ cpu: '250m' }, { cpu: '250m' }), now });
  assert.deepEqual(used(d, 'a'), { 'requests.cpu': '750m' });
  assert.equal(used(d, 'b'), undefined);
});

test('pod usage: limits, ephemeral storage, hugepages, extended resources, count', () => {
  const all = ['pods', 'count/pods', 'cpu', 'requests.cpu', 'limits.cpu', 'memory', 'requests.memory', 'limits.memory',
    'ephemeral-storage', 'requests.ephemeral-storage', 'limits.ephemeral-storage', 'hugepages-2Mi', 'requests.hugepages-2Mi',
    'requests.example.com/gpu', 'example.com/gpu', 'requests.orch.io/native'];
  const hard = Object.fromEntries(all.map((k) => [k, '100Gi']));
  const zero = Object.fromEntries(all.map((k) => [k, '0']));
  const p = pod({ cpu: '1', memory: '1Gi', 'ephemeral-storage': '1G', 'hugepages-2Mi': '4Mi', 'example.com/gpu': '2', 'orch.io/native': '1' },
    { cpu: '2', memory: '2Gi', 'ephemeral-storage': '2G', 'hugepages-2Mi': '4Mi', 'example.com/gpu': '2' });
  const d = checkQuota([quota('q', hard, zero)], pods, { operation: 'CREATE', object: p, now });
  assert.deepEqual(used(d, 'q'), {
    'count/pods': '1', cpu: '1', 'ephemeral-storage': '1G', 'example.com/gpu': '0', 'hugepages-2Mi': '4Mi', 'limits.cpu': '2',
    'limits.ephemeral-storage': '2G', 'limits.memory': '2Gi', memory: '1Gi', pods: '1', 'requests.cpu': '1',
    'requests.ephemeral-storage': '1G', 'requests.example.com/gpu': '2', 'requests.hugepages-2Mi': '4Mi', 'requests.memory': '1Gi',
    'requests.orch.io/native': '0',
  });
});

test('terminal and expired pods charge the object count only', () => {
  const q = quota('q', { pods: '1', 'count/pods': '5', cpu: '1' }, { pods: '1', 'count/pods': '0', cpu: '1' });
  const done: PodLike = { ...pod({ cpu: '1' }), status: { phase: 'Succeeded' } };
  assert.deepEqual(used(checkQuota([q], pods, { operation: 'CREATE', object: done, now }), 'q'), { 'count/pods': '1', cpu: '1', pods: '1' });
  const expired = pod({ cpu: '1' });
  expired.metadata = { ...expired.metadata, deletionTimestamp: '2025-12-31T23:59:00Z', deletionGracePeriodSeconds: 30 };
  assert.equal(checkQuota([q], pods, { operation: 'CREATE', object: expired, now }).allowed, true);
  expired.metadata.deletionGracePeriodSeconds = 3600;
  assert.equal(checkQuota([q], pods, { operation: 'CREATE', object: expired, now }).allowed, false);
});

test('sidecars, init containers, overhead and pod-level resources', () => {
  const q = quota('q', { 'requests.cpu': '100', 'limits.cpu': '100', 'requests.memory': '100Gi' }, { 'requests.cpu': '0', 'limits.cpu': '0', 'requests.memory': '0' });
  const p = pod({ cpu: '1' }, { cpu: '1' }, {
    initContainers: [
      { name: 'side', image: 'x', restartPolicy: 'Always', resources: { requests: { cpu: '500m', memory: '64Mi' }, limits: { cpu: '500m' } } },
      { name: 'big', image: 'x', resources: { requests: { cpu: '3', memory: '1Gi' }, limits: { cpu: '3' } } },
    ],
    overhead: { cpu: '250m', memory: '64Mi' },
  });
  p.spec!.containers[0]!.resources!.requests!['memory'] = '128Mi';
  // max(app 1 + sidecar 0.5, sidecar 0.5 + init 3) = 3.5, plus overhead; memory max(192Mi, 1088Mi) + 64Mi.
  assert.deepEqual(used(checkQuota([q], pods, { operation: 'CREATE', object: p, now }), 'q'),
    { 'limits.cpu': '3750m', 'requests.cpu': '3750m', 'requests.memory': '1152Mi' });
  p.spec!.resources = { requests: { cpu: '5' } };
  assert.equal(used(checkQuota([q], pods, { operation: 'CREATE', object: p, now }), 'q')!['requests.cpu'], '5250m');
});

test('scopes: Terminating, BestEffort and their negations', () => {
  const mk = (scope: string) => quota(scope, { pods: '10' }, { pods: '0' }, { scopes: [scope] });
  const qs = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort'].map(mk);
  const charged = (p: PodLike) => {
    const d = checkQuota(qs, pods, { operation: 'CREATE', object: p, now });
    return d.allowed ? [...d.used.keys()].sort() : [];
  };
  assert.deepEqual(charged(pod()), ['BestEffort', 'NotTerminating']);
  assert.deepEqual(charged(pod({ cpu: '0' })), ['BestEffort', 'NotTerminating']);
  assert.deepEqual(charged(pod({ memory: '1Mi' }, {}, { activeDeadlineSeconds: 10 })), ['NotBestEffort', 'Terminating']);
  // A best-effort quota cannot limit cpu: it tracks nothing the pod uses there.
  const be = quota('be', { cpu: '1' }, { cpu: '0' }, { scopes: ['BestEffort'] });
  assert.deepEqual(checkQuota([be], pods, { operation: 'CREATE', object: pod({ cpu: '2' }), now }), { allowed: true, used: new Map() });
});

test('scopes: PriorityClass selector operators and cross-namespace affinity', () => {
  const sel = (operator: string, values?: string[]) =>
    quota(`${operator}`, { pods: '10' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator, ...(values ? { values } : {}) }] } });
  const qs = [sel('In', ['high']), sel('NotIn', ['high']), sel('Exists'), sel('DoesNotExist')];
  const charged = (p: PodLike) => {
    const d = checkQuota(qs, pods, { operation: 'CREATE', object: p, now });
    return d.allowed ? [...d.used.keys()].sort() : [];
  };
  assert.deepEqual(charged(pod({}, {}, { priorityClassName: 'high' })), ['Exists', 'In']);
  assert.deepEqual(charged(pod({}, {}, { priorityClassName: 'low' })), ['Exists', 'NotIn']);
  assert.deepEqual(charged(pod()), ['NotIn']);
  const x = quota('x', { pods: '10' }, { pods: '0' }, { scopes: ['CrossNamespacePodAffinity'] });
  const term = { topologyKey: 'zone', labelSelector: {} };
  const crossing = pod({}, {}, { affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { ...term, namespaces: ['other'] } }] } } });
  const local = pod({}, {}, { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } });
  assert.equal(used(checkQuota([x], pods, { operation: 'CREATE', object: crossing, now }), 'x')?.['pods'], '1');
  assert.equal(used(checkQuota([x], pods, { operation: 'CREATE', object: local, now }), 'x'), undefined);
});

test('pod updates are charged only when enabled, by the increase', () => {
  const q = quota('q', { 'requests.cpu': '2' }, { 'requests.cpu': '1' });
  const old = { ...pod({ cpu: '1' }), metadata: { name: 'p', resourceVersion: '5' } };
  const next = pod({ cpu: '1500m' });
  assert.deepEqual(checkQuota([q], pods, { operation: 'UPDATE', object: next, oldObject: old, now }), { allowed: true, used: new Map() });
  const resizing = podEvaluator({ keyDomain: 'orch.io', chargeUpdates: true });
  assert.deepEqual(used(checkQuota([q], resizing, { operation: 'UPDATE', object: next, oldObject: old, now }), 'q'), { 'requests.cpu': '1500m' });
  // Shrinking charges nothing.
  assert.deepEqual(checkQuota([q], resizing, { operation: 'UPDATE', object: old, oldObject: next, now }).allowed, true);
  assert.equal(refused(checkQuota([q], resizing, { operation: 'UPDATE', object: next, now })),
    'unable to get previous usage since prior version of object was not found');
});

test('claims: storage, counts and per-class names; expansion charges the increase', () => {
  const claims = claimEvaluator({ storageGroup: 'storage.orch.io', keyDomain: 'orch.io' });
  const gold = 'gold.storageclass.storage.orch.io';
  const q = quota('q', { 'requests.storage': '10Gi', persistentvolumeclaims: '5', [`${gold}/requests.storage`]: '3Gi', [`${gold}/persistentvolumeclaims`]: '1' },
    { 'requests.storage': '1Gi', persistentvolumeclaims: '1', [`${gold}/requests.storage`]: '0', [`${gold}/persistentvolumeclaims`]: '0' });
  const claim = (size: string, cls?: string, rv?: string) => ({
    metadata: { name: 'c', ...(rv ? { resourceVersion: rv } : {}) }, spec: { ...(cls ? { storageClassName: cls } : {}), resources: { requests: { storage: size } } },
  });
  assert.deepEqual(used(checkQuota([q], claims, { operation: 'CREATE', object: claim('2Gi', 'gold'), now }), 'q'), {
    [`${gold}/persistentvolumeclaims`]: '1', [`${gold}/requests.storage`]: '2Gi', persistentvolumeclaims: '2', 'requests.storage': '3Gi',
  });
  assert.deepEqual(used(checkQuota([q], claims, { operation: 'CREATE', object: claim('2Gi'), now }), 'q'), {
    [`${gold}/persistentvolumeclaims`]: '0', [`${gold}/requests.storage`]: '0', persistentvolumeclaims: '2', 'requests.storage': '3Gi',
  });
  assert.equal(refused(checkQuota([q], claims, { operation: 'CREATE', object: claim('4Gi', 'gold'), now })),
    `exceeded quota: q, requested: ${gold}/requests.storage=4Gi, used: ${gold}/requests.storage=0, limited: ${gold}/requests.storage=3Gi`);
  const grown = checkQuota([q], claims, { operation: 'UPDATE', object: claim('3Gi'), oldObject: claim('1Gi', undefined, '7'), now });
  assert.equal(used(grown, 'q')!['requests.storage'], '3Gi');
  assert.equal(used(grown, 'q')!['persistentvolumeclaims'], '1');
  // The beta annotation names the class too.
  const annotated = { ...claim('1Gi'), metadata: { name: 'c', annotations: { 'volume.beta.orch.io/storage-class': 'gold' } } };
  assert.equal(used(checkQuota([q], claims, { operation: 'CREATE', object: annotated, now }), 'q')![`${gold}/persistentvolumeclaims`], '1');
});

test('object counts: legacy names and count/<resource>.<group>', () => {
  const cms = objectCountEvaluator('configmaps', '');
  const q = quota('q', { configmaps: '2', 'count/configmaps': '3', 'count/deployments.apps': '1' }, { configmaps: '2', 'count/configmaps': '2', 'count/deployments.apps': '1' });
  assert.equal(refused(checkQuota([q], cms, { operation: 'CREATE', object: {}, now })),
    'exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');
  assert.deepEqual(checkQuota([q], cms, { operation: 'UPDATE', object: {}, oldObject: {}, now }), { allowed: true, used: new Map() });
  const deps = objectCountEvaluator('deployments', 'apps');
  assert.equal(refused(checkQuota([q], deps, { operation: 'CREATE', object: {}, now })),
    'exceeded quota: q, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1');
  assert.equal(checkQuota([q], objectCountEvaluator('secrets', ''), { operation: 'CREATE', object: {}, now }).allowed, true);
});

test('services: load balancers and node ports', () => {
  const svc = serviceEvaluator();
  const q = quota('q', { services: '10', 'services.loadbalancers': '1', 'services.nodeports': '2' }, { services: '0', 'services.loadbalancers': '0', 'services.nodeports': '0' });
  const ports = [{ port: 80 }, { port: 443 }];
  assert.deepEqual(used(checkQuota([q], svc, { operation: 'CREATE', object: { spec: { type: 'LoadBalancer', ports } }, now }), 'q'),
    { services: '1', 'services.loadbalancers': '1', 'services.nodeports': '2' });
  assert.equal(refused(checkQuota([q], svc, { operation: 'CREATE', object: { spec: { type: 'NodePort', ports: [...ports, { port: 8080 }] } }, now })),
    'exceeded quota: q, requested: services.nodeports=3, used: services.nodeports=0, limited: services.nodeports=2');
  const toLb = checkQuota([q], svc, { operation: 'UPDATE', object: { spec: { type: 'LoadBalancer', ports } }, oldObject: { metadata: { resourceVersion: '1' }, spec: { type: 'ClusterIP', ports } }, now });
  assert.deepEqual(used(toLb, 'q'), { services: '0', 'services.loadbalancers': '1', 'services.nodeports': '2' });
});
