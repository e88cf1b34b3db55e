// Strategic merge patch (application/strategic-merge-patch+json): JSON merge patch whose lists merge
// by key where the schema says so (`x-orch-patch-strategy`, `x-orch-patch-merge-key`), plus the
// directives $patch, $retainKeys, $setElementOrder/<list> and $deleteFromPrimitiveList/<list>.
// Behaviour, list order included, follows upstream k8s.io/apimachinery strategicpatch as the API
// server applies it; the few deliberate differences are noted where they are made.

import type { SchemaNode } from '../runtime/schema-node.js';
import { fieldSchema, itemSchema, patchMergeKey, patchStrategies } from '../runtime/schema-walk.js';

/** A malformed strategic merge patch; the caller answers it with a 4xx. */
export class StrategicMergePatchError extends Error {
  override name = 'StrategicMergePatchError';
}

type JsonObject = Record<string, unknown>;
type Schema = SchemaNode;
type Kind = 'object' | 'scalar';

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ORDER = '$setElementOrder';
const DELETE_FROM_LIST = '$deleteFromPrimitiveList';

/** What merging `{"$patch": "delete"}` yields: the key holding it goes away. */
const DELETED: unique symbol = Symbol('deleted');
type Deleted = typeof DELETED;

/**
 * Applies `patch` to `original` as a strategic merge patch, navigating `schema` (a JSON Schema
 * with our x-orch markers) for list strategies, and returns the result; neither input is
 * modified. Throws StrategicMergePatchError, and nothing else, for a patch it cannot apply.
 */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: object): unknown {
  if (!isObject(patch)) throw fail('', `a strategic merge patch must be a JSON object, not ${describe(patch)}`);
  try {
    const target = isObject(original) ? cloneObject(original) : {};
    const merged = mergeObject(target, patch, isObject(schema) ? (schema as Schema) : undefined, '');
    return merged === DELETED ? {} : merged;
  } catch (err) {
    // Recursion follows the documents' nesting; only absurd nesting exhausts the stack.
    if (err instanceof RangeError) throw fail('', 'the patch or the object is nested too deeply');
    throw err;
  }
}

/** Merges `patch` into `target` (which this module owns and may change) and returns the result. */
function mergeObject(target: JsonObject, patch: JsonObject, schema: Schema | undefined, path: string): JsonObject | Deleted {
  if (Object.hasOwn(patch, DIRECTIVE)) {
    const directive = patch[DIRECTIVE];
    // The patch's own content is still merged (against nothing), so nulls and nested directives
    // never reach the result; upstream copies it verbatim and leaves that to decoding.
    if (directive === 'replace') return mergeObject({}, without(patch, DIRECTIVE), schema, path);
    // As documented upstream (and equivalent to null); upstream's code leaves an empty map.
    if (directive === 'delete') return DELETED;
    // Upstream rejects an explicit merge, the default; we accept it.
    if (directive !== 'merge') {
      throw fail(path, `unknown ${DIRECTIVE} directive ${show(directive)}: expected "replace", "delete" or "merge"`);
    }
  }
  if (Object.hasOwn(patch, RETAIN_KEYS)) retainKeys(target, patch, path);

  // Ordered lists first, as upstream: their list in the patch is merged with the ordering.
  const ordered = new Set<string>();
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith(SET_ORDER)) continue;
    const field = directiveField(key, SET_ORDER, path);
    if (!Array.isArray(value)) throw fail(path, `${key} must be a list, not ${describe(value)}`);
    if (setElementOrder(target, patch, field, value, fieldSchema(schema, field), child(path, field))) ordered.add(field);
  }

  for (const [key, value] of Object.entries(patch)) {
    if (isDirectiveKey(key) || ordered.has(key)) continue;
    if (value === null) {
      deleteKey(target, key);
      continue;
    }
    const merged = mergeValue(getOwn(target, key), value, fieldSchema(schema, key), child(path, key));
    if (merged === DELETED) deleteKey(target, key);
    else setKey(target, key, merged);
  }

  // Deletions last, so a patch that adds to and deletes from one list gives the same result
  // whatever the order of its keys.
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith(DELETE_FROM_LIST)) continue;
    const field = directiveField(key, DELETE_FROM_LIST, path);
    if (!Array.isArray(value)) throw fail(path, `${key} must be a list, not ${describe(value)}`);
    const current = getOwn(target, field);
    // Deleting from a missing list changes nothing (upstream once created the list from the deletions).
    if (Array.isArray(current)) setKey(target, field, current.filter((item) => !value.some((gone) => jsonEqual(gone, item))));
  }
  return target;
}

/** The merge of one patch value with the current value of its field (undefined when absent). */
function mergeValue(current: unknown, patch: unknown, schema: Schema | undefined, path: string): unknown {
  if (isObject(patch)) {
    const base = isObject(current) && !hasStrategy(schema, 'replace') ? current : {};
    return mergeObject(base, patch, schema, path);
  }
  if (Array.isArray(patch)) {
    if (hasStrategy(schema, 'merge')) return mergeList(Array.isArray(current) ? current : [], patch, schema, path).merged;
    return freshList(patch, itemsOf(schema), path);
  }
  return patch;
}

/** A list taken from the patch as it is, its objects merged against nothing. */
function freshList(patch: unknown[], items: Schema | undefined, path: string): unknown[] {
  return patch.map((item, i) => orEmpty(mergeValue(undefined, item, items, `${path}[${i}]`)));
}

/** $retainKeys: every key of the map not listed is cleared; every key the patch sets must be listed. */
function retainKeys(target: JsonObject, patch: JsonObject, path: string): void {
  const list = patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw fail(path, `${RETAIN_KEYS} must be a list of field names, not ${describe(list)}`);
  const keep = new Set(list.filter((key): key is string => typeof key === 'string'));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || isDirectiveKey(key)) continue;
    if (!keep.has(key)) throw fail(path, `field "${key}" is set by the patch but not listed in ${RETAIN_KEYS}`);
  }
  for (const key of Object.keys(target)) if (!keep.has(key)) deleteKey(target, key);
}

interface MergedList {
  merged: unknown[];
  /**
   * The original list as upstream sees it when it orders server-only items for $setElementOrder:
   * upstream deletes items and appends new ones inside the original list's own storage, so its
   * first `original.length` places then hold the survivors followed by the additions.
   */
  view: unknown[];
}

/** Merges a list whose schema strategy is `merge`: by merge key for objects, as a set for scalars. */
function mergeList(original: unknown[], patch: unknown[], schema: Schema | undefined, path: string): MergedList {
  const kind = listKind(path, original, patch);
  if (kind === undefined) return { merged: [], view: [] };
  if (kind === 'scalar') return mergeScalarList(original, patch);
  const mergeKey = mergeKeyOf(schema);
  if (mergeKey === undefined) throw fail(path, 'this list of objects has no merge key to merge by');
  return mergeObjectList(original.filter(isObject), patch.filter(isObject), mergeKey, itemsOf(schema), path);
}

function mergeScalarList(original: unknown[], patch: unknown[]): MergedList {
  const seen = new Set<unknown>();
  const union: unknown[] = [];
  for (const value of [...original, ...patch]) {
    if (seen.has(value)) continue;
    seen.add(value);
    union.push(value);
  }
  const inPatch = positions(patch, undefined);
  const patchItems = sortByPosition(union.filter((v) => inPatch(v) >= 0), inPatch);
  const serverOnly = union.filter((v) => inPatch(v) < 0);
  return { merged: interleave(serverOnly, patchItems, positions(original, undefined)), view: original };
}

function mergeObjectList(
  original: JsonObject[], patch: JsonObject[], mergeKey: string, items: Schema | undefined, path: string,
): MergedList {
  const view: unknown[] = original.slice();
  let length = view.length;
  const regular: JsonObject[] = [];
  let replace = false;
  patch.forEach((item, i) => {
    if (!Object.hasOwn(item, DIRECTIVE)) {
      regular.push(item);
      return;
    }
    const directive = item[DIRECTIVE];
    if (directive === 'delete') {
      if (!Object.hasOwn(item, mergeKey)) throw missingMergeKey(`${path}[${i}]`, mergeKey);
      // Every item with that key goes, each removal shifting the rest down in place.
      const key = scalarKey(item[mergeKey]);
      for (let at = findKey(view, length, key, mergeKey); at >= 0; at = findKey(view, length, key, mergeKey)) {
        view.copyWithin(at, at + 1, length);
        length--;
      }
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      regular.push(item);
    } else {
      throw fail(`${path}[${i}]`, `unknown ${DIRECTIVE} directive ${show(directive)}: expected "replace", "delete" or "merge"`);
    }
  });
  regular.forEach((item) => {
    if (!Object.hasOwn(item, mergeKey)) throw missingMergeKey(`${path}[${patch.indexOf(item)}]`, mergeKey);
  });
  const itemPath = (item: JsonObject) => `${path}[${mergeKey}=${show(item[mergeKey])}]`;
  const fresh = (item: JsonObject) => orEmpty(mergeObject({}, item, items, itemPath(item)));
  if (replace) return { merged: regular.map(fresh), view };

  const live = view.slice(0, length);
  const merged: unknown[] = live.slice();
  for (const item of regular) {
    const key = scalarKey(item[mergeKey]);
    const at = key === NO_KEY ? -1 : merged.findIndex((m) => keyOf(m, mergeKey) === key);
    if (at >= 0) {
      const existing = merged[at];
      merged[at] = orEmpty(mergeObject(isObject(existing) ? existing : {}, item, items, itemPath(item)));
    } else {
      merged.push(fresh(item));
      if (length < view.length) view[length] = item;
      length++;
    }
  }
  // Upstream's order: patch items in patch order; items only the server has keep their order and
  // go before a patch item only if they came before it in the list (so new items come first).
  const inPatch = positions(regular, mergeKey);
  const serverPos = positions(live, mergeKey);
  const patchItems = sortByPosition(merged.filter((m) => inPatch(m) >= 0), inPatch);
  const serverOnly = sortByPosition(merged.filter((m) => inPatch(m) < 0), serverPos);
  return { merged: interleave(serverOnly, patchItems, serverPos), view };
}

/**
 * $setElementOrder/<field>: merges the field's list from the patch (if any) and orders the result:
 * the listed items in the given order, the others interleaved by their place on the server.
 * Returns whether the field's list in the patch has been dealt with.
 */
function setElementOrder(
  target: JsonObject, patch: JsonObject, field: string, order: unknown[], schema: Schema | undefined, path: string,
): boolean {
  // Only merging lists have an order to set; any other list is replaced by the patch's own.
  if (!hasStrategy(schema, 'merge')) return false;
  const patchList = Object.hasOwn(patch, field) ? patch[field] : undefined;
  if (patchList !== undefined && !Array.isArray(patchList)) {
    throw fail(path, `${SET_ORDER}/${field} is given, so ${field} must be a list, not ${describe(patchList)}`);
  }
  const current = getOwn(target, field);
  const originalList = Array.isArray(current) ? current : undefined;
  if (originalList === undefined && patchList === undefined) return true;

  const mergeKey = mergeKeyOf(schema);
  const kind = listKind(path, originalList ?? [], patchList ?? []) ?? (mergeKey === undefined ? 'scalar' : 'object');
  if (kind === 'object' && mergeKey === undefined) throw fail(path, 'this list of objects has no merge key to merge by');
  const key = kind === 'object' ? mergeKey : undefined;
  checkOrderList(order, key, field, path);
  checkPatchFollowsOrder(patchList ?? [], order, key, field, path);

  let merged: unknown[];
  let serverOrder: unknown[];
  if (originalList !== undefined && patchList !== undefined) {
    ({ merged, view: serverOrder } = mergeList(originalList, patchList, schema, path));
  } else if (patchList !== undefined) {
    merged = mergeList([], patchList, schema, path).merged;
    serverOrder = [];
  } else {
    merged = originalList ?? [];
    serverOrder = merged;
  }
  const orderPos = positions(order, key);
  const serverPos = positions(serverOrder, key);
  const listed = sortByPosition(merged.filter((m) => orderPos(m) >= 0), orderPos);
  const serverOnly = sortByPosition(merged.filter((m) => orderPos(m) < 0), serverPos);
  setKey(target, field, interleave(serverOnly, listed, serverPos));
  return true;
}

function checkOrderList(order: unknown[], mergeKey: string | undefined, field: string, path: string): void {
  order.forEach((item, i) => {
    if (mergeKey !== undefined) {
      if (!isObject(item) || !Object.hasOwn(item, mergeKey)) {
        throw fail(path, `item ${i} of ${SET_ORDER}/${field} must be an object with the merge key "${mergeKey}"`);
      }
    } else if (isObject(item) || Array.isArray(item)) {
      throw fail(path, `item ${i} of ${SET_ORDER}/${field} must be a scalar, as the list holds scalars`);
    }
  });
}

/** Every item the patch merges into the list must appear in $setElementOrder, in the same order. */
function checkPatchFollowsOrder(
  patchList: unknown[], order: unknown[], mergeKey: string | undefined, field: string, path: string,
): void {
  let at = 0;
  patchList.forEach((item, i) => {
    if (mergeKey !== undefined && isObject(item) && Object.hasOwn(item, DIRECTIVE)) return;
    if (mergeKey !== undefined && !(isObject(item) && Object.hasOwn(item, mergeKey))) {
      throw missingMergeKey(`${path}[${i}]`, mergeKey);
    }
    const key = keyOf(item, mergeKey);
    while (at < order.length && (key === NO_KEY || keyOf(order[at], mergeKey) !== key)) at++;
    if (at >= order.length) {
      throw fail(path, `the order of the items in ${field} doesn't match ${SET_ORDER}/${field}`);
    }
    at++;
  });
}

/** Whether the lists hold objects or scalars (undefined when all are empty); anything else is refused. */
function listKind(path: string, ...lists: unknown[][]): Kind | undefined {
  let kind: Kind | undefined;
  for (const list of lists) {
    for (const item of list) {
      if (Array.isArray(item)) throw fail(path, 'a merging list cannot hold lists');
      const k: Kind = isObject(item) ? 'object' : 'scalar';
      if (kind !== undefined && k !== kind) throw fail(path, 'a merging list must hold only objects or only scalars');
      kind = k;
    }
  }
  return kind;
}

// ---- keys and ordering ----------------------------------------------------------------------

const NO_KEY: unique symbol = Symbol('no key');
type Key = string | number | boolean | null | typeof NO_KEY;

/** A scalar compares by value (as upstream's ==); objects and lists never match anything. */
function scalarKey(value: unknown): Key {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? value
    : NO_KEY;
}

/** The identity of a list item: its merge key's value, or the item itself for scalar lists. */
function keyOf(item: unknown, mergeKey: string | undefined): Key {
  if (mergeKey === undefined) return scalarKey(item);
  return isObject(item) && Object.hasOwn(item, mergeKey) ? scalarKey(item[mergeKey]) : NO_KEY;
}

function findKey(list: unknown[], length: number, key: Key, mergeKey: string): number {
  if (key === NO_KEY) return -1;
  for (let i = 0; i < length; i++) if (keyOf(list[i], mergeKey) === key) return i;
  return -1;
}

/** The position of the first item of `list` with the same identity, or -1. */
function positions(list: readonly unknown[], mergeKey: string | undefined): (item: unknown) => number {
  const first = new Map<Key, number>();
  list.forEach((item, i) => {
    const key = keyOf(item, mergeKey);
    if (key !== NO_KEY && !first.has(key)) first.set(key, i);
  });
  return (item) => {
    const key = keyOf(item, mergeKey);
    return key === NO_KEY ? -1 : first.get(key) ?? -1;
  };
}

/** A stable sort by position; items without one keep their relative order after the others. */
function sortByPosition(items: unknown[], position: (item: unknown) => number): unknown[] {
  const rank = (p: number) => (p < 0 ? Number.POSITIVE_INFINITY : p);
  return items
    .map((item, i) => ({ item, i, p: rank(position(item)) }))
    .sort((a, b) => (a.p === b.p ? a.i - b.i : a.p - b.p))
    .map((entry) => entry.item);
}

/**
 * Upstream's merge of the two ordered runs: a server-only item goes first only when both items
 * have a place on the server and the server-only one's is earlier; otherwise the patch item does.
 */
function interleave(serverOnly: unknown[], patchItems: unknown[], serverPos: (item: unknown) => number): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length && j < patchItems.length) {
    const left = serverPos(serverOnly[i]);
    const right = serverPos(patchItems[j]);
    if (left >= 0 && right >= 0 && left < right) out.push(serverOnly[i++]);
    else out.push(patchItems[j++]);
  }
  return out.concat(serverOnly.slice(i), patchItems.slice(j));
}

// ---- schema (walked through pkg/runtime/schema-walk, shared with server-side apply) ----------

function itemsOf(schema: Schema | undefined): Schema | undefined {
  return itemSchema(schema);
}

function hasStrategy(schema: Schema | undefined, strategy: 'merge' | 'replace'): boolean {
  return patchStrategies(schema).includes(strategy);
}

function mergeKeyOf(schema: Schema | undefined): string | undefined {
  return patchMergeKey(schema);
}

// ---- JSON helpers ----------------------------------------------------------------------------

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isDirectiveKey(key: string): boolean {
  return key === DIRECTIVE || key === RETAIN_KEYS || key.startsWith(SET_ORDER) || key.startsWith(DELETE_FROM_LIST);
}

/** The list field a `<prefix>/<field>` directive names. */
function directiveField(key: string, prefix: string, path: string): string {
  const rest = key.slice(prefix.length);
  if (!rest.startsWith('/') || rest.length === 1) throw fail(path, `"${key}" must have the form ${prefix}/<field>`);
  return rest.slice(1);
}

function getOwn(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Sets an own property, even "__proto__" (which plain assignment would treat as the prototype). */
function setKey(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

function deleteKey(obj: JsonObject, key: string): void {
  if (Object.hasOwn(obj, key)) delete obj[key];
}

function without(obj: JsonObject, key: string): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) if (k !== key) setKey(out, k, v);
  return out;
}

function orEmpty(value: unknown): unknown {
  return value === DELETED ? {} : value;
}

function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  return isObject(value) ? cloneObject(value) : value;
}

function cloneObject(value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) setKey(out, k, cloneJson(v));
  return out;
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

function child(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return isObject(value) ? 'an object' : `the ${typeof value} ${show(value)}`;
}

function show(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  text ??= typeof value;
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function fail(path: string, message: string): StrategicMergePatchError {
  return new StrategicMergePatchError(path === '' ? message : `${path}: ${message}`);
}

function missingMergeKey(path: string, mergeKey: string): StrategicMergePatchError {
  return fail(path, `the item does not contain the list's merge key "${mergeKey}"`);
}
