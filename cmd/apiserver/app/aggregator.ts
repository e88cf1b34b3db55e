// The aggregation layer inside the API server (upstream's kube-aggregator): the APIServices' cache
// and what reads it (the proxy, the discovery source, the OpenAPI merge), and in the one thread
// that writes (the only one without --workers, thread 1 with it) the availability controller, the
// local APIServices of the built-in and custom group versions, and the
// extension-apiserver-authentication ConfigMap.
import type { RequestHandler } from 'express';
import type { APIService, APIServiceCondition } from '../../../api/apiregistration/v1/api-service.js';
import { apiregistrationGroup } from '../../../api/apiregistration/v1/register.js';
import type { ApiDomain } from '../../../api/domain.js';
import { APIServiceIndex } from '../../../pkg/aggregator/api-services.js';
import { authenticationData } from '../../../pkg/aggregator/authentication-config-map.js';
import { reconcileConfigMapKeys } from '../../../pkg/registry/core/config-map-keys.js';
import { AvailabilityController } from '../../../pkg/aggregator/availability-controller.js';
import { Autoregister, type LocalGroupVersion } from '../../../pkg/aggregator/autoregister.js';
import { withRemoteSpecs } from '../../../pkg/aggregator/aggregated-openapi.js';
import { aggregatorProxy } from '../../../pkg/aggregator/proxy-handler.js';
import { RemoteDocuments } from '../../../pkg/aggregator/remote-documents.js';
import { ServiceResolver, type ObjectReader } from '../../../pkg/aggregator/service-resolver.js';
import { extensionAuthenticationConfigMapName } from '../../../pkg/authorization/rbac/bootstrap-policy.js';
import { groupVersionPriority } from '../../../pkg/endpoints/discovery.js';
import type { OpenAPIDocs } from '../../../pkg/endpoints/openapi-handler.js';
import type { Logger } from '../../../pkg/log/logger.js';
import type { Store } from '../../../pkg/registry/generic/store.js';
import type { Scheme } from '../../../pkg/runtime/scheme.js';
import type { StoredObject } from '../../../pkg/storage/interface.js';
import { cachedLister } from './admission.js';
import type { SharedCaches } from './caches.js';
import { readFlagFile } from './flag-file.js';
import type { APIServerOptions } from './options.js';

export interface Aggregator {
  proxy: RequestHandler;
  /** The proxied group versions, for the discovery model. */
  documents: RemoteDocuments;
  /** `base` with the extension servers' OpenAPI documents merged in. */
  openapi(base: () => OpenAPIDocs): () => OpenAPIDocs;
  /** Post-start hooks, named as upstream's. */
  hooks: { name: string; run: () => Promise<void> }[];
  stop(): void;
}

export interface AggregatorDeps {
  opts: APIServerOptions;
  domain: ApiDomain;
  scheme: Scheme;
  stores: ReadonlyMap<string, Store>;
  caches: SharedCaches;
  logger: Logger;
  /** Whether this thread writes (see above). */
  writer: boolean;
  maxRequestBodyBytes: number;
  /** The client CA bundles, as authentication read them: the ConfigMap publishes them. */
  caFiles: { clientCA: string; requestHeaderCA: string };
  /** The system namespace (upstream's kube-system), once it exists. */
  systemNamespace: () => Promise<string>;
  /** Runs a step until it succeeds. */
  retrying(what: string, step: () => Promise<void>): Promise<void>;
}

/** A core object from the server's cache, else etcd; undefined when there is none. */
function reader(lister: ReturnType<typeof cachedLister>, resource: string): ObjectReader {
  const l = lister('', resource);
  return async (namespace, name) => (l.get(namespace, name) ?? await l.fetch(namespace, name)) as StoredObject | undefined;
}

/** The aggregator, unless --runtime-config turned APIServices off. */
export function buildAggregator(d: AggregatorDeps): Aggregator | undefined {
  const group = apiregistrationGroup(d.domain);
  const store = d.stores.get(`${group}/apiservices`);
  const cache = d.caches.get(group, 'apiservices');
  if (!store || !cache) return undefined;
  const o = d.opts.aggregator;
  const client = o.proxyClientCertFile ? { cert: readFlagFile('proxy-client-cert-file', o.proxyClientCertFile).toString('utf8'), key: readFlagFile('proxy-client-key-file', o.proxyClientKeyFile).toString('utf8') } : {};
  for (const r of ['services', 'endpoints']) void d.caches.synced('', r);
  const lister = cachedLister(d.stores, d.caches);
  const resolver = new ServiceResolver(reader(lister, 'services'), reader(lister, 'endpoints'));
  const backend = (s: APIService) => resolver.backend(s, client);
  const index = new APIServiceIndex(cache);
  const documents = new RemoteDocuments({ index, backend, intervalMs: o.documentsIntervalMs, logger: d.logger });
  const availability = d.writer ? new AvailabilityController({
    index, backend, intervalMs: o.availabilityIntervalMs, logger: d.logger,
    writeCondition: (s, condition) => writeCondition(store, s, condition),
  }) : undefined;
  const autoregister = new Autoregister(store, d.domain, d.logger);
  const hooks: Aggregator['hooks'] = [{
    name: 'start-kube-aggregator-informers',
    run: async () => {
      await d.caches.synced(group, 'apiservices');
      documents.start();
      availability?.start();
    },
  }];
  let stopAuthentication = () => undefined as void;
  if (d.writer) {
    hooks.push({
      name: 'kube-apiserver-autoregistration',
      run: async () => {
        await d.retrying('register the local APIServices', () => autoregister.reconcile(localGroupVersions(d.scheme, false), 'onstart'));
        // Custom resources' group versions follow the scheme, one reconcile at a time.
        let syncing = Promise.resolve();
        const sync = () => {
          syncing = syncing.then(() => autoregister.reconcile(localGroupVersions(d.scheme, true), 'true'))
            .catch((e) => d.logger.warn('cannot register the APIServices of custom resources', { err: e instanceof Error ? e.message : String(e) }));
        };
        d.scheme.subscribe(sync);
        sync();
        await syncing;
      },
    });
    hooks.push({
      name: 'start-cluster-authentication-info-controller',
      run: async () => {
        const configMaps = d.stores.get('/configmaps');
        if (!configMaps) return;
        const namespace = await d.systemNamespace();
        const data = authenticationData(frontProxyAuthentication(d.opts, d.caFiles));
        // Without a client CA or a front proxy there is nothing an extension server could trust.
        if (Object.keys(data).length === 0) return;
        const publish = async () => {
          const done = await reconcileConfigMapKeys(configMaps, namespace, extensionAuthenticationConfigMapName, data);
          if (done !== 'unchanged') d.logger.info(`${done} the ${extensionAuthenticationConfigMapName} ConfigMap`, { namespace });
        };
        await d.retrying(`publish the ${extensionAuthenticationConfigMapName} ConfigMap`, publish);
        // Put right again if someone changes it (upstream's controller resyncs each minute).
        const timer = setInterval(() => void publish().catch(() => undefined), 60_000);
        timer.unref();
        stopAuthentication = () => clearInterval(timer);
      },
    });
  }
  return {
    proxy: aggregatorProxy({ index, backend, maxRequestBodyBytes: d.maxRequestBodyBytes, logger: d.logger }),
    documents,
    openapi: (base) => withRemoteSpecs(base, () => documents.specs(), d.logger),
    hooks,
    stop: () => {
      documents.stop();
      availability?.stop();
      stopAuthentication();
    },
  };
}

/** The group versions this server serves itself: the built-in ones, or those of custom resources. */
function localGroupVersions(scheme: Scheme, custom: boolean): LocalGroupVersion[] {
  return scheme.groupVersions()
    .filter((gv) => (custom ? gv.resources.some((r) => r.custom?.established) : !gv.resources.some((r) => r.custom)))
    .map((gv) => ({ group: gv.group, version: gv.version, priority: groupVersionPriority(gv, scheme.domain) }));
}

/** What the ConfigMap publishes: the authentication flags and their CA bundles. */
function frontProxyAuthentication(opts: APIServerOptions, caFiles: AggregatorDeps['caFiles']) {
  const rh = opts.authentication.requestHeader;
  return {
    ...caFiles,
    usernameHeaders: rh.usernameHeaders,
    groupHeaders: rh.groupHeaders,
    extraHeadersPrefix: rh.extraHeadersPrefix,
    allowedNames: rh.allowedNames,
  };
}

/** Writes the Available condition of `s` unless it changed since it was read (its next event brings a new check). */
async function writeCondition(store: Store, s: APIService, condition: APIServiceCondition): Promise<void> {
  try {
    await store.mutate('', s.metadata?.name ?? '', (current) => {
      const status = (current.status ?? {}) as { conditions?: APIServiceCondition[] };
      const conditions = (status.conditions ?? []).filter((c) => c.type !== condition.type);
      return { ...current, status: { ...status, conditions: [...conditions, condition] } } as StoredObject;
    }, { preconditions: { resourceVersion: s.metadata?.resourceVersion ?? '' } });
  } catch (e) {
    const code = (e as { code?: number }).code;
    if (code === 409 || code === 404) return;
    throw e;
  }
}
