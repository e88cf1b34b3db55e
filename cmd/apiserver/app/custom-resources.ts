// Custom resources in this server process: the registry that serves the CustomResourceDefinitions
// etcd holds, and the definitions' controllers upstream runs inside every API server (naming,
// establishing, finalizer), all fed by one in-process informer on the definitions.
import type { ApiDomain } from '../../../api/domain.js';
import { apiextensionsGroup } from '../../../api/apiextensions/v1/register.js';
import { CustomResourceRegistry } from '../../../pkg/apiextensions/custom-resource-registry.js';
import { EstablishingController } from '../../../pkg/apiextensions/controllers/establishing.js';
import { FinalizerController } from '../../../pkg/apiextensions/controllers/finalizer.js';
import { NamingController } from '../../../pkg/apiextensions/controllers/naming.js';
import type { Logger } from '../../../pkg/log/logger.js';
import type { Store } from '../../../pkg/registry/generic/store.js';
import type { Scheme } from '../../../pkg/runtime/scheme.js';
import { Cacher } from '../../../pkg/storage/cacher/cacher.js';
import type { Storage } from '../../../pkg/storage/interface.js';
import type { RevisionWatermark } from '../../../pkg/util/revision-watermark.js';
import { ServiceResolver } from '../../../pkg/admission/webhook/service-resolver.js';
import { cachedLister } from './admission.js';
import type { SharedCaches } from './caches.js';

export interface CustomResources {
  registry: CustomResourceRegistry;
  /** Starts the informer, the registry and the controllers; resolves once the stored definitions are served. */
  start(): Promise<void>;
  stop(): void;
}

export interface CustomResourcesOptions {
  scheme: Scheme;
  storage: Storage;
  domain: ApiDomain;
  stores: ReadonlyMap<string, Store>;
  caches: SharedCaches;
  logger: Logger;
  /** The watch cache size of a resource (`resource.group`), undefined to keep it out. */
  watchCacheSize(resource: string, group: string): number | undefined;
  /** Watch cache sizes by storage prefix, kept for the custom resources served. */
  watchCacheSizes: Map<string, number>;
  /** The definition revision the worker threads share (--workers); absent for a server of one thread. */
  watermark?: RevisionWatermark;
}

/** Custom resources, unless --runtime-config turned CustomResourceDefinitions off. */
export function customResources(o: CustomResourcesOptions): CustomResources | undefined {
  const group = apiextensionsGroup(o.domain);
  const definitions = o.stores.get(`${group}/customresourcedefinitions`);
  const cache = o.caches.get(group, 'customresourcedefinitions');
  if (!definitions || !cache) return undefined;
  const lister = cachedLister(o.stores, o.caches);
  // Conversion webhooks behind a Service are reached as admission webhooks are.
  const services = new ServiceResolver(lister('', 'services'), lister('', 'endpoints'));
  const registry = new CustomResourceRegistry({
    scheme: o.scheme,
    storage: o.storage,
    domain: o.domain,
    definitions,
    cache,
    logger: o.logger,
    watchCacheSize: o.watchCacheSize,
    watchCacheSizes: o.watchCacheSizes,
    forgetPrefix: (prefix) => (o.storage instanceof Cacher ? o.storage.forget(prefix) : Promise.resolve()),
    resolveService: (namespace, name, port) => services.resolve(namespace, name, port),
    ...(o.watermark ? { watermark: o.watermark } : {}),
  });
  const controllers = [
    new NamingController(cache, definitions, o.logger),
    new EstablishingController(cache, definitions, o.logger, (revision) => registry.written(revision)),
    new FinalizerController(cache, definitions, registry, o.domain, o.logger),
  ];
  return {
    registry,
    start: async () => {
      await o.caches.synced(group, 'customresourcedefinitions');
      await registry.start();
      for (const c of controllers) c.start();
    },
    stop: () => {
      for (const c of controllers) c.stop();
    },
  };
}
