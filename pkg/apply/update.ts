// Ownership after a non-apply write (create, update, patch): the writer takes every field it
// added or changed, from whoever owned it, and never conflicts (spec 4.9.2-3; upstream's
// Updater.Update wrapped by the API server's field manager).
import type { FieldManagerContext } from './field-manager.js';
import { FieldSet } from './field-set.js';
import {
  EMPTY_MANAGED, managerIdentifier, withoutManagedFields, type Managed, type ManagerSet,
} from './managed-fields.js';
import {
  capUpdateManagers, formatTime, reconcileManagers, stripServerFields, takeOwnership, type EngineOptions, type Managers,
} from './ownership.js';
import type { TypeNode } from './type.js';
import { TypedObjectError } from './typed-error.js';

/**
 * The engine step: `manager` (a manager identifier) now owns its previous fields minus those
 * removed, plus those changed from `live` to `next`; other managers lose both.
 */
export function updateManagers(
  type: TypeNode, live: unknown, next: unknown, apiVersion: string, managers: ReadonlyMap<string, ManagerSet>, manager: string,
  opts: EngineOptions = {},
): Managers {
  const out = reconcileManagers(type, managers);
  const cmp = takeOwnership(type, live, next, out, manager, true, opts);
  let fields = (out.get(manager)?.fields ?? FieldSet.EMPTY).difference(cmp.removed).union(cmp.modified).union(cmp.added);
  if (opts.ignoredFields !== undefined) fields = fields.recursiveDifference(opts.ignoredFields);
  if (fields.isEmpty()) out.delete(manager);
  else out.set(manager, { fields, apiVersion, applied: false });
  return out;
}

/** The operation in progress, kept apart from the manager's earlier entry until it is known to have changed something. */
const CURRENT = 'current-operation';

/**
 * The managed fields after `manager` wrote `next` over `live` (undefined on create: the kind's
 * empty object stands in), starting
 * from `managed` (see managedForUpdate). The manager's Update entry gains what the write changed
 * and its time becomes `now`; a write that changed nothing leaves every entry as it was. An
 * object the schema cannot read leaves no managed fields, as upstream does.
 */
export function update(
  ctx: FieldManagerContext, live: unknown, next: unknown, managed: Managed, manager: string, now: Date | string,
): Managed {
  const key = managerIdentifier({ manager: manager || 'unknown', operation: 'Update', apiVersion: ctx.apiVersion, subresource: ctx.subresource ?? '' });
  let sets: Managers;
  try {
    sets = updateManagers(ctx.type, live === undefined ? ctx.empty?.() ?? {} : withoutManagedFields(live), withoutManagedFields(next), ctx.apiVersion, managed.sets, CURRENT, ctx);
  } catch (err) {
    if (err instanceof TypedObjectError) return EMPTY_MANAGED;
    throw err;
  }
  stripServerFields(sets, CURRENT);
  const times = new Map(managed.times);
  const mine = sets.get(CURRENT);
  if (mine !== undefined) {
    sets.delete(CURRENT);
    const previous = sets.get(key);
    sets.set(key, previous === undefined ? mine : { ...mine, fields: mine.fields.union(previous.fields) });
    times.set(key, formatTime(now));
  }
  capUpdateManagers(sets, times);
  return { sets, times };
}
