// The storage the registry is built on: etcd behind one shared watch per resource (the watch hub)
// and, with --watch-cache, the watch cache keeping each resource in memory for reads.
import type { Logger } from '../../../pkg/log/logger.js';
import type { APIServerMetrics } from '../../../pkg/metrics/apiserver-metrics.js';
import { WatchCacheMetrics } from '../../../pkg/metrics/watch-cache-metrics.js';
import { storagePrefix, type Scheme } from '../../../pkg/runtime/scheme.js';
import { Cacher } from '../../../pkg/storage/cacher/cacher.js';
import type { EtcdClientTLS } from '../../../pkg/storage/etcd3/credentials.js';
import type { Etcd3Storage } from '../../../pkg/storage/etcd3/store.js';
import type { Storage, StoredObject } from '../../../pkg/storage/interface.js';
import { WatchHub } from '../../../pkg/storage/watch-hub.js';
import type { APIServerOptions } from './options.js';
import { DEFAULT_WATCH_CACHE_SIZE, parseWatchCacheSizes, watchCacheSizesByPrefix } from './watch-cache-options.js';
import { readFlagFile } from './flag-file.js';

/** The contents of --etcd-cafile, --etcd-certfile and --etcd-keyfile; a file that cannot be read stops the start, naming its flag. */
export function etcdClientTLS(opts: APIServerOptions): EtcdClientTLS {
  const read = (flag: string, file: string): Buffer | undefined => (file ? readFlagFile(flag, file) : undefined);
  const ca = read('etcd-cafile', opts.etcdCAFile);
  const cert = read('etcd-certfile', opts.etcdCertFile);
  const key = read('etcd-keyfile', opts.etcdKeyFile);
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

/** The watch cache size of a resource named `resource.group`: --watch-cache-sizes, else the default; undefined for 0 (kept out). */
export function watchCacheSizeOf(opts: APIServerOptions): (resource: string, group: string) => number | undefined {
  const sizes = parseWatchCacheSizes(opts.watchCacheSizes);
  return (resource, group) => {
    const size = sizes.get(group ? `${resource}.${group}` : resource) ?? DEFAULT_WATCH_CACHE_SIZE;
    return opts.watchCache && size > 0 ? size : undefined;
  };
}

/**
 * The watch hub over etcd, inside the watch cache unless --watch-cache=false. `customSizes` holds
 * the sizes of the custom resources served (by storage prefix), kept as definitions come and go.
 */
export function cachedStorage(opts: APIServerOptions, etcd: Etcd3Storage, scheme: Scheme, metrics: APIServerMetrics, logger: Logger, customSizes: ReadonlyMap<string, number> = new Map()): Storage {
  const cacheSizes = watchCacheSizesByPrefix(scheme.resources(), parseWatchCacheSizes(opts.watchCacheSizes));
  const cacheMetrics = new WatchCacheMetrics(metrics.registry);
  // Metrics name a cached resource as upstream does: resource[.group] of the prefix's owner.
  const resourceOf = new Map<string, string>();
  for (const r of scheme.resources()) if (r.storagePrefix === storagePrefix(r.group, r.resource)) resourceOf.set(r.storagePrefix, r.group ? `${r.resource}.${r.group}` : r.resource);
  const podIndexers = new Map([['spec.nodeName', (o: StoredObject) => (o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '']]);
  return opts.watchCache
    ? new Cacher(etcd, {
      cacheSize: (prefix) => cacheSizes.get(prefix) ?? customSizes.get(prefix),
      // As upstream: pods by spec.nodeName, what every node agent lists and watches.
      indexers: (prefix) => (prefix === storagePrefix('', 'pods') ? podIndexers : undefined),
      events: {
        ready: (prefix, revision, objects, ms) => {
          cacheMetrics.initialized(resourceOf.get(prefix) ?? prefix, cacheSizes.get(prefix) ?? 0);
          logger.v(2).info('watch cache ready', { prefix, revision, objects, ms });
        },
        received: (prefix) => cacheMetrics.received(resourceOf.get(prefix) ?? prefix),
        // Upstream's index label: the field index used, else "namespace" for a namespaced list (ours: the key order).
        listed: (resourcePrefix, prefix, index, fetched, returned) => cacheMetrics.listed(resourcePrefix, index || (prefix === resourcePrefix ? '' : 'namespace'), fetched, returned),
        failed: (prefix, err) => logger.warn('watch cache failed; its reads go to etcd until it has listed again', { prefix, err: err instanceof Error ? err.message : String(err) }),
      },
    })
    : new WatchHub(etcd);
}
