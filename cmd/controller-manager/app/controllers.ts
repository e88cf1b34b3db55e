// Every controller the manager can run, by its upstream name, in one place: adding a controller is
// one line in `registrations` (and, when upstream has one, one line in `concurrencyFlags`).
import type { Controller } from '../../../pkg/controller/controller.js';
import { NamespaceController } from '../../../pkg/controller/namespace/namespace-controller.js';
import { RootCACertPublisher } from '../../../pkg/controller/rootcacertpublisher/publisher.js';
import { ServiceAccountsController } from '../../../pkg/controller/serviceaccount/serviceaccounts-controller.js';
import { clusterroleAggregationController } from '../../../pkg/controller/clusterroleaggregation/controller.js';
import { newServiceAccountTokenController } from '../../../pkg/controller/serviceaccounttoken/tokens-controller.js';
import { disruptionController } from '../../../pkg/controller/disruption/controller.js';
import { newEndpointController } from '../../../pkg/controller/endpoint/controller.js';
import { endpointSliceController } from '../../../pkg/controller/endpointslice/controller.js';
import { endpointSliceMirroringController } from '../../../pkg/controller/endpointslicemirroring/controller.js';
import { replicationcontrollerController } from '../../../pkg/controller/replicationcontroller/controller.js';
import { garbagecollectorController } from '../../../pkg/controller/garbagecollector/controller.js';
import { newResourceQuotaController } from '../../../pkg/controller/resourcequota/controller.js';
import { replicasetController } from '../../../pkg/controller/replicaset/controller.js';
import { deploymentController } from '../../../pkg/controller/deployment/controller.js';
import { statefulsetController } from '../../../pkg/controller/statefulset/controller.js';
import { jobController } from '../../../pkg/controller/job/controller.js';
import { cronjobController } from '../../../pkg/controller/cronjob/controller.js';
import { ttlAfterFinishedController } from '../../../pkg/controller/ttlafterfinished/controller.js';
import { newCSRSigningController } from '../../../pkg/controller/csrsigning/controller.js';
import { newCSRApprovingController } from '../../../pkg/controller/csrapproving/controller.js';
import { newCSRCleanerController } from '../../../pkg/controller/csrcleaner/controller.js';
import { tokenCleanerController } from '../../../pkg/controller/tokencleaner/controller.js';
import { bootstrapSignerController } from '../../../pkg/controller/bootstrapsigner/controller.js';
import { daemonsetController } from '../../../pkg/controller/daemonset/controller.js';
import { newNodeLifecycleController } from '../../../pkg/controller/nodelifecycle/controller.js';
import { newPodGCController } from '../../../pkg/controller/podgc/controller.js';
import { taintEvictionController, taintEvictionControllerName } from '../../../pkg/controller/tainteviction/controller.js';
import { ttlController } from '../../../pkg/controller/ttl/controller.js';
import { pvcProtectionController } from '../../../pkg/controller/pvcprotection/controller.js';
import { pvProtectionController } from '../../../pkg/controller/pvprotection/controller.js';
import { persistentVolumeBinderController } from '../../../pkg/controller/persistentvolumebinder/controller.js';
import { horizontalPodAutoscalingController } from '../../../pkg/controller/horizontalpodautoscaling/controller.js';
import { signingFiles, type ControllerManagerOptions } from './options.js';

/** What a registration's factory may read: the flags, and what the manager loaded from the files they name. */
export interface ControllerInit {
  options: ControllerManagerOptions;
  /** PEM of --service-account-private-key-file, when given. */
  serviceAccountPrivateKey?: string;
}

export interface ControllerRegistration {
  /** Upstream's short name (its alias since 1.28), as --controllers spells it; also the name it logs under. */
  name: string;
  factory: (init: ControllerInit) => Controller;
  /** Whether `*` enables it (upstream's ControllersDisabledByDefault are false here). */
  enabledByDefault: boolean;
  /**
   * What --kube-api-qps and --kube-api-burst are multiplied by for this controller's own client;
   * upstream gives the chatty namespace controller 20 and 100.
   */
  clientRateScale?: { qps: number; burst: number };
  /**
   * With --use-service-account-credentials, the service account (in the system namespace) it acts
   * as: upstream's name, which the bootstrap policy binds to `system:controller:<name>`. Absent, it
   * keeps the manager's own credentials, as upstream's tokens controller does (it makes the tokens
   * the others would need).
   */
  serviceAccount?: string;
}

/** The controllers, in the order they start. */
export const registrations: ControllerRegistration[] = [
  // Without a key the manager skips it (server.ts), as upstream does.
  { name: 'serviceaccount-token', factory: ({ serviceAccountPrivateKey }) => newServiceAccountTokenController({ privateKeyPem: serviceAccountPrivateKey ?? '' })(), enabledByDefault: true },
  { name: 'endpoint', factory: ({ options }) => newEndpointController({ batchPeriodMs: options.endpointUpdatesBatchPeriodMs })(), enabledByDefault: true, serviceAccount: 'endpoint-controller' },
  { name: 'endpointslice', factory: ({ options }) => endpointSliceController(options.endpointSlice)(), enabledByDefault: true, serviceAccount: 'endpointslice-controller' },
  { name: 'endpointslicemirroring', factory: ({ options }) => endpointSliceMirroringController(options.endpointSliceMirroring)(), enabledByDefault: true, serviceAccount: 'endpointslicemirroring-controller' },
  { name: 'replicationcontroller', factory: () => replicationcontrollerController(), enabledByDefault: true, serviceAccount: 'replication-controller' },
  { name: 'namespace', factory: () => new NamespaceController(), enabledByDefault: true, clientRateScale: { qps: 20, burst: 100 }, serviceAccount: 'namespace-controller' },
  { name: 'serviceaccount', factory: () => new ServiceAccountsController(), enabledByDefault: true, serviceAccount: 'service-account-controller' },
  { name: 'root-ca-cert-publisher', factory: () => new RootCACertPublisher(), enabledByDefault: true, serviceAccount: 'root-ca-cert-publisher' },
  { name: 'garbagecollector', factory: () => garbagecollectorController(), enabledByDefault: true, serviceAccount: 'generic-garbage-collector' },
  { name: 'resourcequota', factory: ({ options }) => newResourceQuotaController({ resyncPeriodMs: options.resourceQuotaSyncPeriodMs })(), enabledByDefault: true, serviceAccount: 'resourcequota-controller' },
  { name: 'disruption', factory: () => disruptionController(), enabledByDefault: true, serviceAccount: 'disruption-controller' },
  { name: 'clusterrole-aggregation', factory: () => clusterroleAggregationController(), enabledByDefault: true, serviceAccount: 'clusterrole-aggregation-controller' },
  { name: 'replicaset', factory: () => replicasetController(), enabledByDefault: true, serviceAccount: 'replicaset-controller' },
  { name: 'deployment', factory: () => deploymentController(), enabledByDefault: true, serviceAccount: 'deployment-controller' },
  { name: 'statefulset', factory: () => statefulsetController(), enabledByDefault: true, serviceAccount: 'statefulset-controller' },
  { name: 'job', factory: () => jobController(), enabledByDefault: true, serviceAccount: 'job-controller' },
  { name: 'cronjob', factory: () => cronjobController(), enabledByDefault: true, serviceAccount: 'cronjob-controller' },
  { name: 'ttl-after-finished', factory: () => ttlAfterFinishedController(), enabledByDefault: true, serviceAccount: 'ttl-after-finished-controller' },
  { name: 'daemonset', factory: () => daemonsetController(), enabledByDefault: true, serviceAccount: 'daemon-set-controller' },
  { name: 'nodelifecycle', factory: ({ options }) => newNodeLifecycleController(options.nodeLifecycle)(), enabledByDefault: true, serviceAccount: 'node-controller' },
  // Upstream 1.29 split it out of nodelifecycle; it has only its long name, and runs with nodelifecycle's role.
  { name: taintEvictionControllerName, factory: () => taintEvictionController(), enabledByDefault: true, serviceAccount: 'node-controller' },
  { name: 'podgc', factory: ({ options }) => newPodGCController(options.podGC)(), enabledByDefault: true, serviceAccount: 'pod-garbage-collector' },
  { name: 'ttl', factory: () => ttlController(), enabledByDefault: true, serviceAccount: 'ttl-controller' },
  { name: 'persistentvolume-binder', factory: ({ options }) => persistentVolumeBinderController({ syncPeriodMs: options.pvClaimBinderSyncPeriodMs })(), enabledByDefault: true, serviceAccount: 'persistent-volume-binder' },
  { name: 'pvc-protection', factory: () => pvcProtectionController(), enabledByDefault: true, serviceAccount: 'pvc-protection-controller' },
  { name: 'pv-protection', factory: () => pvProtectionController(), enabledByDefault: true, serviceAccount: 'pv-protection-controller' },
  { name: 'horizontalpodautoscaling', factory: ({ options }) => horizontalPodAutoscalingController(options.hpa)(), enabledByDefault: true, serviceAccount: 'horizontal-pod-autoscaler' },
  // Without any --cluster-signing-* files the manager skips it (server.ts), as upstream does.
  { name: 'csrsigning', factory: ({ options }) => newCSRSigningController({ signers: signingFiles(options.csrSigning), durationMs: options.csrSigning.durationMs })(), enabledByDefault: true, serviceAccount: 'certificate-controller' },
  { name: 'csrapproving', factory: () => newCSRApprovingController()(), enabledByDefault: true, serviceAccount: 'certificate-controller' },
  { name: 'csrcleaner', factory: () => newCSRCleanerController()(), enabledByDefault: true, serviceAccount: 'certificate-controller' },
  // Upstream's ControllersDisabledByDefault: a cluster that uses bootstrap tokens names them.
  { name: 'tokencleaner', factory: () => tokenCleanerController()(), enabledByDefault: false, serviceAccount: 'token-cleaner' },
  { name: 'bootstrapsigner', factory: () => bootstrapSignerController()(), enabledByDefault: false, serviceAccount: 'bootstrap-signer' },
];

/**
 * Upstream 1.30's controller names (cmd/kube-controller-manager/names) by the short names they
 * replaced: --controllers takes either, with or without the `-` prefix. Listed whole, so a
 * controller registered later under its short name takes its long name with it.
 */
export const upstreamControllerNames: Readonly<Record<string, string>> = {
  'serviceaccount-token': 'serviceaccount-token-controller',
  endpoint: 'endpoints-controller',
  endpointslice: 'endpointslice-controller',
  endpointslicemirroring: 'endpointslice-mirroring-controller',
  replicationcontroller: 'replicationcontroller-controller',
  podgc: 'pod-garbage-collector-controller',
  resourcequota: 'resourcequota-controller',
  namespace: 'namespace-controller',
  serviceaccount: 'serviceaccount-controller',
  garbagecollector: 'garbage-collector-controller',
  daemonset: 'daemonset-controller',
  job: 'job-controller',
  deployment: 'deployment-controller',
  replicaset: 'replicaset-controller',
  horizontalpodautoscaling: 'horizontal-pod-autoscaler-controller',
  disruption: 'disruption-controller',
  statefulset: 'statefulset-controller',
  cronjob: 'cronjob-controller',
  csrsigning: 'certificatesigningrequest-signing-controller',
  csrapproving: 'certificatesigningrequest-approving-controller',
  csrcleaner: 'certificatesigningrequest-cleaner-controller',
  ttl: 'ttl-controller',
  bootstrapsigner: 'bootstrap-signer-controller',
  tokencleaner: 'token-cleaner-controller',
  nodeipam: 'node-ipam-controller',
  nodelifecycle: 'node-lifecycle-controller',
  service: 'service-lb-controller',
  route: 'node-route-controller',
  'cloud-node-lifecycle': 'cloud-node-lifecycle-controller',
  'persistentvolume-binder': 'persistentvolume-binder-controller',
  attachdetach: 'persistentvolume-attach-detach-controller',
  'persistentvolume-expander': 'persistentvolume-expander-controller',
  'clusterrole-aggregation': 'clusterrole-aggregation-controller',
  'pvc-protection': 'persistentvolumeclaim-protection-controller',
  'pv-protection': 'persistentvolume-protection-controller',
  'ttl-after-finished': 'ttl-after-finished-controller',
  'root-ca-cert-publisher': 'root-ca-certificate-publisher-controller',
  'ephemeral-volume': 'ephemeral-volume-controller',
  'storage-version-gc': 'storageversion-garbage-collector-controller',
  resourceclaim: 'resourceclaim-controller',
  'legacy-service-account-token-cleaner': 'legacy-serviceaccount-token-cleaner-controller',
};

/** The registered name `given` (a short or a 1.30 name, without `-`) stands for; undefined when none. */
export function canonicalControllerName(given: string): string | undefined {
  for (const r of registrations) if (r.name === given || upstreamControllerNames[r.name] === given) return r.name;
  return undefined;
}

/** --controllers with every name made the registered one (upstream's ApplyTo); `*` and unknown names pass through. */
export function normalizeControllers(controllers: readonly string[]): string[] {
  return controllers.map((c) => {
    const off = c.startsWith('-');
    const bare = off ? c.slice(1) : c;
    const name = canonicalControllerName(bare) ?? bare;
    return off ? `-${name}` : name;
  });
}

export interface ConcurrencyFlag {
  /** `--concurrent-<stem>-syncs`; what ControllerContext.concurrency(stem) answers. */
  stem: string;
  default: number;
  describe: string;
  /** The range upstream checks, with its own words; else the value must be a positive integer. */
  bounds?: readonly [number, number];
}

/** Upstream's `--concurrent-*-syncs` of the controllers we have (or are about to have), with upstream's defaults. */
export const concurrencyFlags: ConcurrencyFlag[] = [
  { stem: 'endpoint', default: 5, describe: 'The number of endpoint syncing operations that will be done concurrently. Larger number = faster endpoint updating, but more CPU (and network) load' },
  { stem: 'service-endpoint', default: 5, bounds: [1, 50], describe: 'The number of service endpoint syncing operations that will be done concurrently. Larger number = faster endpoint slice updating, but more CPU (and network) load. Defaults to 5.' },
  { stem: 'rc', default: 5, describe: 'The number of replication controllers that are allowed to sync concurrently. Larger number = more responsive replica management, but more CPU (and network) load' },
  { stem: 'namespace', default: 10, describe: 'The number of namespace objects that are allowed to sync concurrently. Larger number = more responsive namespace termination, but more CPU (and network) load.' },
  { stem: 'serviceaccount-token', default: 5, describe: 'The number of service account token objects that are allowed to sync concurrently. Larger number = more responsive token generation, but more CPU (and network) load.' },
  { stem: 'gc', default: 20, describe: 'The number of garbage collector workers that are allowed to sync concurrently.' },
  { stem: 'resource-quota', default: 5, describe: 'The number of resource quotas that are allowed to sync concurrently. Larger number = more responsive quota management, but more CPU (and network) load.' },
  { stem: 'replicaset', default: 5, describe: 'The number of replica sets that are allowed to sync concurrently. Larger number = more responsive replica management, but more CPU (and network) load' },
  { stem: 'deployment', default: 5, describe: 'The number of deployment objects that are allowed to sync concurrently. Larger number = more responsive deployments, but more CPU (and network) load' },
  { stem: 'daemonset', default: 2, describe: 'The number of daemonset objects that are allowed to sync concurrently. Larger number = more responsive daemonsets, but more CPU (and network) load' },
  { stem: 'statefulset', default: 5, describe: 'The number of statefulset objects that are allowed to sync concurrently. Larger number = more responsive statefulsets, but more CPU (and network) load' },
  { stem: 'job', default: 5, describe: 'The number of job objects that are allowed to sync concurrently. Larger number = more responsive jobs, but more CPU (and network) load' },
  { stem: 'cron-job', default: 5, describe: 'The number of cron job objects that are allowed to sync concurrently. Larger number = more responsive jobs, but more CPU (and network) load' },
  { stem: 'ttl-after-finished', default: 5, describe: 'The number of ttl-after-finished-controller workers that are allowed to sync concurrently.' },
  { stem: 'horizontal-pod-autoscaler', default: 5, describe: 'The number of horizontal pod autoscaler objects that are allowed to sync concurrently. Larger number = more responsive horizontal pod autoscaler objects processing, but more CPU (and network) load.' },
];

/** Every name --controllers accepts: each registration's short name and, where upstream has one, its 1.30 name. */
export function knownControllerNames(): string[] {
  return registrations.flatMap((r) => (upstreamControllerNames[r.name] ? [r.name, upstreamControllerNames[r.name]!] : [r.name]));
}

/** Whether --controllers enables `name`: the first of `name`/`-name` (in either spelling) decides, else `*` for the default-on set. */
export function isControllerEnabled(name: string, controllers: readonly string[], enabledByDefault: boolean): boolean {
  let hasStar = false;
  for (const c of normalizeControllers(controllers)) {
    if (c === name) return true;
    if (c === `-${name}`) return false;
    if (c === '*') hasStar = true;
  }
  return hasStar && enabledByDefault;
}

/** The registrations --controllers enables, in start order. */
export function enabledControllers(controllers: readonly string[]): ControllerRegistration[] {
  return registrations.filter((r) => isControllerEnabled(r.name, controllers, r.enabledByDefault));
}
