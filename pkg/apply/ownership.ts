// Who owns what after a write (upstream's Updater core): fields a write changed leave every other
// manager, fields it removed leave everyone, and an apply that would change another manager's
// fields fails with the conflicts unless forced.
import { formatTime as formatMetaTime } from '../../api/meta/v1/primitives.js';
import { FieldSet } from './field-set.js';
import { ApplyConflictError, type Conflict } from './conflict.js';
import { compare, type Comparison } from './fields-of.js';
import { managerIdentifier, type ManagerSet } from './managed-fields.js';
import { path as makePath } from './path.js';
import { reconcileWithSchema } from './reconcile.js';
import type { TypeNode } from './type.js';

/** Field sets by manager identifier. */
export type Managers = Map<string, ManagerSet>;

export interface EngineOptions {
  /** Fields the write path resets (a strategy's reset fields, e.g. status on the main resource): never owned, never conflicting. */
  ignoredFields?: FieldSet;
}

/** Every manager's set adjusted to schema topology changes (spec 4.9.8). */
export function reconcileManagers(type: TypeNode, managers: ReadonlyMap<string, ManagerSet>): Managers {
  const out: Managers = new Map();
  for (const [m, s] of managers) {
    const fields = reconcileWithSchema(type, s.fields);
    out.set(m, fields === s.fields ? s : { ...s, fields });
  }
  return out;
}

/**
 * Takes from every manager but `workflow` the fields changed between `old` and `next`, and from
 * all of them the fields removed. Without `force`, a changed field another manager owns is a
 * conflict and nothing is taken. Managers left owning nothing are dropped.
 */
export function takeOwnership(
  type: TypeNode, old: unknown, next: unknown, managers: Managers, workflow: string, force: boolean, opts: EngineOptions = {},
): Comparison {
  let cmp = compare(type, old, next);
  const ignored = opts.ignoredFields;
  if (ignored !== undefined && !ignored.isEmpty()) {
    cmp = { added: cmp.added.recursiveDifference(ignored), modified: cmp.modified.recursiveDifference(ignored), removed: cmp.removed.recursiveDifference(ignored) };
  }
  const changed = cmp.modified.union(cmp.added);
  const conflicts = new Map<string, FieldSet>();
  for (const [m, s] of managers) {
    if (m === workflow) continue;
    const mine = s.fields.intersection(changed);
    if (!mine.isEmpty()) conflicts.set(m, mine);
  }
  if (!force && conflicts.size > 0) {
    const list: Conflict[] = [];
    for (const m of [...conflicts.keys()].sort()) for (const p of conflicts.get(m)!.paths()) list.push({ manager: m, path: p });
    throw new ApplyConflictError(list);
  }
  for (const [m, s] of managers) {
    if (m === workflow) continue;
    let fields = s.fields;
    const taken = conflicts.get(m);
    if (taken !== undefined) fields = fields.difference(taken);
    fields = fields.difference(cmp.removed);
    if (fields !== s.fields) managers.set(m, { ...s, fields });
  }
  for (const [m, s] of managers) if (s.fields.isEmpty()) managers.delete(m);
  return cmp;
}

/** Fields the server sets and nobody owns (upstream's strip set), removed from a manager's set. */
const STRIPPED = FieldSet.of(
  makePath('apiVersion'), makePath('kind'), makePath('metadata'),
  makePath('metadata', 'name'), makePath('metadata', 'namespace'), makePath('metadata', 'creationTimestamp'),
  makePath('metadata', 'selfLink'), makePath('metadata', 'uid'), makePath('metadata', 'clusterName'),
  makePath('metadata', 'generation'), makePath('metadata', 'managedFields'), makePath('metadata', 'resourceVersion'),
);

/** `managers` with the server-set fields removed from `manager`'s set (dropping it if nothing is left). */
export function stripServerFields(managers: Managers, manager: string): void {
  const s = managers.get(manager);
  if (s === undefined) return;
  const fields = s.fields.difference(STRIPPED);
  if (fields.isEmpty()) managers.delete(manager);
  else managers.set(manager, { ...s, fields });
}

/** Upstream keeps at most this many Update entries, merging the oldest per apiVersion into `ancient-changes`. */
export const MAX_UPDATE_MANAGERS = 10;
const ANCIENT = 'ancient-changes';

export function capUpdateManagers(sets: Managers, times: Map<string, string | undefined>, max = MAX_UPDATE_MANAGERS): void {
  const updaters = [...sets].filter(([, s]) => !s.applied).map(([m]) => m);
  if (updaters.length <= max) return;
  const seconds = (m: string) => {
    const t = times.get(m);
    return t === undefined ? 0 : Math.floor(Date.parse(t) / 1000) || 0;
  };
  updaters.sort((a, b) => seconds(a) - seconds(b) || (a < b ? -1 : a > b ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const m = updaters[i]!;
    const s = sets.get(m)!;
    const bucket = managerIdentifier({ manager: ANCIENT, operation: 'Update', apiVersion: s.apiVersion });
    const first = firstOfVersion.get(s.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(s.apiVersion, m);
      continue;
    }
    if (!sets.has(bucket)) {
      sets.set(bucket, sets.get(first)!);
      sets.delete(first);
    }
    sets.set(bucket, { fields: s.fields.union(sets.get(bucket)!.fields), apiVersion: s.apiVersion, applied: s.applied });
    sets.delete(m);
    length--;
    times.set(bucket, times.get(m));
  }
}

/** metav1.Time's form: RFC 3339 to the second, UTC. */
export function formatTime(now: Date | string): string {
  return typeof now === 'string' ? now : formatMetaTime(now);
}
