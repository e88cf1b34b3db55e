// --controllers selection: upstream 1.30's long names and the short names they replaced are the
// same controller, `-name` in either spelling turns it off, the first mention decides, `*` is the
// default-on set; and the flags reach the options.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enabledControllers, knownControllerNames, normalizeControllers, registrations } from './controllers.js';
import { defaultOptions, parseOptions, signingFiles, validateOptions } from './options.js';

const names = (controllers: string[]) => enabledControllers(controllers).map((r) => r.name);
const all = registrations.filter((r) => r.enabledByDefault).map((r) => r.name);

test('* enables every default-on controller, nothing enables none', () => {
  assert.deepEqual(names(['*']), all);
  assert.deepEqual(names([]), []);
});

test('long and short names select the same controller', () => {
  assert.deepEqual(names(['namespace-controller']), ['namespace']);
  assert.deepEqual(names(['namespace']), ['namespace']);
  assert.deepEqual(names(['root-ca-certificate-publisher-controller', 'garbage-collector-controller']), ['root-ca-cert-publisher', 'garbagecollector']);
  assert.deepEqual(names(['serviceaccount-controller', 'resourcequota-controller', 'disruption-controller']), ['serviceaccount', 'resourcequota', 'disruption']);
});

test('-name disables in either spelling; the first mention wins', () => {
  assert.deepEqual(names(['*', '-namespace-controller']), all.filter((n) => n !== 'namespace'));
  assert.deepEqual(names(['*', '-namespace']), all.filter((n) => n !== 'namespace'));
  assert.deepEqual(names(['-disruption-controller', 'disruption', '*']), all.filter((n) => n !== 'disruption'));
  assert.deepEqual(names(['disruption', '-disruption-controller']), ['disruption']);
  assert.deepEqual(normalizeControllers(['*', '-garbage-collector-controller', 'nosuch']), ['*', '-garbagecollector', 'nosuch']);
});

test('validation knows both spellings and still refuses unknown names', () => {
  assert.ok(knownControllerNames().includes('namespace-controller'));
  assert.ok(knownControllerNames().includes('namespace'));
  const o = { ...defaultOptions(), kubeconfig: '/k' };
  assert.deepEqual(validateOptions({ ...o, controllers: ['*', '-namespace-controller', 'resourcequota-controller', '-disruption'] }), []);
  assert.deepEqual(validateOptions({ ...o, controllers: ['nosuch-controller'] }), ['--controllers: "nosuch-controller" is not in the list of known controllers']);
});

test('--controllers and --resource-quota-sync-period parse', () => {
  const o = parseOptions(['--kubeconfig', '/k', '--controllers', '*,-namespace-controller', '--resource-quota-sync-period', '30s']);
  assert.deepEqual(o.controllers, ['*', '-namespace-controller']);
  assert.equal(o.resourceQuotaSyncPeriodMs, 30_000);
  assert.equal(parseOptions(['--kubeconfig', '/k']).resourceQuotaSyncPeriodMs, 5 * 60_000);
  assert.deepEqual(names(o.controllers), all.filter((n) => n !== 'namespace'));
});

test('the csr controllers are on by default under their upstream names', () => {
  for (const n of ['csrsigning', 'csrapproving', 'csrcleaner']) assert.ok(names(['*']).includes(n), n);
  assert.deepEqual(names(['certificatesigningrequest-signing-controller', 'certificatesigningrequest-approving-controller', 'certificatesigningrequest-cleaner-controller']), ['csrsigning', 'csrapproving', 'csrcleaner']);
});

test('--cluster-signing-* flags parse, default and validate as upstream', () => {
  const d = parseOptions(['--kubeconfig=/k']);
  assert.equal(d.csrSigning.durationMs, 8760 * 3600_000);
  assert.deepEqual(signingFiles(d.csrSigning), {});
  const general = parseOptions(['--kubeconfig=/k', '--cluster-signing-cert-file=/ca.crt', '--cluster-signing-key-file=/ca.key', '--cluster-signing-duration=1h']);
  assert.equal(general.csrSigning.durationMs, 3600_000);
  assert.deepEqual(validateOptions(general), []);
  assert.deepEqual(Object.keys(signingFiles(general.csrSigning)).sort(), ['kubeAPIServerClient', 'kubeletClient', 'kubeletServing', 'legacyUnknown']);
  const specific = parseOptions(['--kubeconfig=/k', '--cluster-signing-kubelet-client-cert-file=/c.crt', '--cluster-signing-kubelet-client-key-file=/c.key', '--cluster-signing-legacy-unknown-cert-file=/l.crt', '--cluster-signing-legacy-unknown-key-file=/l.key']);
  assert.deepEqual(validateOptions(specific), []);
  assert.deepEqual(signingFiles(specific.csrSigning), { kubeletClient: { certFile: '/c.crt', keyFile: '/c.key' }, legacyUnknown: { certFile: '/l.crt', keyFile: '/l.key' } });
  const both = parseOptions(['--kubeconfig=/k', '--cluster-signing-cert-file=/ca.crt', '--cluster-signing-key-file=/ca.key', '--cluster-signing-kubelet-serving-cert-file=/s.crt']);
  assert.deepEqual(validateOptions(both), [
    '"cluster-signing-kubelet-serving": cannot specify cert without key',
    'cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time',
  ]);
  assert.deepEqual(validateOptions(parseOptions(['--kubeconfig=/k', '--cluster-signing-key-file=/ca.key'])), ['"cluster-signing": cannot specify key without cert']);
  assert.deepEqual(validateOptions(parseOptions(['--kubeconfig=/k', '--cluster-signing-duration=0s'])), ['--cluster-signing-duration must be greater than 0']);
});

test('tokencleaner and bootstrapsigner are off by default, as upstream, and on when named', () => {
  assert.ok(!names(['*']).includes('tokencleaner'));
  assert.ok(!names(['*']).includes('bootstrapsigner'));
  const on = names(['*', 'tokencleaner', 'bootstrapsigner']);
  assert.deepEqual(on, [...all, 'tokencleaner', 'bootstrapsigner']);
  assert.deepEqual(names(['token-cleaner-controller', 'bootstrap-signer-controller']), ['tokencleaner', 'bootstrapsigner']);
  assert.deepEqual(names(['*', 'tokencleaner', '-bootstrapsigner']), [...all, 'tokencleaner']);
  const o = parseOptions(['--kubeconfig', '/k', '--controllers', '*,tokencleaner,bootstrapsigner']);
  assert.deepEqual(validateOptions(o), []);
  assert.deepEqual(names(o.controllers), on);
});

test('the storage and autoscaling controllers are on by default under their upstream names, with upstream\'s flags and defaults', () => {
  for (const n of ['persistentvolume-binder', 'pvc-protection', 'pv-protection', 'horizontalpodautoscaling']) assert.ok(names(['*']).includes(n), n);
  assert.deepEqual(names(['persistentvolume-binder-controller', 'persistentvolumeclaim-protection-controller', 'persistentvolume-protection-controller', 'horizontal-pod-autoscaler-controller']),
    ['persistentvolume-binder', 'pvc-protection', 'pv-protection', 'horizontalpodautoscaling']);
  const d = parseOptions(['--kubeconfig=/k']);
  assert.equal(d.pvClaimBinderSyncPeriodMs, 15_000);
  assert.deepEqual(d.hpa, { syncPeriodMs: 15_000, tolerance: 0.1, downscaleStabilizationMs: 300_000, cpuInitializationPeriodMs: 300_000, initialReadinessDelayMs: 30_000 });
  assert.equal(d.concurrency['horizontal-pod-autoscaler'], 5);
  const o = parseOptions(['--kubeconfig=/k', '--pvclaimbinder-sync-period=2s', '--horizontal-pod-autoscaler-sync-period=1s', '--horizontal-pod-autoscaler-tolerance=0.2',
    '--horizontal-pod-autoscaler-downscale-stabilization=1m', '--horizontal-pod-autoscaler-cpu-initialization-period=2m', '--horizontal-pod-autoscaler-initial-readiness-delay=10s',
    '--concurrent-horizontal-pod-autoscaler-syncs=2']);
  assert.equal(o.pvClaimBinderSyncPeriodMs, 2_000);
  assert.deepEqual(o.hpa, { syncPeriodMs: 1_000, tolerance: 0.2, downscaleStabilizationMs: 60_000, cpuInitializationPeriodMs: 120_000, initialReadinessDelayMs: 10_000 });
  assert.equal(o.concurrency['horizontal-pod-autoscaler'], 2);
  assert.deepEqual(validateOptions(o), []);
  assert.deepEqual(validateOptions(parseOptions(['--kubeconfig=/k', '--horizontal-pod-autoscaler-sync-period=0s', '--pvclaimbinder-sync-period=0s',
    '--horizontal-pod-autoscaler-tolerance=-1', '--concurrent-horizontal-pod-autoscaler-syncs=0'])), [
    '--pvclaimbinder-sync-period must be greater than 0',
    '--horizontal-pod-autoscaler-sync-period must be greater than 0',
    '--horizontal-pod-autoscaler-tolerance must be a non-negative number',
    '--concurrent-horizontal-pod-autoscaler-syncs must be a positive integer',
  ]);
});

test('the endpoint slice and replication controllers: on by default, upstream 1.30 names, flags and their bounds', () => {
  for (const n of ['endpointslice', 'endpointslicemirroring', 'replicationcontroller']) assert.ok(names(['*']).includes(n), n);
  assert.deepEqual(names(['endpointslice-controller', 'endpointslice-mirroring-controller', 'replicationcontroller-controller']),
    ['endpointslice', 'endpointslicemirroring', 'replicationcontroller']);
  const d = parseOptions(['--kubeconfig=/k']);
  assert.deepEqual([d.concurrency['service-endpoint'], d.concurrency.rc], [5, 5]);
  assert.deepEqual(d.endpointSlice, { maxEndpointsPerSlice: 100, batchPeriodMs: 0 });
  assert.deepEqual(d.endpointSliceMirroring, { workers: 5, maxEndpointsPerSubset: 1000, batchPeriodMs: 0 });
  assert.equal(d.endpointUpdatesBatchPeriodMs, 0);
  const o = parseOptions(['--kubeconfig=/k', '--concurrent-service-endpoint-syncs=3', '--concurrent-rc-syncs=2', '--max-endpoints-per-slice=20',
    '--endpointslice-updates-batch-period=1s', '--endpoint-updates-batch-period=500ms', '--mirroring-concurrent-service-endpoint-syncs=4',
    '--mirroring-max-endpoints-per-subset=10', '--mirroring-endpointslice-updates-batch-period=2s']);
  assert.deepEqual(validateOptions(o), []);
  assert.deepEqual([o.concurrency['service-endpoint'], o.concurrency.rc, o.endpointUpdatesBatchPeriodMs], [3, 2, 500]);
  assert.deepEqual(o.endpointSlice, { maxEndpointsPerSlice: 20, batchPeriodMs: 1000 });
  assert.deepEqual(o.endpointSliceMirroring, { workers: 4, maxEndpointsPerSubset: 10, batchPeriodMs: 2000 });
  assert.deepEqual(validateOptions(parseOptions(['--kubeconfig=/k', '--concurrent-service-endpoint-syncs=51', '--max-endpoints-per-slice=0',
    '--mirroring-concurrent-service-endpoint-syncs=0', '--mirroring-max-endpoints-per-subset=1001', '--concurrent-rc-syncs=0'])), [
    'concurrent-service-endpoint-syncs must not be more than 50, but got 51',
    '--concurrent-rc-syncs must be a positive integer',
    'max-endpoints-per-slice must not be less than 1, but got 0',
    'mirroring-concurrent-service-endpoint-syncs must not be less than 1, but got 0',
    'mirroring-max-endpoints-per-subset must not be more than 1000, but got 1001',
  ]);
});

test('job, cronjob and ttl-after-finished are on by default under their upstream names, with their concurrency flags', () => {
  for (const n of ['job', 'cronjob', 'ttl-after-finished']) assert.ok(names(['*']).includes(n), n);
  assert.deepEqual(names(['job-controller', 'cronjob-controller', 'ttl-after-finished-controller']), ['job', 'cronjob', 'ttl-after-finished']);
  const d = parseOptions(['--kubeconfig', '/k']);
  assert.deepEqual([d.concurrency.job, d.concurrency['cron-job'], d.concurrency['ttl-after-finished']], [5, 5, 5]);
  const o = parseOptions(['--kubeconfig', '/k', '--concurrent-job-syncs', '2', '--concurrent-cron-job-syncs', '3', '--concurrent-ttl-after-finished-syncs', '4']);
  assert.deepEqual([o.concurrency.job, o.concurrency['cron-job'], o.concurrency['ttl-after-finished']], [2, 3, 4]);
  assert.deepEqual(validateOptions({ ...o, concurrency: { ...o.concurrency, job: 0 } }), ['--concurrent-job-syncs must be a positive integer']);
});

test('daemonset, nodelifecycle, taint-eviction-controller, podgc and ttl are on by default under upstream 1.30\'s names; their flags parse with upstream\'s defaults', () => {
  for (const n of ['daemonset', 'nodelifecycle', 'taint-eviction-controller', 'podgc', 'ttl']) assert.ok(names(['*']).includes(n), n);
  assert.deepEqual(names(['daemonset-controller', 'node-lifecycle-controller', 'taint-eviction-controller', 'pod-garbage-collector-controller', 'ttl-controller']),
    ['daemonset', 'nodelifecycle', 'taint-eviction-controller', 'podgc', 'ttl']);
  const d = parseOptions(['--kubeconfig=/k']);
  assert.equal(d.concurrency['daemonset'], 2);
  assert.deepEqual(d.nodeLifecycle, {
    monitorPeriodMs: 5_000, monitorGracePeriodMs: 40_000, startupGracePeriodMs: 60_000,
    evictionRate: 0.1, secondaryEvictionRate: 0.01, largeClusterSizeThreshold: 50, unhealthyZoneThreshold: 0.55,
  });
  assert.deepEqual(d.podGC, { terminatedPodThreshold: 12500, checkPeriodMs: 20_000, quarantineMs: 40_000 });
  const o = parseOptions(['--kubeconfig=/k', '--concurrent-daemonset-syncs=4', '--node-monitor-period=2s', '--node-monitor-grace-period=50s', '--node-startup-grace-period=2m',
    '--node-eviction-rate=0.5', '--secondary-node-eviction-rate=0.05', '--large-cluster-size-threshold=20', '--unhealthy-zone-threshold=0.4', '--terminated-pod-gc-threshold=100']);
  assert.deepEqual(validateOptions(o), []);
  assert.equal(o.concurrency['daemonset'], 4);
  assert.deepEqual(o.nodeLifecycle, {
    monitorPeriodMs: 2_000, monitorGracePeriodMs: 50_000, startupGracePeriodMs: 120_000,
    evictionRate: 0.5, secondaryEvictionRate: 0.05, largeClusterSizeThreshold: 20, unhealthyZoneThreshold: 0.4,
  });
  assert.equal(o.podGC.terminatedPodThreshold, 100);
  assert.deepEqual(validateOptions(parseOptions(['--kubeconfig=/k', '--node-monitor-period=0s', '--terminated-pod-gc-threshold=1.5'])),
    ['--node-monitor-period must be greater than 0', '--terminated-pod-gc-threshold must be an integer']);
});
