// One store per served resource, each with its kind's strategy; the API handler routes to them.
import { storeKey, type ResourceInfo, type Scheme } from '../runtime/scheme.js';
import type { SchemaValidator } from '../runtime/schema-validator.js';
import { shapeForWrite } from '../runtime/wire-shape.js';
import type { Storage, StoredObject } from '../storage/interface.js';
import { ConvertedStorage } from './generic/converted-storage.js';
import { Store, type WriteHooks } from './generic/store.js';
import { newStrategy, newSubresourceStrategy, type ObjectSubresource } from './generic/strategy.js';
import { strategyOverrides } from './strategies.js';
import type { KindValidation } from './validation/kind-validation.js';

/** The rules of a kind; `version` finds the rules a version has of its own, if any. */
export type ValidationLookup = (group: string, kind: string, version?: string) => KindValidation<StoredObject>;

export interface StoresOptions {
  /**
   * Seconds after its last write an object of a resource vanishes, keyed by the storage prefix
   * (`/core/events/`); a kind stored as another resource shares that resource's time to live.
   */
  ttlSeconds?: ReadonlyMap<string, number>;
  /** Write hooks of a resource (a Service's address allocation), keyed `<group>/<resource>`. */
  hooks?: ReadonlyMap<string, WriteHooks>;
}

/** Builds the store of every resource in the scheme, keyed by storeKey. */
export function buildStores(scheme: Scheme, storage: Storage, schemas: SchemaValidator, validationFor: ValidationLookup, opts: StoresOptions = {}): Map<string, Store> {
  const stores = new Map<string, Store>();
  const overrides = strategyOverrides(scheme.domain);
  for (const info of scheme.resources()) {
    if (info.virtual) continue; // answered, never stored
    const validation = validationFor(info.group, info.kind, info.version);
    const kindOverrides = overrides.get(`${info.group}/${info.kind}`);
    const strategy = newStrategy(info, validation, schemas, kindOverrides);
    const subresources = new Map(info.subresources
      .filter((sub): sub is ObjectSubresource => !info.subresourceKinds[sub])
      .map((sub) => [sub, newSubresourceStrategy(info, sub, strategy, validation, schemas, kindOverrides)]));
    const ttlSeconds = opts.ttlSeconds?.get(info.storagePrefix);
    stores.set(storeKey(info), new Store({
      info,
      storage: info.storedAs ? convertedStorage(storage, info.storedAs, info.schema) : storage,
      ...(ttlSeconds ? { ttlSeconds } : {}),
      strategy,
      subresources,
      ...(opts.hooks?.has(`${info.group}/${info.resource}`) ? { hooks: opts.hooks.get(`${info.group}/${info.resource}`)! } : {}),
    }));
  }
  return stores;
}

/**
 * The view of the shared storage a kind stored as another has: objects written in the stored
 * kind's shape (zero values filled as that kind writes them), read back in the kind's own.
 */
function convertedStorage(storage: Storage, storedAs: NonNullable<ResourceInfo['storedAs']>, schema: ResourceInfo['schema']): Storage {
  return new ConvertedStorage(storage, {
    toStorage: (obj) => {
      const stored = storedAs.toStorage(obj) as StoredObject;
      shapeForWrite(storedAs.schema, stored);
      return stored;
    },
    fromStorage: (obj) => {
      const own = storedAs.fromStorage(obj) as StoredObject;
      shapeForWrite(schema, own);
      return own;
    },
  });
}
