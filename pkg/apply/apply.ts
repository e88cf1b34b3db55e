// Server-side apply (spec 4.9): the applied configuration is merged into the live object by the
// schema's markers, the applier owns exactly what it applied, fields it stopped applying are
// removed unless someone else owns them, and changing another manager's field is a conflict
// unless forced (upstream's Updater.Apply wrapped by the API server's field manager).
import { newBadRequest } from '../runtime/errors.js';
import { FieldSet } from './field-set.js';
import { fieldsOf } from './fields-of.js';
import { jsonEqual, isPlainObject } from './json.js';
import { managerIdentifier, managedFieldsOf, withoutManagedFields, type Managed, type ManagerSet } from './managed-fields.js';
import { merge } from './merge.js';
import {
  capUpdateManagers, formatTime, reconcileManagers, stripServerFields, takeOwnership, type EngineOptions, type Managers,
} from './ownership.js';
import { removeFields, withNamedFieldsAsMembers } from './remove.js';
import type { TypeNode } from './type.js';
import type { FieldManagerContext } from './field-manager.js';

export interface ApplyResult {
  /** The merged object (the live object itself when the apply changed nothing). */
  object: unknown;
  managers: Managers;
  /** Whether the object differs from the live one. */
  changed: boolean;
}

/**
 * The engine step: merges `config` into `live` for `manager` (a manager identifier), prunes what
 * the manager applied last time and no longer applies (unless another manager owns it), and
 * settles ownership; throws ApplyConflictError unless `force`, TypedObjectError for a
 * configuration the schema cannot read.
 */
export function applyManagers(
  type: TypeNode, live: unknown, config: unknown, apiVersion: string, managers: ReadonlyMap<string, ManagerSet>, manager: string,
  force: boolean, opts: EngineOptions = {},
): ApplyResult {
  const out = reconcileManagers(type, managers);
  const merged = merge(type, live, config) ?? {};
  const last = out.get(manager);
  let applied = fieldsOf(type, config);
  if (opts.ignoredFields !== undefined) applied = applied.recursiveDifference(opts.ignoredFields);
  out.set(manager, { fields: applied, apiVersion, applied: true });
  const object = prune(type, merged, out, last);
  takeOwnership(type, live, object, out, manager, force, opts);
  const changed = !jsonEqual(live, object);
  return { object: changed ? object : live, managers: out, changed };
}

/**
 * Removes what `last` (the applier's previous set) holds and the merged object still has,
 * except fields some manager (the applier's new set included) owns and items that were never
 * the applier's alone.
 */
function prune(type: TypeNode, merged: unknown, managers: Managers, last: ManagerSet | undefined): unknown {
  if (last === undefined || last.fields.isEmpty()) return merged;
  const named = (s: FieldSet) => withNamedFieldsAsMembers(type, s);
  let pruned = removeFields(type, merged, named(last.fields));
  // Add back what any manager owns.
  let owned = FieldSet.EMPTY;
  for (const s of managers.values()) owned = owned.union(s.fields);
  const mergedSet = named(fieldsOf(type, merged));
  pruned = removeFields(type, merged, mergedSet.difference(named(fieldsOf(type, pruned)).union(named(owned))));
  // Remove only what the applier owned: anything else the pruning took comes back.
  const lastNamed = named(last.fields);
  return removeFields(type, merged, mergedSet.difference(named(fieldsOf(type, pruned))).intersection(lastNamed));
}

export interface ApplyOptions {
  force?: boolean;
  now: Date | string;
}

/**
 * Applies `config` for `manager` to `live` (undefined when the apply creates the object) and
 * returns the new object, without managedFields, and the new managed fields. The apply's time
 * becomes `now` only when the object changed. Throws ApplyConflictError (409), TypedObjectError
 * (400), or a 400 for a configuration with managedFields or another apiVersion.
 */
export function apply(
  ctx: FieldManagerContext, live: unknown, config: unknown, managed: Managed, manager: string, opts: ApplyOptions,
): { object: unknown; managed: Managed } {
  if (!isPlainObject(config)) throw newBadRequest('the applied configuration must be an object');
  const version = config.apiVersion;
  if (version !== undefined && version !== ctx.apiVersion) {
    throw newBadRequest(`Incorrect version specified in apply patch. Specified patch version: ${String(version)}, expected: ${ctx.apiVersion}`);
  }
  if (managedFieldsOf(config) !== undefined && managedFieldsOf(config) !== null) throw newBadRequest('metadata.managedFields must be nil');
  const key = managerIdentifier({ manager, operation: 'Apply', subresource: ctx.subresource ?? '' });
  const base = live === undefined ? ctx.empty?.() ?? {} : withoutManagedFields(live);
  const result = applyManagers(ctx.type, base, config, ctx.apiVersion, managed.sets, key, opts.force ?? false, ctx);
  stripServerFields(result.managers, key);
  const times = new Map(managed.times);
  if (result.changed || live === undefined) times.set(key, formatTime(opts.now));
  capUpdateManagers(result.managers, times);
  return { object: result.object, managed: { sets: result.managers, times } };
}
