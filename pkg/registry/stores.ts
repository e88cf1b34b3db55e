// One store per served resource, each with its kind's strategy; the API handler routes to them.
import { newNotFound } from '../runtime/errors.js';
import type { Scheme } from '../runtime/scheme.js';
import type { SchemaValidator } from '../runtime/schema-validator.js';
import type { Storage, StoredObject } from '../storage/interface.js';
import { Store, type WriteHooks } from './generic/store.js';
import { newStrategy, newSubresourceStrategy, type ObjectSubresource } from './generic/strategy.js';
import { strategyOverrides } from './strategies.js';
import type { KindValidation } from './validation/kind-validation.js';

export type ValidationLookup = (group: string, kind: string) => KindValidation<StoredObject>;

/** Builds the store of every resource in the scheme, keyed `<group>/<resource>`; `hooks` adds write hooks by the same key. */
export function buildStores(scheme: Scheme, storage: Storage, schemas: SchemaValidator, validationFor: ValidationLookup, hooks: ReadonlyMap<string, WriteHooks> = new Map()): Map<string, Store> {
  const stores = new Map<string, Store>();
  const namespaces = () => stores.get('/namespaces');
  const namespaceState = async (ns: string) => {
    const store = namespaces();
    if (!store) return { terminating: false };
    try {
      const obj = await store.get('', ns);
      return { terminating: !!obj.metadata.deletionTimestamp || (obj.status as { phase?: string } | undefined)?.phase === 'Terminating' };
    } catch (e) {
      if ((e as { code?: number }).code === 404) throw newNotFound({ group: '', resource: 'namespaces' }, ns);
      throw e;
    }
  };
  const overrides = strategyOverrides(scheme.domain);
  for (const info of scheme.resources()) {
    if (info.virtual) continue; // answered, never stored
    const validation = validationFor(info.group, info.kind);
    const strategy = newStrategy(info, validation, schemas, overrides.get(`${info.group}/${info.kind}`));
    const subresources = new Map(info.subresources
      .filter((sub): sub is ObjectSubresource => !info.subresourceKinds[sub])
      .map((sub) => [sub, newSubresourceStrategy(info, sub, strategy, validation, schemas)]));
    stores.set(`${info.group}/${info.resource}`, new Store({
      info,
      storage,
      strategy,
      subresources,
      ...(info.namespaced ? { namespaceState } : {}),
      ...(hooks.has(`${info.group}/${info.resource}`) ? { hooks: hooks.get(`${info.group}/${info.resource}`)! } : {}),
    }));
  }
  return stores;
}
