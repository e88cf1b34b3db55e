// kubectl's client-side apply record, the last-applied-configuration annotation, as server-side
// apply treats it (spec 4.9.11, upstream's lastAppliedManager and lastAppliedUpdater): `kubectl`
// applying server-side takes over, without a conflict, the fields the annotation records and the
// object still holds as recorded, so only the others conflict; and while the annotation exists,
// each such apply rewrites it with the applied configuration, so going back to client-side apply
// still works.
import type { ApiDomain } from '../../api/domain.js';
import { FieldSet } from '../apply/field-set.js';
import { compare, fieldsOf } from '../apply/fields-of.js';
import type { Conflict } from '../apply/conflict.js';
import type { TypeNode } from '../apply/type.js';
import { TypedObjectError } from '../apply/typed-error.js';
import type { StoredObject } from '../storage/interface.js';

/** The default manager of `kubectl apply --server-side`: the only one the migration applies to. */
export const KUBECTL_MANAGER = 'kubectl';

/** The annotation keys kubectl's client-side apply writes: the stock one, and ours when our domain differs. */
export function lastAppliedKeys(domain: ApiDomain): string[] {
  const stock = 'kubectl.kubernetes.io/last-applied-configuration';
  const ours = domain.key('last-applied-configuration', 'kubectl');
  return ours === stock ? [stock] : [stock, ours];
}

function annotationsOf(obj: unknown): Record<string, unknown> | undefined {
  const meta = (obj as { metadata?: { annotations?: unknown } } | undefined)?.metadata;
  const a = meta?.annotations;
  return a !== null && typeof a === 'object' && !Array.isArray(a) ? (a as Record<string, unknown>) : undefined;
}

/** The recorded configuration of `live`, or undefined when it has none or it does not parse. */
function lastApplied(live: unknown, keys: readonly string[]): unknown {
  const annotations = annotationsOf(live);
  for (const k of keys) {
    const v = annotations?.[k];
    if (typeof v !== 'string' || v === '') continue;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The fields of `live` an apply by `manager` may take from their owners without a conflict (upstream's
 * allowedConflictsFromLastApplied): those the annotation records, in `apiVersion`, with the value
 * the object still holds. Undefined when the manager is not kubectl's or there is no usable record.
 */
export function allowedByLastApplied(type: TypeNode, live: unknown, manager: string, keys: readonly string[], apiVersion: string): FieldSet | undefined {
  if (manager !== KUBECTL_MANAGER || live === undefined) return undefined;
  const recorded = lastApplied(live, keys);
  if (recorded === null || typeof recorded !== 'object' || Array.isArray(recorded)) return undefined;
  if ((recorded as { apiVersion?: unknown }).apiVersion !== apiVersion) return undefined;
  try {
    const changed = compare(type, recorded, live);
    // What the record holds differently from the object, or the object no longer holds, is not kubectl's.
    return fieldsOf(type, recorded).difference(changed.modified).difference(changed.added).difference(changed.removed);
  } catch (err) {
    if (err instanceof TypedObjectError) return undefined;
    throw err;
  }
}

/** The conflicts an apply meets that `allowed` does not take over, in their order. */
export function conflictsBeyond(conflicts: readonly Conflict[], allowed: FieldSet): Conflict[] {
  return conflicts.filter((c) => !allowed.has(c.path));
}

/**
 * `obj` with its last-applied annotation (under whichever key `live` used) set to `config`, when
 * `manager` is kubectl's and `live` has one; otherwise `obj` unchanged.
 */
export function updateLastApplied(obj: StoredObject, live: unknown, config: Record<string, unknown>, manager: string, keys: readonly string[]): StoredObject {
  if (manager !== KUBECTL_MANAGER) return obj;
  const liveAnnotations = annotationsOf(live);
  const present = keys.filter((k) => typeof liveAnnotations?.[k] === 'string');
  if (present.length === 0) return obj;
  const value = JSON.stringify(withoutLastApplied(config, keys));
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  for (const k of present) annotations[k] = value;
  return { ...obj, metadata: { ...obj.metadata, annotations } };
}

/** The configuration as kubectl records it: without the annotation itself (and without annotations when none is left). */
function withoutLastApplied(config: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const annotations = annotationsOf(config);
  if (annotations === undefined || !keys.some((k) => k in annotations)) return config;
  const rest = Object.fromEntries(Object.entries(annotations).filter(([k]) => !keys.includes(k)));
  const metadata = { ...(config.metadata as Record<string, unknown>) };
  if (Object.keys(rest).length > 0) metadata.annotations = rest;
  else delete metadata.annotations;
  return { ...config, metadata };
}
