// metadata.managedFields on the write path (spec 2.4, 4.9): the handler's side of upstream's
// field manager. Every create, update and non-apply patch records what its manager changed
// before mutating admission runs (as upstream, so admission's changes are nobody's); an apply
// merges the applied configuration through pkg/apply and is defaulted afterwards.
import { apply as applyConfig } from '../apply/apply.js';
import { ApplyConflictError } from '../apply/conflict.js';
import { fieldManagerFor, type FieldManagerContext } from '../apply/field-manager.js';
import { FieldSet } from '../apply/field-set.js';
import {
  decodeManagedFields, ManagedFieldsError, managedFieldsOf, managedForUpdate, isResetManagedFields, withManagedFields, withoutManagedFields,
} from '../apply/managed-fields.js';
import { update as recordUpdate } from '../apply/update.js';
import { path } from '../apply/path.js';
import { newBadRequest } from '../runtime/errors.js';
import type { ResourceInfo } from '../runtime/scheme.js';
import { shapedCopy, shapedView } from '../runtime/wire-shape.js';
import type { StoredObject } from '../storage/interface.js';
import { allowedByLastApplied, conflictsBeyond, lastAppliedKeys, updateLastApplied } from './last-applied.js';
import { FIELD_MANAGER_MAX_BYTES, GO_PRINTABLE } from './query.js';


/**
 * The manager of a write: the `fieldManager` query parameter, else the User-Agent up to its first
 * `/` with unprintable characters dropped and cut at 128 bytes (upstream's managerOrUserAgent).
 */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const prefix = (userAgent ?? '').split('/')[0]!;
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    if (!GO_PRINTABLE.test(ch)) continue;
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > FIELD_MANAGER_MAX_BYTES) break;
    out += ch;
    bytes += n;
  }
  return out;
}

const contexts = new WeakMap<ResourceInfo, Map<string, FieldManagerContext>>();

/** The engine's context for writes of `info` through `subresource` ('' for the main resource); built once. */
function contextFor(info: ResourceInfo, subresource: string): FieldManagerContext {
  let bySub = contexts.get(info);
  if (!bySub) contexts.set(info, (bySub = new Map()));
  let ctx = bySub.get(subresource);
  if (!ctx) {
    const ignored = resetFields(info, subresource);
    ctx = fieldManagerFor(info.schema, info.apiVersion, {
      ...(subresource ? { subresource } : {}),
      ...(ignored ? { ignoredFields: ignored } : {}),
    });
    bySub.set(subresource, ctx);
  }
  return ctx;
}

/**
 * What a write through `subresource` resets, so nobody owns it there (upstream's reset fields):
 * status on the main resource of a kind with a status sub-resource, all but status through it;
 * a CertificateSigningRequest's approval resets its spec and certificate (it writes only conditions).
 */
function resetFields(info: ResourceInfo, subresource: string): FieldSet | undefined {
  if (!info.subresources.includes('status')) return undefined;
  if (subresource === 'approval') return FieldSet.of(path('spec'), path('status', 'certificate'));
  if (subresource === '') return FieldSet.of(path('status'));
  if (subresource !== 'status') return undefined;
  const others = Object.keys(info.schema.properties).filter((k) => k !== 'status' && k !== 'apiVersion' && k !== 'kind');
  return FieldSet.of(...others.map((k) => path(k)));
}

/**
 * Refuses managedFields a client sent that cannot be read (400 with the decoding error), but
 * not `[{}]`, the reset request (spec 4.9.10).
 */
export function checkRequestManagedFields(obj: unknown): void {
  const entries = managedFieldsOf(obj);
  if (entries === undefined || entries === null || isResetManagedFields(entries)) return;
  try {
    decodeManagedFields(entries);
  } catch (err) {
    if (err instanceof ManagedFieldsError) throw newBadRequest(`metadata.managedFields: ${err.message}`);
    throw err;
  }
}

/** Objects as upstream's Go types have them: every always-written field present (the engine compares these). */
function comparable(info: ResourceInfo, obj: StoredObject): StoredObject {
  return shapedCopy(info.schema, withoutManagedFields(obj)) as StoredObject;
}

/**
 * The same for the engine's update step, which only reads both objects: what is already in
 * written form (all of a stored object, most of a decoded request) is shared, not copied.
 */
function comparableView(info: ResourceInfo, obj: StoredObject): StoredObject {
  return shapedView(info.schema, withoutManagedFields(obj)) as StoredObject;
}

/** The field manager of one write request. */
export class RequestFieldManager {
  private readonly ctx: FieldManagerContext;

  constructor(private readonly info: ResourceInfo, private readonly subresource: string, readonly manager: string) {
    this.ctx = contextFor(info, subresource);
  }

  /** `next` (the object a create writes, or an update over `current`) with its managedFields recorded for this manager. */
  update(current: StoredObject | null, next: StoredObject): StoredObject {
    const managed = managedForUpdate(current ?? undefined, next, { ignoreRequest: this.subresource !== '' });
    const result = recordUpdate(this.ctx, current ? comparableView(this.info, current) : undefined, comparableView(this.info, next), managed, this.manager, new Date());
    return withManagedFields(next, result);
  }

  /**
   * Applies `config` over `current` (null: the apply creates the object). Returns the merged
   * object, not yet defaulted, with its managedFields; throws the engine's 409 conflicts and 400s.
   */
  apply(current: StoredObject | null, config: Record<string, unknown>, force: boolean): StoredObject {
    const managed = managedForUpdate(current ?? undefined, undefined, { ignoreRequest: true });
    const live = current ? comparable(this.info, current) : undefined;
    const keys = lastAppliedKeys(this.info.domain);
    const run = (forced: boolean) => applyConfig(this.ctx, live, config, managed, this.manager, { force: forced, now: new Date() });
    let result;
    try {
      result = run(force);
    } catch (err) {
      // kubectl moving to server-side apply takes over what its client-side record holds (4.9.11):
      // only the other conflicts stop it.
      if (!(err instanceof ApplyConflictError) || this.subresource !== '') throw err;
      const allowed = allowedByLastApplied(this.ctx.type, live, this.manager, keys, this.info.apiVersion);
      if (!allowed) throw err;
      const remaining = conflictsBeyond(err.conflicts, allowed);
      if (remaining.length > 0) throw new ApplyConflictError(remaining);
      result = run(true);
    }
    let obj = withManagedFields(dropNulls(result.object) as StoredObject, result.managed);
    if (this.subresource === '') obj = updateLastApplied(obj, current ?? undefined, config, this.manager, keys);
    return obj;
  }
}

/**
 * Lists and maps an apply emptied come out of the engine as null; upstream's conversion to the
 * Go type drops them. Nulls inside atomic values stay only where the client wrote them.
 */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    out[k] = dropNulls(v);
  }
  return out;
}
