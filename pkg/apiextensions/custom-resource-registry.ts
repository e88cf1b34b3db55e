// Custom resources served while the server runs (ARCHITECTURE section 2): an in-process informer
// on CustomResourceDefinitions registers each servable definition's versions in the scheme with a
// store of their own, and removes them when the definition goes. Every server process (worker or
// replica) converges on etcd by itself. The worker threads of one process share a watermark, the
// highest definition revision any of them has applied (or written): a thread behind it waits for
// its own informer before it answers discovery or a path it does not serve, so what one thread
// showed, every thread shows, and no request reads etcd for it.
import type { ApiDomain } from '../../api/domain.js';
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/custom-resource-definition.js';
import type { Logger } from '../log/logger.js';
import type { ResourceInfo, Scheme } from '../runtime/scheme.js';
import type { ObjectCache } from '../registry/generic/object-cache.js';
import { AsyncConvertedStorage } from '../registry/generic/async-converted-storage.js';
import { ConvertedStorage } from '../registry/generic/converted-storage.js';
import { Store } from '../registry/generic/store.js';
import type { Storage, StoredObject } from '../storage/interface.js';
import { RevisionWatermark } from '../util/revision-watermark.js';
import { WebhookConverter, type ServiceEndpointResolver } from './conversion/webhook-converter.js';
import { customResourceStrategies } from './customresource/strategy.js';
import { customResourceVersions, type CustomResourceVersion } from './customresource/resource-info.js';

/** What this server serves of one definition. */
interface Registered {
  uid: string;
  /** The resourceVersion of the definition this state was built from. */
  resourceVersion: number;
  /** What the served state depends on; an equal fingerprint keeps the stores as they are. */
  fingerprint: string;
  stores: Map<ResourceInfo, Store>;
  /** The store of the storage version, through which the finalizer deletes the definition's objects. */
  storageStore: Store | undefined;
  /** The storage prefix of the resource, whose watch cache goes with the definition. */
  storagePrefix: string | undefined;
  /** The conversion webhook's client, with the Webhook strategy. */
  converter: WebhookConverter | undefined;
}

/** A replaced conversion client is closed this long after, when no request can still be using it. */
const converterCloseDelayMs = 60_000;

function retire(r: Registered): void {
  const c = r.converter;
  if (c) setTimeout(() => c.close(), converterCloseDelayMs).unref();
}

export interface CustomResourceRegistryOptions {
  scheme: Scheme;
  storage: Storage;
  domain: ApiDomain;
  /** The CustomResourceDefinition store, read consistently to catch up. */
  definitions: Store;
  /** The in-process informer on CustomResourceDefinitions. */
  cache: ObjectCache;
  logger: Logger;
  /** The watch cache size of a custom resource (`resource.group`), undefined to keep it out of the cache. */
  watchCacheSize(resource: string, group: string): number | undefined;
  /** Watch cache sizes by storage prefix, which the registry keeps for the custom resources it serves. */
  watchCacheSizes: Map<string, number>;
  /** Drops the watch cache of a prefix whose definition went. */
  forgetPrefix(prefix: string): Promise<void>;
  /** Where a conversion webhook's Service is reached. */
  resolveService?: ServiceEndpointResolver;
  /** The definition revision every thread of the process has reached, shared among them; one of its own when absent. */
  watermark?: RevisionWatermark;
}

/** How long a thread waits for its informer to reach the watermark before it answers with what it has. */
const convergeTimeoutMs = 5_000;

const rv = (o: StoredObject) => Number(o.metadata.resourceVersion ?? 0);

export class CustomResourceRegistry {
  private readonly registered = new Map<string, Registered>();
  /** Definitions seen deleted, with the revision of their deletion: an older state never brings them back. */
  private readonly tombstones = new Map<string, number>();
  private syncing: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** The highest definition revision the informer has brought. */
  private applied = 0;
  private readonly waiters = new Set<() => void>();
  private readonly watermark: RevisionWatermark;

  constructor(private readonly opts: CustomResourceRegistryOptions) {
    this.watermark = opts.watermark ?? new RevisionWatermark();
  }

  /** Follows the definitions from the informer; resolves once those it holds are served. */
  async start(): Promise<void> {
    await this.opts.cache.waitSynced();
    this.opts.cache.subscribe((type, obj) => {
      if (type === 'DELETED') this.remove(obj.metadata.name ?? '', rv(obj));
      else this.apply(obj as unknown as CustomResourceDefinition);
      this.reached(rv(obj));
    });
  }

  /** Records that a definition changed at `revision` (an informer event, or a write of this server's controllers). */
  written(revision: number): void {
    this.watermark.raise(revision);
  }

  private reached(revision: number): void {
    if (revision > this.applied) this.applied = revision;
    this.watermark.raise(revision);
    for (const w of this.waiters) w();
  }

  /**
   * Resolves once this server serves the definitions as far as any thread of the process has seen
   * them (at once, nearly always), or after a few seconds with what it has: never an etcd read.
   */
  converged(): Promise<void> {
    const target = this.watermark.value();
    if (this.applied >= target) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (this.applied >= target) done();
      };
      const timer = setTimeout(() => {
        this.opts.logger.warn('answering before the CustomResourceDefinitions informer reached the revision another thread has seen', { reached: this.applied, seen: target });
        done();
      }, convergeTimeoutMs);
      timer.unref();
      this.waiters.add(check);
    });
  }

  /** The store serving a custom resource version. */
  store(info: ResourceInfo): Store | undefined {
    const name = info.custom?.definition;
    return name ? this.registered.get(name)?.stores.get(info) : undefined;
  }

  /** The store of a definition's storage version (served or not), while the definition is registered. */
  storageStore(definition: string): Store | undefined {
    return this.registered.get(definition)?.storageStore;
  }

  /**
   * Resolves once every definition etcd holds now is served as it stands. Requests arriving
   * while a catch-up runs wait for the next one, which starts after them.
   */
  catchUp(): Promise<void> {
    if (!this.syncing) {
      this.syncing = this.sync().finally(() => {
        this.syncing = undefined;
      });
      return this.syncing;
    }
    this.queued ??= this.syncing.then(() => {
      this.queued = undefined;
      return this.catchUp();
    });
    return this.queued;
  }

  private async sync(): Promise<void> {
    const list = await this.opts.definitions.list('', {});
    const revision = Number(list.metadata.resourceVersion ?? 0);
    const names = new Set<string>();
    for (const item of list.items) {
      names.add(item.metadata.name ?? '');
      this.apply({ ...item, apiVersion: list.apiVersion, kind: 'CustomResourceDefinition' } as unknown as CustomResourceDefinition);
    }
    for (const [name, r] of this.registered) if (!names.has(name) && r.resourceVersion <= revision) this.remove(name, revision);
    // The list holds every deletion up to its revision: older tombstones have done their work.
    for (const [name, deletedAt] of this.tombstones) if (deletedAt <= revision) this.tombstones.delete(name);
  }

  /** Serves a definition as it now stands (or stops serving it), unless this state is older than one applied. */
  private apply(crd: CustomResourceDefinition): void {
    const name = crd.metadata?.name ?? '';
    const version = Number(crd.metadata?.resourceVersion ?? 0);
    const current = this.registered.get(name);
    const uid = crd.metadata?.uid ?? '';
    if ((this.tombstones.get(name) ?? 0) >= version) return;
    if (current && current.uid === uid && current.resourceVersion >= version) return;
    const versions = customResourceVersions(crd, this.opts.domain);
    if (!versions) {
      if (current) this.unregister(name, current, current.uid !== uid);
      return;
    }
    const fingerprint = JSON.stringify([uid, crd.spec, crd.status?.acceptedNames, versions.served.map((v) => [v.info.custom!.terminating, v.info.custom!.established])]);
    if (current && current.uid === uid && current.fingerprint === fingerprint) {
      current.resourceVersion = version;
      return;
    }
    if (current && current.uid !== uid) this.unregister(name, current, true);
    const converter = crd.spec.conversion?.strategy === 'Webhook' ? new WebhookConverter(crd, this.opts.domain, this.opts.resolveService) : undefined;
    const stores = new Map<ResourceInfo, Store>();
    for (const v of versions.served) stores.set(v.info, this.newStore(v, converter));
    const storage = versions.storage;
    const storageStore = [...stores.values()].find((s) => s.info.version === storage.info.version) ?? this.newStore(storage, converter);
    const prefix = storage.info.storagePrefix;
    const size = this.opts.watchCacheSize(storage.info.resource, storage.info.group);
    if (size) this.opts.watchCacheSizes.set(prefix, size);
    if (current) retire(current);
    this.registered.set(name, { uid, resourceVersion: version, fingerprint, stores, storageStore, storagePrefix: prefix, converter });
    this.opts.scheme.setCustomResources(name, versions.served.map((v) => v.info));
    this.opts.logger.v(2).info('serving custom resource', {
      definition: name, versions: versions.served.map((v) => v.info.version).join(','), established: versions.storage.info.custom!.established,
    });
  }

  private remove(name: string, revision: number): void {
    this.tombstones.set(name, Math.max(revision, this.tombstones.get(name) ?? 0));
    const current = this.registered.get(name);
    if (current && current.resourceVersion <= revision) this.unregister(name, current, true);
  }

  /** Stops serving a definition; `gone` also drops its watch cache (the definition was deleted or replaced). */
  private unregister(name: string, r: Registered, gone: boolean): void {
    this.registered.delete(name);
    retire(r);
    this.opts.scheme.setCustomResources(name, []);
    if (gone && r.storagePrefix) {
      this.opts.watchCacheSizes.delete(r.storagePrefix);
      this.opts.forgetPrefix(r.storagePrefix).catch((err: unknown) => this.opts.logger.warn('could not drop the watch cache of a custom resource', {
        prefix: r.storagePrefix, err: err instanceof Error ? err.message : String(err),
      }));
    }
    this.opts.logger.v(2).info('stopped serving custom resource', { definition: name });
  }

  /**
   * A version's store: objects kept in the storage version, whatever version they are written in
   * (None conversion: only apiVersion changes; Webhook: the definition's webhook converts), and
   * read in this version with its defaults (an object stored before a default existed gets it on
   * every read, as upstream's decoder gives it).
   */
  private newStore(v: CustomResourceVersion, converter: WebhookConverter | undefined): Store {
    const { info } = v;
    const { main, status } = customResourceStrategies(info, v.scale);
    const { storageAPIVersion, schema } = info.custom!;
    const sameVersion = storageAPIVersion === info.apiVersion;
    /** A stored object as read in this version: stored objects may be shared (the watch cache freezes them), so a copy is defaulted. */
    const read = (obj: StoredObject): StoredObject => {
      if (!schema.hasDefaults) return obj.apiVersion === info.apiVersion ? obj : { ...obj, apiVersion: info.apiVersion };
      const copy = structuredClone(obj);
      copy.apiVersion = info.apiVersion;
      schema.default(copy);
      return copy;
    };
    let storage: Storage = this.opts.storage;
    if (converter && !sameVersion) {
      storage = new AsyncConvertedStorage(this.opts.storage, {
        toStorage: async (obj) => (await converter.convert([obj], storageAPIVersion))[0]!,
        fromStorage: async (objs) => (await converter.convert(objs, info.apiVersion)).map(read),
      });
    } else if (!sameVersion || schema.hasDefaults) {
      storage = new ConvertedStorage(this.opts.storage, {
        toStorage: (obj) => (sameVersion ? obj : { ...obj, apiVersion: storageAPIVersion }),
        fromStorage: read,
      });
    }
    return new Store({ info, storage, strategy: main, subresources: new Map(status ? [['status', status]] : []) });
  }
}
