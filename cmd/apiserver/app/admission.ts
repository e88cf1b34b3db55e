// Builds the admission chain from the flags: the enabled plug-ins in upstream's fixed order, each
// made with its configuration (--admission-control-config-file, or flags for the plug-ins upstream
// configures by flag) and with listers over in-process caches that are synced before the server
// serves.
import type { ApiDomain } from '../../../api/domain.js';
import { builtinPlugins } from '../../../pkg/admission/builtin.js';
import type { AdmissionChain } from '../../../pkg/admission/chain.js';
import { readAdmissionConfiguration } from '../../../pkg/admission/config-file.js';
import type { AdmissionObject, AdmissionObserver, AuthorizeFunc, ObjectLister, PluginDeps } from '../../../pkg/admission/interfaces.js';
import { schemeObjectInterfaces } from '../../../pkg/admission/object-interfaces.js';
import type { ObjectDecoder } from '../../../pkg/runtime/decoder.js';
import type { Scheme } from '../../../pkg/runtime/scheme.js';
import { enabledAdmissionPlugins, validateAdmissionPluginFlags } from '../../../pkg/admission/plugins.js';
import type { Logger } from '../../../pkg/log/logger.js';
import type { SharedCaches } from './caches.js';
import type { Store } from '../../../pkg/registry/generic/store.js';
import type { AdmissionOptions } from './admission-options.js';

const emptyLister: ObjectLister = { get: () => undefined, list: () => [], fetch: async () => undefined };

export interface AdmissionDeps {
  domain: ApiDomain;
  /** Stores by `<group>/<resource>`. */
  stores: ReadonlyMap<string, Store>;
  /** The caches plug-ins read, shared with authentication. */
  caches: SharedCaches;
  logger: Logger;
  /** The served kinds, for the webhooks' equivalent resources and conversions. */
  scheme: Scheme;
  /** How a webhook's patched object is decoded, as a request body is. */
  decoder: ObjectDecoder;
  /** Where admission latencies and webhook outcomes are reported. */
  metrics?: AdmissionObserver;
  /** The server's authorizer, for the plug-ins that check further permissions (CSR approve and sign). */
  authorize?: AuthorizeFunc;
  /** The store serving a custom resource version now, for the plug-ins reading custom resources (a policy's params). */
  customStore?(group: string, version: string, resource: string): Store | undefined;
}

/** Listers over the server's in-process caches (live reads when the cache has not seen an object yet). */
export function cachedLister(stores: AdmissionDeps['stores'], caches: AdmissionDeps['caches']): (group: string, resource: string) => ObjectLister {
  return (group, resource) => {
    const store = stores.get(`${group}/${resource}`);
    const cache = caches.get(group, resource);
    // A resource --runtime-config turned off has no objects: nothing to default from or refer to.
    if (!store || !cache) return emptyLister;
    return {
      get: (namespace, name) => cache.get(namespace, name) as AdmissionObject | undefined,
      list: (namespace) => cache.list(namespace) as unknown as AdmissionObject[],
      fetch: (namespace, name) => fetchLive(store, namespace, name),
    };
  };
}

/** The stored object, read from etcd; undefined when there is none. */
async function fetchLive(store: Store, namespace: string, name: string): Promise<AdmissionObject | undefined> {
  try {
    return (await store.get(namespace, name)) as unknown as AdmissionObject;
  } catch (e) {
    if ((e as { code?: number }).code === 404) return undefined;
    throw e;
  }
}

/**
 * The cache of a custom resource version, found anew on every read: a definition deleted and
 * created again is served by another store, whose cache takes over. Undefined when not served.
 */
function customInformer(caches: SharedCaches, storeOf: () => Store | undefined): ReturnType<NonNullable<PluginDeps['informer']>> {
  const current = () => {
    const store = storeOf();
    return store ? { store, ...caches.customResource(store) } : undefined;
  };
  const first = current();
  if (!first) return undefined;
  return {
    lister: {
      get: (namespace, name) => current()?.cache.get(namespace, name) as AdmissionObject | undefined,
      list: (namespace) => (current()?.cache.list(namespace) ?? []) as unknown as AdmissionObject[],
      fetch: async (namespace, name) => {
        const store = current()?.store;
        return store ? fetchLive(store, namespace, name) : undefined;
      },
    },
    hasSynced: () => current()?.cache.hasSynced() ?? false,
    synced: first.started,
  };
}

/** The chain of the enabled plug-ins, once the caches they read hold a complete list. */
export async function buildAdmission(o: AdmissionOptions, deps: AdmissionDeps): Promise<AdmissionChain> {
  const { domain, logger, stores, caches } = deps;
  const registry = builtinPlugins();
  // The binary refused these before starting (validateOptions); a server started in process hears them here.
  const refused = validateAdmissionPluginFlags(o.plugins, registry.registered());
  if (refused.length > 0) throw new Error(refused.join('; '));
  const enabled = enabledAdmissionPlugins(o.plugins);
  const config = readAdmissionConfiguration(o.configFile, { domain: domain.name, enabledPlugins: enabled });
  const lister = cachedLister(stores, caches);
  const pluginDeps: PluginDeps = {
    domain,
    lister,
    informer: (group, resource, version) => {
      const cache = caches.get(group, resource);
      if (stores.get(`${group}/${resource}`) && cache) {
        return { lister: lister(group, resource), hasSynced: () => cache.hasSynced(), synced: caches.synced(group, resource).then(() => undefined) };
      }
      return customInformer(caches, () => deps.customStore?.(group, version, resource));
    },
    logger,
    objects: schemeObjectInterfaces(deps.scheme, deps.decoder),
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    ...(deps.authorize ? { authorize: deps.authorize } : {}),
    create: async (group, resource, namespace, object) => {
      const store = stores.get(`${group}/${resource}`);
      if (!store) throw new Error(`the server does not serve ${resource}${group ? `.${group}` : ''}`);
      await store.create(namespace, object);
    },
  };
  // Upstream configures these two from flags rather than from the configuration file.
  const flagConfig: Record<string, unknown> = {
    DefaultTolerationSeconds: { notReadyTolerationSeconds: o.defaultNotReadyTolerationSeconds, unreachableTolerationSeconds: o.defaultUnreachableTolerationSeconds },
  };
  const chain = registry.newChain(enabled, (name) => config.configFor(name) ?? flagConfig[name], pluginDeps);
  await caches.syncAll();
  logger.info('admission configured', { plugins: chain.names.join(',') });
  return chain;
}
