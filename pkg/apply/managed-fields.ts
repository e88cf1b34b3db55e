// metadata.managedFields: the wire entries, and the decoded form the engine works on, a field
// set per manager. A manager is identified as upstream identifies it (manager name, operation,
// the apiVersion for updates only, and the subresource), spelled as upstream's JSON identifier
// so conflicts print and sort exactly as upstream's do.
import { FieldSet } from './field-set.js';
import { goJson, goQuote } from './go-format.js';
import { isPlainObject, type JsonObject } from './json.js';
import { compareStrings, FieldsV1Error } from './path.js';

export type Operation = 'Apply' | 'Update';

/** One `metadata.managedFields` entry as it is stored and served. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

/** What a manager owns: its fields, the API version they are expressed in, and whether it applied them. */
export interface ManagerSet {
  readonly fields: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** The decoded managedFields: field sets and last-change times, keyed by manager identifier. */
export interface Managed {
  readonly sets: ReadonlyMap<string, ManagerSet>;
  readonly times: ReadonlyMap<string, string | undefined>;
}

export const EMPTY_MANAGED: Managed = { sets: new Map(), times: new Map() };

/** Malformed managedFields; the message is upstream's. */
export class ManagedFieldsError extends Error {
  override name = 'ManagedFieldsError';
}

export interface ManagerInfo {
  manager: string;
  operation: Operation;
  /** Part of the identity of an Update manager only: an applier is one manager across versions. */
  apiVersion?: string;
  subresource?: string;
}

/** Upstream's manager identifier: the entry's identifying fields as Go's JSON encoder writes them. */
export function managerIdentifier(info: ManagerInfo): string {
  const parts: string[] = [];
  if (info.manager) parts.push(`"manager":${goJson(info.manager)}`);
  parts.push(`"operation":${goJson(info.operation)}`);
  if (info.operation !== 'Apply' && info.apiVersion) parts.push(`"apiVersion":${goJson(info.apiVersion)}`);
  if (info.subresource) parts.push(`"subresource":${goJson(info.subresource)}`);
  return `{${parts.join(',')}}`;
}

/** The identifying fields of a manager identifier; undefined for a key that is not one (engine tests use plain names). */
export function parseManagerIdentifier(key: string): Partial<ManagerInfo> | undefined {
  try {
    const v: unknown = JSON.parse(key);
    if (!isPlainObject(v)) return undefined;
    const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
    const out: Partial<ManagerInfo> = {};
    const manager = str('manager');
    const operation = str('operation');
    const apiVersion = str('apiVersion');
    const subresource = str('subresource');
    if (manager !== undefined) out.manager = manager;
    if (operation === 'Apply' || operation === 'Update') out.operation = operation;
    if (apiVersion !== undefined) out.apiVersion = apiVersion;
    if (subresource !== undefined) out.subresource = subresource;
    return out;
  } catch {
    return undefined;
  }
}

/** `"name"`, `"name" with subresource "status"`, then ` using apps/v1` for an updater: upstream's form in conflict messages. */
export function printManager(key: string): string {
  const info = parseManagerIdentifier(key);
  if (info === undefined) return goQuote(key);
  let out = goQuote(info.manager ?? '');
  if (info.subresource) out += ` with subresource ${goQuote(info.subresource)}`;
  if (info.operation === 'Update') out += ` using ${info.apiVersion ?? ''}`;
  return out;
}

/**
 * Decodes managedFields as upstream does, refusing what upstream refuses with its messages:
 * an operation other than Apply or Update, an empty apiVersion, a missing or unknown fieldsType,
 * and fieldsV1 that is not a field set.
 */
export function decodeManagedFields(entries: unknown): Managed {
  if (entries === undefined || entries === null) return EMPTY_MANAGED;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list of entries');
  const sets = new Map<string, ManagerSet>();
  const times = new Map<string, string | undefined>();
  entries.forEach((raw: unknown, i) => {
    if (!isPlainObject(raw)) throw new ManagedFieldsError(`managed fields entry ${i} must be an object`);
    const e = raw as ManagedFieldsEntry;
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (typeof e.apiVersion !== 'string' || e.apiVersion.length < 1) throw new ManagedFieldsError('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    let fields: FieldSet;
    try {
      fields = FieldSet.fromFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      if (!(err instanceof FieldsV1Error)) throw err;
      throw new ManagedFieldsError(`error decoding versioned set from ${describeEntry(e)}: error decoding set: ${err.message}`);
    }
    const key = managerIdentifier({
      manager: typeof e.manager === 'string' ? e.manager : '',
      operation: e.operation,
      apiVersion: e.apiVersion,
      subresource: typeof e.subresource === 'string' ? e.subresource : '',
    });
    sets.set(key, { fields, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    times.set(key, typeof e.time === 'string' ? e.time : undefined);
  });
  return { sets, times };
}

/** Upstream prints the Go struct here; this names the same fields in the same order. */
function describeEntry(e: ManagedFieldsEntry): string {
  return `{${[e.manager ?? '', e.operation ?? '', e.apiVersion ?? '', e.time ?? '', e.fieldsType ?? '', e.subresource ?? ''].join(' ')}}`;
}

/**
 * The entries to store: one per manager that owns something, in upstream's order (operation,
 * then time to the second, manager, apiVersion, subresource), with upstream's key order.
 */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const [key, set] of managed.sets) {
    if (set.fields.isEmpty()) continue;
    const info = parseManagerIdentifier(key) ?? { manager: key };
    const entry: ManagedFieldsEntry = {};
    if (info.manager) entry.manager = info.manager;
    entry.operation = set.applied ? 'Apply' : 'Update';
    if (set.apiVersion) entry.apiVersion = set.apiVersion;
    const time = managed.times.get(key);
    if (time !== undefined) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = set.fields.toFieldsV1();
    if (info.subresource) entry.subresource = info.subresource;
    out.push(entry);
  }
  const seconds = (t: string | undefined) => (t === undefined ? 0 : Math.floor(Date.parse(t) / 1000) || 0);
  return out.sort((p, q) =>
    compareStrings(p.operation ?? '', q.operation ?? '')
    || seconds(p.time) - seconds(q.time)
    || compareStrings(p.manager ?? '', q.manager ?? '')
    || compareStrings(p.apiVersion ?? '', q.apiVersion ?? '')
    || compareStrings(p.subresource ?? '', q.subresource ?? ''));
}

/** Whether a request's managedFields ask for a reset: exactly one entry with nothing in it (spec 4.9.10; `[]` does not reset). */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries) || entries.length !== 1) return false;
  const only: unknown = entries[0];
  return isPlainObject(only) && Object.values(only).every((v) => v === undefined || v === null || v === '');
}

/** The managedFields of an object, undefined when it has none. */
export function managedFieldsOf(obj: unknown): unknown {
  if (!isPlainObject(obj)) return undefined;
  const meta = obj.metadata;
  return isPlainObject(meta) ? meta.managedFields : undefined;
}

/** Decodes, or nothing when malformed: upstream never fails a write over managedFields it cannot read. */
export function decodeOrEmpty(entries: unknown): Managed {
  try {
    return decodeManagedFields(entries);
  } catch (err) {
    if (err instanceof ManagedFieldsError) return EMPTY_MANAGED;
    throw err;
  }
}

/**
 * The managed fields an update starts from (upstream's decodeManagedFields of the field
 * manager): `[{}]` in the request resets them; otherwise the request's own when it sends
 * readable, non-empty ones (a client may edit managedFields); otherwise the live object's. A
 * sub-resource (status, scale) never takes them from the request.
 */
export function managedForUpdate(live: unknown, request: unknown, opts: { ignoreRequest?: boolean } = {}): Managed {
  const liveEntries = managedFieldsOf(live);
  if (opts.ignoreRequest) return decodeOrEmpty(liveEntries);
  const requested = managedFieldsOf(request);
  if (isResetManagedFields(requested)) return EMPTY_MANAGED;
  try {
    const managed = decodeManagedFields(requested);
    if (managed.sets.size > 0) return managed;
  } catch (err) {
    if (!(err instanceof ManagedFieldsError)) throw err;
  }
  return decodeOrEmpty(liveEntries);
}

/** A copy of `obj` whose metadata.managedFields are `managed`'s entries (none when empty). */
export function withManagedFields<T>(obj: T, managed: Managed): T {
  if (!isPlainObject(obj)) return obj;
  const entries = encodeManagedFields(managed);
  const meta: JsonObject = isPlainObject(obj.metadata) ? { ...obj.metadata } : {};
  if (entries.length > 0) meta.managedFields = entries;
  else delete meta.managedFields;
  return { ...obj, metadata: meta } as T;
}

/** A copy of `obj` without metadata.managedFields, as the engine compares objects. */
export function withoutManagedFields<T>(obj: T): T {
  if (!isPlainObject(obj) || !isPlainObject(obj.metadata) || !Object.hasOwn(obj.metadata, 'managedFields')) return obj;
  const meta: JsonObject = { ...obj.metadata };
  delete meta.managedFields;
  return { ...obj, metadata: meta } as T;
}
