// Command-line flags of the controller manager, named and defaulted as kube-controller-manager's.
import { isIP } from 'node:net';
import yargs from 'yargs';
import { invalidApiDomain } from '../../../api/domain.js';
import { parseDuration } from '../../../pkg/util/duration.js';
import type { NodeLifecycleOptions } from '../../../pkg/controller/nodelifecycle/controller.js';
import type { PodGCOptions } from '../../../pkg/controller/podgc/controller.js';
import { concurrencyFlags, knownControllerNames } from './controllers.js';
import { exitOnVersionFlag, versionFlagDefinition } from '../../internal/version-flag.js';

export interface ControllerManagerOptions {
  /** --kubeconfig: the manager's own credentials and the API server's address and CA. */
  kubeconfig: string;
  /** --master: overrides the kubeconfig's server URL. */
  master: string;
  /** --controllers as given: `*`, `name`, `-name`. */
  controllers: string[];
  kubeAPIQPS: number;
  kubeAPIBurst: number;
  /** --use-service-account-credentials: each controller acts as its own service account in the system namespace. */
  useServiceAccountCredentials: boolean;
  leaderElect: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  leaseNamespace: string;
  leaseName: string;
  /** `--concurrent-<stem>-syncs` by stem. */
  concurrency: Record<string, number>;
  securePort: number;
  bindAddress: string;
  /** Where the self-signed serving certificate is kept (--cert-dir). */
  certDir: string;
  /** --root-ca-file: the CA published as kube-root-ca.crt; the kubeconfig's CA when empty. */
  rootCAFile: string;
  /** --api-domain: must match the API server's. */
  apiDomain: string;
  /** --resource-quota-sync-period: how often every quota is recalculated in full. */
  resourceQuotaSyncPeriodMs: number;
  /** --pvclaimbinder-sync-period: how often the persistentvolume-binder syncs every claim and volume. */
  pvClaimBinderSyncPeriodMs: number;
  /** The --horizontal-pod-autoscaler-* flags. */
  hpa: HPAFlags;
  /** --service-account-private-key-file: the key legacy service account tokens are signed with; serviceaccount-token is off without it. */
  serviceAccountPrivateKeyFile: string;
  /** The --cluster-signing-* flags of csrsigning. */
  csrSigning: CSRSigningFlags;
  /** --endpoint-updates-batch-period: how long the endpoint controller lets pod changes gather before a sync. */
  endpointUpdatesBatchPeriodMs: number;
  /** The endpointslice controller's flags. */
  endpointSlice: EndpointSliceFlags;
  /** The endpointslicemirroring controller's flags. */
  endpointSliceMirroring: EndpointSliceMirroringFlags;
  /** The flags of nodelifecycle (--node-monitor-*, --node-eviction-rate, ...), upstream 1.30's. */
  nodeLifecycle: NodeLifecycleOptions;
  /** --terminated-pod-gc-threshold, and podgc's timings (constants upstream, which tests shorten as upstream's NewPodGCInternal lets its tests). */
  podGC: PodGCOptions;
  verbosity: number;
}

/** The flags of the horizontalpodautoscaling controller, as upstream's HPAControllerConfiguration. */
export interface HPAFlags {
  syncPeriodMs: number;
  tolerance: number;
  downscaleStabilizationMs: number;
  cpuInitializationPeriodMs: number;
  initialReadinessDelayMs: number;
}

export interface EndpointSliceFlags {
  /** --max-endpoints-per-slice. */
  maxEndpointsPerSlice: number;
  /** --endpointslice-updates-batch-period. */
  batchPeriodMs: number;
}

export interface EndpointSliceMirroringFlags {
  /** --mirroring-concurrent-service-endpoint-syncs. */
  workers: number;
  /** --mirroring-max-endpoints-per-subset. */
  maxEndpointsPerSubset: number;
  /** --mirroring-endpointslice-updates-batch-period. */
  batchPeriodMs: number;
}

/** A CA certificate and key file pair, as given (empty when not). */
export interface SigningFilePair {
  certFile: string;
  keyFile: string;
}

/** The per-signer flag stems, as upstream spells them (`--cluster-signing-<stem>-cert-file`). */
export const signerFlagStems = {
  kubeletServing: 'kubelet-serving',
  kubeletClient: 'kubelet-client',
  kubeAPIServerClient: 'kube-apiserver-client',
  legacyUnknown: 'legacy-unknown',
} as const;
export type SignerFlagKey = keyof typeof signerFlagStems;

export interface CSRSigningFlags {
  /** --cluster-signing-cert-file/-key-file: one CA for every built-in signer. */
  cluster: SigningFilePair;
  /** --cluster-signing-<stem>-cert-file/-key-file: a CA for one signer (not with the general pair). */
  signers: Record<SignerFlagKey, SigningFilePair>;
  /** --cluster-signing-duration: the longest lifetime a certificate is given. */
  durationMs: number;
}

/** The namespace the control plane keeps its own objects in (upstream's kube-system). */
export const systemNamespace = 'orch-system';
export const defaultLeaseName = 'orch-controller-manager';

/** Defaults as the flags give them (in-process callers override what they need). */
export function defaultOptions(): ControllerManagerOptions {
  return {
    kubeconfig: '',
    master: '',
    controllers: ['*'],
    kubeAPIQPS: 20,
    kubeAPIBurst: 30,
    useServiceAccountCredentials: false,
    leaderElect: true,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    leaseNamespace: systemNamespace,
    leaseName: defaultLeaseName,
    concurrency: Object.fromEntries(concurrencyFlags.map((f) => [f.stem, f.default])),
    securePort: 10257,
    bindAddress: '0.0.0.0',
    certDir: '',
    rootCAFile: '',
    apiDomain: 'orch.io',
    resourceQuotaSyncPeriodMs: 5 * 60_000,
    pvClaimBinderSyncPeriodMs: 15_000,
    hpa: { syncPeriodMs: 15_000, tolerance: 0.1, downscaleStabilizationMs: 5 * 60_000, cpuInitializationPeriodMs: 5 * 60_000, initialReadinessDelayMs: 30_000 },
    serviceAccountPrivateKeyFile: '',
    csrSigning: {
      cluster: { certFile: '', keyFile: '' },
      signers: Object.fromEntries(Object.keys(signerFlagStems).map((k) => [k, { certFile: '', keyFile: '' }])) as Record<SignerFlagKey, SigningFilePair>,
      durationMs: 8760 * 3600_000,
    },
    endpointUpdatesBatchPeriodMs: 0,
    endpointSlice: { maxEndpointsPerSlice: 100, batchPeriodMs: 0 },
    endpointSliceMirroring: { workers: 5, maxEndpointsPerSubset: 1000, batchPeriodMs: 0 },
    nodeLifecycle: {
      monitorPeriodMs: 5_000, monitorGracePeriodMs: 40_000, startupGracePeriodMs: 60_000,
      evictionRate: 0.1, secondaryEvictionRate: 0.01, largeClusterSizeThreshold: 50, unhealthyZoneThreshold: 0.55,
    },
    podGC: { terminatedPodThreshold: 12500, checkPeriodMs: 20_000, quarantineMs: 40_000 },
    verbosity: 0,
  };
}

function usageError(message: string): never {
  process.stderr.write(`Error: ${message}\n\nRun 'controller-manager --help' for usage.\n`);
  return process.exit(1);
}

/** Parses argv; prints help or a clear error and exits on a bad flag. */
export function parseOptions(argv: string[]): ControllerManagerOptions {
  const d = defaultOptions();
  let y = yargs(argv)
    .scriptName('controller-manager')
    .usage('$0 [flags]\n\nThe orch controller manager: runs the control loops that drive the cluster toward its desired state, talking to the API server only through its API.')
    .parserConfiguration({ 'camel-case-expansion': false, 'strip-aliased': true, 'boolean-negation': false })
    .option('kubeconfig', { type: 'string', default: '', describe: 'Path to kubeconfig file with authorization and master location information.', group: 'Generic:' })
    .option('master', { type: 'string', default: '', describe: 'The address of the API server (overrides any value in kubeconfig).', group: 'Generic:' })
    .option('controllers', {
      type: 'string', array: true, default: ['*'] as string[], group: 'Generic:',
      describe: `A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.\nAll controllers: ${knownControllerNames().join(', ')}`,
    })
    .option('kube-api-qps', { type: 'number', default: d.kubeAPIQPS, describe: 'QPS to use while talking with the API server.', group: 'Generic:' })
    .option('kube-api-burst', { type: 'number', default: d.kubeAPIBurst, describe: 'Burst to use while talking with the API server.', group: 'Generic:' })
    .option('use-service-account-credentials', { type: 'boolean', default: d.useServiceAccountCredentials, describe: 'If true, use individual service account credentials for each controller.', group: 'Generic:' })
    .option('api-domain', { type: 'string', default: d.apiDomain, describe: 'The platform domain the API server was started with (--api-domain): group names, finalizers and keys derive from it.', group: 'Generic:' })
    .option('root-ca-file', { type: 'string', default: '', describe: "If set, this root certificate authority will be included in the kube-root-ca.crt ConfigMap of every namespace. Defaults to the CA of the kubeconfig's cluster.", group: 'Generic:' })
    .option('resource-quota-sync-period', { type: 'string', default: '5m0s', describe: 'The period for syncing quota usage status in the system', group: 'Controllers:' })
    .option('pvclaimbinder-sync-period', { type: 'string', default: '15s', describe: 'The period for syncing persistent volumes and persistent volume claims', group: 'Controllers:' })
    .option('horizontal-pod-autoscaler-sync-period', { type: 'string', default: '15s', describe: 'The period for syncing the number of pods in horizontal pod autoscaler.', group: 'Controllers:' })
    .option('horizontal-pod-autoscaler-tolerance', { type: 'number', default: d.hpa.tolerance, describe: 'The minimum change (from 1.0) in the desired-to-actual metrics ratio for the horizontal pod autoscaler to consider scaling.', group: 'Controllers:' })
    .option('horizontal-pod-autoscaler-downscale-stabilization', { type: 'string', default: '5m0s', describe: 'The period for which autoscaler will look backwards and not scale down below any recommendation it made during that period.', group: 'Controllers:' })
    .option('horizontal-pod-autoscaler-cpu-initialization-period', { type: 'string', default: '5m0s', describe: 'The period after pod start when CPU samples might be skipped.', group: 'Controllers:' })
    .option('horizontal-pod-autoscaler-initial-readiness-delay', { type: 'string', default: '30s', describe: 'The period after pod start during which readiness changes will be treated as initial readiness.', group: 'Controllers:' })
    .option('service-account-private-key-file', { type: 'string', default: '', describe: 'Filename containing a PEM-encoded private RSA or ECDSA key used to sign service account tokens.', group: 'Controllers:' })
    .option('cluster-signing-cert-file', { type: 'string', default: '', describe: 'Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates.  If specified, no more specific --cluster-signing-* flag may be specified.', group: 'CSR signing:' })
    .option('cluster-signing-key-file', { type: 'string', default: '', describe: 'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates.  If specified, no more specific --cluster-signing-* flag may be specified.', group: 'CSR signing:' })
    .option('cluster-signing-duration', { type: 'string', default: '8760h0m0s', describe: 'The max length of duration signed certificates will be given.  Individual CSRs may request shorter certs by setting spec.expirationSeconds.', group: 'CSR signing:' })
    .option('endpoint-updates-batch-period', { type: 'string', default: '0s', describe: 'The length of endpoint updates batching period. Processing of pod changes will be delayed by this duration to join them with potential upcoming updates and reduce the overall number of endpoints updates. Larger number = higher endpoint programming latency, but lower number of endpoints revision generated', group: 'Controllers:' })
    .option('max-endpoints-per-slice', { type: 'number', default: d.endpointSlice.maxEndpointsPerSlice, describe: 'The maximum number of endpoints that will be added to an EndpointSlice. More endpoints per slice will result in less endpoint slices, but larger resources. Defaults to 100.', group: 'Controllers:' })
    .option('endpointslice-updates-batch-period', { type: 'string', default: '0s', describe: 'The length of endpoint slice updates batching period. Processing of pod changes will be delayed by this duration to join them with potential upcoming updates and reduce the overall number of endpoints updates. Larger number = higher endpoint programming latency, but lower number of endpoints revision generated', group: 'Controllers:' })
    .option('mirroring-concurrent-service-endpoint-syncs', { type: 'number', default: d.endpointSliceMirroring.workers, describe: 'The number of service endpoint syncing operations that will be done concurrently by the endpointslice-mirroring-controller. Larger number = faster endpoint slice updating, but more CPU (and network) load. Defaults to 5.', group: 'Controllers:' })
    .option('mirroring-max-endpoints-per-subset', { type: 'number', default: d.endpointSliceMirroring.maxEndpointsPerSubset, describe: 'The maximum number of endpoints that will be added to an EndpointSlice by the endpointslice-mirroring-controller. More endpoints per slice will result in less endpoint slices, but larger resources. Defaults to 100.', group: 'Controllers:' })
    .option('mirroring-endpointslice-updates-batch-period', { type: 'string', default: '0s', describe: 'The length of EndpointSlice updates batching period for endpointslice-mirroring-controller. Processing of EndpointSlice changes will be delayed by this duration to join them with potential upcoming updates and reduce the overall number of EndpointSlice updates. Larger number = higher endpoint programming latency, but lower number of endpoints revision generated', group: 'Controllers:' })
    .option('node-monitor-period', { type: 'string', default: '5s', describe: 'The period for syncing NodeStatus in cloud-node-lifecycle-controller.', group: 'Controllers:' })
    .option('node-monitor-grace-period', { type: 'string', default: '40s', describe: "Amount of time which we allow running Node to be unresponsive before marking it unhealthy. Must be N times more than kubelet's nodeStatusUpdateFrequency, where N means number of retries allowed for kubelet to post node status.", group: 'Controllers:' })
    .option('node-startup-grace-period', { type: 'string', default: '1m0s', describe: 'Amount of time which we allow starting Node to be unresponsive before marking it unhealthy.', group: 'Controllers:' })
    .option('node-eviction-rate', { type: 'number', default: d.nodeLifecycle.evictionRate, describe: 'Number of nodes per second on which pods are deleted in case of node failure when a zone is healthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). Zone refers to entire cluster in non-multizone clusters.', group: 'Controllers:' })
    .option('secondary-node-eviction-rate', { type: 'number', default: d.nodeLifecycle.secondaryEvictionRate, describe: 'Number of nodes per second on which pods are deleted in case of node failure when a zone is unhealthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). Zone refers to entire cluster in non-multizone clusters. This value is implicitly overridden to 0 if the cluster size is smaller than --large-cluster-size-threshold.', group: 'Controllers:' })
    .option('large-cluster-size-threshold', { type: 'number', default: d.nodeLifecycle.largeClusterSizeThreshold, describe: 'Number of nodes from which node-lifecycle-controller treats the cluster as large for the eviction logic purposes. --secondary-node-eviction-rate is implicitly overridden to 0 for clusters this size or smaller.', group: 'Controllers:' })
    .option('unhealthy-zone-threshold', { type: 'number', default: d.nodeLifecycle.unhealthyZoneThreshold, describe: 'Fraction of Nodes in a zone which needs to be not Ready (minimum 3) for zone to be treated as unhealthy. ', group: 'Controllers:' })
    .option('terminated-pod-gc-threshold', { type: 'number', default: d.podGC.terminatedPodThreshold, describe: 'Number of terminated pods that can exist before the terminated pod garbage collector starts deleting terminated pods. If <= 0, the terminated pod garbage collector is disabled.', group: 'Controllers:' })
    .option('leader-elect', { type: 'boolean', default: d.leaderElect, describe: 'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.', group: 'Leader election:' })
    .option('leader-elect-lease-duration', { type: 'string', default: '15s', describe: 'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot.', group: 'Leader election:' })
    .option('leader-elect-renew-deadline', { type: 'string', default: '10s', describe: 'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration.', group: 'Leader election:' })
    .option('leader-elect-retry-period', { type: 'string', default: '2s', describe: 'The duration the clients should wait between attempting acquisition and renewal of a leadership.', group: 'Leader election:' })
    .option('leader-elect-resource-lock', { type: 'string', default: 'leases', describe: "The type of resource object that is used for locking during leader election. Only 'leases' is supported.", group: 'Leader election:' })
    .option('leader-elect-resource-namespace', { type: 'string', default: d.leaseNamespace, describe: 'The namespace of resource object that is used for locking during leader election.', group: 'Leader election:' })
    .option('leader-elect-resource-name', { type: 'string', default: d.leaseName, describe: 'The name of resource object that is used for locking during leader election.', group: 'Leader election:' })
    .option('secure-port', { type: 'number', default: d.securePort, describe: 'The port on which to serve HTTPS (/healthz, /metrics). 0 picks a free port.', group: 'Secure serving:' })
    .option('bind-address', { type: 'string', default: d.bindAddress, describe: 'The IP address on which to listen for the --secure-port port.', group: 'Secure serving:' })
    .option('cert-dir', { type: 'string', default: '', describe: 'The directory where the self-signed serving certificate is kept; a temporary directory when empty.', group: 'Secure serving:' })
    .option('v', { type: 'number', default: 0, describe: 'Number for the log level verbosity.', group: 'Logging:' });
  for (const [key, stem] of Object.entries(signerFlagStems)) {
    // The domain is only known once --api-domain is parsed: help names it generically.
    const signer = `<api-domain>/${key === 'kubeletClient' ? 'kube-apiserver-client-kubelet' : stem}`;
    y = y
      .option(`cluster-signing-${stem}-cert-file`, { type: 'string', default: '', describe: `Filename containing a PEM-encoded X509 CA certificate used to issue certificates for the ${signer} signer.  If specified, --cluster-signing-{cert,key}-file must not be set.`, group: 'CSR signing:' })
      .option(`cluster-signing-${stem}-key-file`, { type: 'string', default: '', describe: `Filename containing a PEM-encoded RSA or ECDSA private key used to sign certificates for the ${signer} signer.  If specified, --cluster-signing-{cert,key}-file must not be set.`, group: 'CSR signing:' });
  }
  for (const f of concurrencyFlags) {
    y = y.option(`concurrent-${f.stem}-syncs`, { type: 'number', default: f.default, describe: f.describe, group: 'Controllers:' });
  }
  const parsed = y
    .strictOptions()
    .help('help')
    .alias('help', 'h')
    .version(false)
    .option('version', versionFlagDefinition)
    .wrap(Math.min(120, process.stdout.columns || 100))
    .fail((msg, err) => usageError(msg ?? err?.message ?? 'bad flags'))
    .parseSync() as Record<string, unknown>;
  exitOnVersionFlag('controller-manager', parsed.version);
  const duration = (flag: string): number => {
    try {
      return parseDuration(String(parsed[flag]));
    } catch (e) {
      return usageError(`--${flag}: ${(e as Error).message}`);
    }
  };
  if (parsed['leader-elect-resource-lock'] !== 'leases') usageError(`--leader-elect-resource-lock: only "leases" is supported, not ${JSON.stringify(parsed['leader-elect-resource-lock'])}`);
  return {
    kubeconfig: String(parsed.kubeconfig),
    master: String(parsed.master),
    controllers: (parsed.controllers as string[]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean),
    kubeAPIQPS: Number(parsed['kube-api-qps']),
    kubeAPIBurst: Number(parsed['kube-api-burst']),
    useServiceAccountCredentials: Boolean(parsed['use-service-account-credentials']),
    leaderElect: Boolean(parsed['leader-elect']),
    leaseDurationMs: duration('leader-elect-lease-duration'),
    renewDeadlineMs: duration('leader-elect-renew-deadline'),
    retryPeriodMs: duration('leader-elect-retry-period'),
    leaseNamespace: String(parsed['leader-elect-resource-namespace']),
    leaseName: String(parsed['leader-elect-resource-name']),
    concurrency: Object.fromEntries(concurrencyFlags.map((f) => [f.stem, Number(parsed[`concurrent-${f.stem}-syncs`])])),
    securePort: Number(parsed['secure-port']),
    bindAddress: String(parsed['bind-address']),
    certDir: String(parsed['cert-dir']),
    rootCAFile: String(parsed['root-ca-file']),
    apiDomain: String(parsed['api-domain']),
    resourceQuotaSyncPeriodMs: duration('resource-quota-sync-period'),
    pvClaimBinderSyncPeriodMs: duration('pvclaimbinder-sync-period'),
    hpa: {
      syncPeriodMs: duration('horizontal-pod-autoscaler-sync-period'),
      tolerance: Number(parsed['horizontal-pod-autoscaler-tolerance']),
      downscaleStabilizationMs: duration('horizontal-pod-autoscaler-downscale-stabilization'),
      cpuInitializationPeriodMs: duration('horizontal-pod-autoscaler-cpu-initialization-period'),
      initialReadinessDelayMs: duration('horizontal-pod-autoscaler-initial-readiness-delay'),
    },
    serviceAccountPrivateKeyFile: String(parsed['service-account-private-key-file']),
    csrSigning: {
      cluster: { certFile: String(parsed['cluster-signing-cert-file']), keyFile: String(parsed['cluster-signing-key-file']) },
      signers: Object.fromEntries(Object.entries(signerFlagStems).map(([key, stem]) => [key, {
        certFile: String(parsed[`cluster-signing-${stem}-cert-file`]), keyFile: String(parsed[`cluster-signing-${stem}-key-file`]),
      }])) as Record<SignerFlagKey, SigningFilePair>,
      durationMs: duration('cluster-signing-duration'),
    },
    endpointUpdatesBatchPeriodMs: duration('endpoint-updates-batch-period'),
    endpointSlice: { maxEndpointsPerSlice: Number(parsed['max-endpoints-per-slice']), batchPeriodMs: duration('endpointslice-updates-batch-period') },
    endpointSliceMirroring: {
      workers: Number(parsed['mirroring-concurrent-service-endpoint-syncs']),
      maxEndpointsPerSubset: Number(parsed['mirroring-max-endpoints-per-subset']),
      batchPeriodMs: duration('mirroring-endpointslice-updates-batch-period'),
    },
    nodeLifecycle: {
      monitorPeriodMs: duration('node-monitor-period'),
      monitorGracePeriodMs: duration('node-monitor-grace-period'),
      startupGracePeriodMs: duration('node-startup-grace-period'),
      evictionRate: Number(parsed['node-eviction-rate']),
      secondaryEvictionRate: Number(parsed['secondary-node-eviction-rate']),
      largeClusterSizeThreshold: Number(parsed['large-cluster-size-threshold']),
      unhealthyZoneThreshold: Number(parsed['unhealthy-zone-threshold']),
    },
    podGC: { ...d.podGC, terminatedPodThreshold: Number(parsed['terminated-pod-gc-threshold']) },
    verbosity: Number(parsed.v),
  };
}

/** Mistakes an operator should hear about before anything starts. */
export function validateOptions(o: ControllerManagerOptions): string[] {
  const errs: string[] = [];
  if (!o.kubeconfig && !o.master) errs.push('--kubeconfig or --master must be given (there is no in-cluster configuration)');
  if (o.master && !/^https:\/\/[^/]+/.test(o.master)) errs.push(`--master: ${JSON.stringify(o.master)} must be an https:// URL`);
  const known = new Set(knownControllerNames());
  for (const c of o.controllers) {
    const name = c.startsWith('-') ? c.slice(1) : c;
    if (c !== '*' && !known.has(name)) errs.push(`--controllers: ${JSON.stringify(c)} is not in the list of known controllers`);
  }
  if (!(o.resourceQuotaSyncPeriodMs > 0)) errs.push('--resource-quota-sync-period must be greater than 0');
  if (!(o.pvClaimBinderSyncPeriodMs > 0)) errs.push('--pvclaimbinder-sync-period must be greater than 0');
  if (!(o.hpa.syncPeriodMs > 0)) errs.push('--horizontal-pod-autoscaler-sync-period must be greater than 0');
  if (!Number.isFinite(o.hpa.tolerance) || o.hpa.tolerance < 0) errs.push('--horizontal-pod-autoscaler-tolerance must be a non-negative number');
  if (!(o.kubeAPIQPS > 0)) errs.push('--kube-api-qps must be greater than 0');
  if (!Number.isInteger(o.kubeAPIBurst) || o.kubeAPIBurst < 1) errs.push('--kube-api-burst must be a positive integer');
  if (o.leaderElect) {
    if (o.leaseDurationMs <= 0) errs.push('--leader-elect-lease-duration must be greater than 0');
    if (o.renewDeadlineMs <= 0) errs.push('--leader-elect-renew-deadline must be greater than 0');
    if (o.retryPeriodMs <= 0) errs.push('--leader-elect-retry-period must be greater than 0');
    if (o.leaseDurationMs <= o.renewDeadlineMs) errs.push('--leader-elect-lease-duration must be greater than --leader-elect-renew-deadline');
    if (o.renewDeadlineMs <= o.retryPeriodMs * 1.2) errs.push('--leader-elect-renew-deadline must be greater than --leader-elect-retry-period times 1.2');
    if (!o.leaseNamespace) errs.push('--leader-elect-resource-namespace must not be empty');
    if (!o.leaseName) errs.push('--leader-elect-resource-name must not be empty');
  }
  for (const [stem, n] of Object.entries(o.concurrency)) {
    const bounds = concurrencyFlags.find((f) => f.stem === stem)?.bounds;
    if (bounds) errs.push(...inBounds(`concurrent-${stem}-syncs`, n, bounds));
    else if (!Number.isInteger(n) || n < 1) errs.push(`--concurrent-${stem}-syncs must be a positive integer`);
  }
  errs.push(...inBounds('max-endpoints-per-slice', o.endpointSlice.maxEndpointsPerSlice, [1, 1000]));
  errs.push(...inBounds('mirroring-concurrent-service-endpoint-syncs', o.endpointSliceMirroring.workers, [1, 50]));
  errs.push(...inBounds('mirroring-max-endpoints-per-subset', o.endpointSliceMirroring.maxEndpointsPerSubset, [1, 1000]));
  for (const [flag, ms] of [['endpoint-updates-batch-period', o.endpointUpdatesBatchPeriodMs], ['endpointslice-updates-batch-period', o.endpointSlice.batchPeriodMs],
    ['mirroring-endpointslice-updates-batch-period', o.endpointSliceMirroring.batchPeriodMs]] as const) {
    if (ms < 0) errs.push(`--${flag} must not be negative`);
  }
  if (!Number.isInteger(o.securePort) || o.securePort < 0 || o.securePort > 65535) errs.push('--secure-port must be between 0 and 65535, inclusive');
  if (isIP(o.bindAddress) === 0) errs.push(`--bind-address: ${JSON.stringify(o.bindAddress)} is not a valid IP address`);
  const badDomain = invalidApiDomain(o.apiDomain);
  if (badDomain) errs.push(`--api-domain: ${badDomain}`);
  errs.push(...validateCSRSigning(o.csrSigning));
  errs.push(...validateNodeLifecycle(o.nodeLifecycle));
  if (!Number.isInteger(o.podGC.terminatedPodThreshold)) errs.push('--terminated-pod-gc-threshold must be an integer');
  if (!Number.isInteger(o.verbosity) || o.verbosity < 0) errs.push('--v must be a non-negative integer');
  return errs;
}

/** Upstream's range checks of the endpoint slice controllers' int32 flags, in their words. */
function inBounds(flag: string, n: number, [min, max]: readonly [number, number]): string[] {
  if (!Number.isInteger(n) || n < min) return [`${flag} must not be less than ${min}, but got ${n}`];
  if (n > max) return [`${flag} must not be more than ${max}, but got ${n}`];
  return [];
}

/**
 * What nodelifecycle cannot run with. Upstream validates none of these (a zero period panics its
 * ticker, a NaN rate is parsed away by pflag); we refuse what would spin or never act.
 */
function validateNodeLifecycle(n: NodeLifecycleOptions): string[] {
  const errs: string[] = [];
  if (!(n.monitorPeriodMs > 0)) errs.push('--node-monitor-period must be greater than 0');
  for (const [flag, v] of [['node-eviction-rate', n.evictionRate], ['secondary-node-eviction-rate', n.secondaryEvictionRate], ['unhealthy-zone-threshold', n.unhealthyZoneThreshold]] as const) {
    if (!Number.isFinite(v)) errs.push(`--${flag} must be a number`);
  }
  if (!Number.isInteger(n.largeClusterSizeThreshold)) errs.push('--large-cluster-size-threshold must be an integer');
  return errs;
}

/** Upstream's csrSigningFilesValid: a certificate and its key come together. */
function pairError(p: SigningFilePair): string | undefined {
  if (!p.certFile && p.keyFile) return 'cannot specify key without cert';
  if (p.certFile && !p.keyFile) return 'cannot specify cert without key';
  return undefined;
}

/** Upstream's CSRSigningControllerOptions.Validate (each pair complete; the general pair alone or the per-signer ones), plus a positive duration. */
export function validateCSRSigning(c: CSRSigningFlags): string[] {
  const errs: string[] = [];
  const general = pairError(c.cluster);
  // Upstream checks only the per-signer pairs (a lone general file just leaves signing off); a half pair is a mistake either way.
  if (general) errs.push(`"cluster-signing": ${general}`);
  for (const [key, stem] of Object.entries(signerFlagStems)) {
    const err = pairError(c.signers[key as SignerFlagKey]);
    if (err) errs.push(`"cluster-signing-${stem}": ${err}`);
  }
  const anySpecific = Object.values(c.signers).some((p) => p.certFile || p.keyFile);
  if ((c.cluster.certFile || c.cluster.keyFile) && anySpecific) errs.push('cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time');
  if (!(c.durationMs > 0)) errs.push('--cluster-signing-duration must be greater than 0');
  return errs;
}

/**
 * The CA files of each built-in signer (upstream's get*SignerFiles): the per-signer pairs when any
 * is given, else the general pair for all four; a signer without files does not sign.
 */
export function signingFiles(c: CSRSigningFlags): Partial<Record<SignerFlagKey, SigningFilePair>> {
  const anySpecific = Object.values(c.signers).some((p) => p.certFile || p.keyFile);
  const out: Partial<Record<SignerFlagKey, SigningFilePair>> = {};
  for (const key of Object.keys(signerFlagStems) as SignerFlagKey[]) {
    const pair = anySpecific ? c.signers[key] : c.cluster;
    if (pair.certFile && pair.keyFile) out[key] = pair;
  }
  return out;
}
