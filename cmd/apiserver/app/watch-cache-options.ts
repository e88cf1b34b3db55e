// --watch-cache and --watch-cache-sizes, as kube-apiserver spells them.
import { storagePrefix } from '../../../pkg/runtime/scheme.js';

/** The event window of a resource whose size --watch-cache-sizes does not give (the watch hub's default). */
export const DEFAULT_WATCH_CACHE_SIZE = 10_000;

/**
 * Parses --watch-cache-sizes entries `resource[.group]#size` (the group after the first dot, none
 * for the core group) into sizes by `resource[.group]`; throws on a malformed entry, with
 * upstream's messages.
 */
export function parseWatchCacheSizes(entries: string[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const entry of entries) {
    const tokens = entry.split('#');
    if (tokens.length !== 2) throw new Error(`invalid value of watch cache size: ${entry}`);
    if (!/^[+-]?\d+$/.test(tokens[1]!)) throw new Error(`invalid size of watch cache size: ${entry}`);
    const size = Number(tokens[1]);
    if (size < 0) throw new Error(`watch cache size cannot be negative: ${entry}`);
    sizes.set(tokens[0]!, size);
  }
  return sizes;
}

/**
 * The watch cache size of each storage prefix of `resources` (resource and group, as the scheme
 * has them): the size --watch-cache-sizes gives the resource, else the default. Where several
 * resources share a prefix (a kind served from another's storage), the resource that owns it wins.
 */
export function watchCacheSizesByPrefix(resources: Iterable<{ resource: string; group: string; storagePrefix: string }>, sizes: ReadonlyMap<string, number>): Map<string, number> {
  const byPrefix = new Map<string, number>();
  const owned = new Set<string>();
  for (const r of resources) {
    const size = sizes.get(r.group ? `${r.resource}.${r.group}` : r.resource);
    const owner = r.storagePrefix === storagePrefix(r.group, r.resource);
    if (size !== undefined && (owner || !owned.has(r.storagePrefix))) byPrefix.set(r.storagePrefix, size);
    else if (!byPrefix.has(r.storagePrefix)) byPrefix.set(r.storagePrefix, DEFAULT_WATCH_CACHE_SIZE);
    if (owner && size !== undefined) owned.add(r.storagePrefix);
  }
  return byPrefix;
}
