// pkg/client: our public client library (REST client per kind in JSON or protobuf, kubeconfig with
// exec credential plug-ins, rate limiting, informers with shared indexed caches, work queues).
export { Client, type ClientOptions } from './client.js';
export type { Json, WireFormat } from './codec.js';
export { EventRecorder, type EventSubject } from './event-recorder.js';
export { Discovery, type DiscoveredGroup, type DiscoveredResource } from './discovery.js';
export {
  StatusError, isStatusError, statusErrorOf, hasStatusCause, isAlreadyExists, isConflict, isForbidden, isInvalid, isNotFound, isResourceExpired,
  isMethodNotSupported, isTooManyRequests, isUnauthorized,
} from './errors.js';
export { execAPIVersions, execExtensionName, type ExecConfig, type ExecInteractiveMode } from './exec-config.js';
export { ExecCredentialProvider, execInfoEnv, type ExecCredentials, type ExecProviderOptions } from './exec-credential.js';
export { Indexer, namespaceIndex, namespaceIndexFunc, objectKey, splitKey, type IndexFunc } from './indexer.js';
export { SharedInformerFactory, type InformerFactoryOptions } from './informer-factory.js';
export { defaultKubeconfigPath, loadKubeconfig, parseKubeconfig, type KubeconfigOverrides, type LoadedKubeconfig } from './kubeconfig.js';
export type { DeleteOptions, ListOptions, PatchOptions, PatchType, WatchOptions, WriteOptions } from './options.js';
export {
  BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, defaultControllerRateLimiter, type RateLimiter,
} from './rate-limiters.js';
export { DelayingQueue } from './delaying-queue.js';
export { RateLimitingQueue } from './rate-limiting-queue.js';
export { ResourceClient, type GroupVersionResource, type KubeObject, type ObjectList } from './resource-client.js';
export { anonymousConfig, defaultBurst, defaultQPS, type ExecClusterInfo, type RestConfig } from './rest-config.js';
export { SharedIndexInformer, deletedObject, isDeletedFinalStateUnknown, type DeletedFinalStateUnknown, type EventHandler, type InformerOptions } from './shared-informer.js';
export { TokenBucket } from '../util/token-bucket.js';
export { Transport, type TokenSource, type TransportOptions } from './transport.js';
export { Watch, type WatchEvent, type WatchEventType } from './watch.js';
export { WorkQueue } from './work-queue.js';
