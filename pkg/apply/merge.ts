// Merging an applied configuration into the live object by the schema's markers: granular maps
// and structs merge field by field, set and map lists item by item (the configuration's order
// winning for the items it names), and everything atomic or scalar is taken from the configuration.
import { elementOf } from './fields-of.js';
import { isPlainObject, setOwn, type JsonObject } from './json.js';
import { elementToString, field, serializeElement, type Path, type PathElement } from './path.js';
import { concreteType, fieldType, typeOfSchema, type ListType, type MapType, type TypeNode } from './type.js';
import { TypedObjectError } from './typed-error.js';

const UNTYPED = typeOfSchema(undefined);

/** The live object with `config` merged in; throws TypedObjectError for items without keys or duplicate keys in `config`. */
export function merge(type: TypeNode, live: unknown, config: unknown): unknown {
  return mergeAt(type, live, config, []);
}

function sameShape(a: TypeNode, b: TypeNode): boolean {
  return a === b || (a.kind === b.kind && a.kind !== 'map' && a.kind !== 'list');
}

function mergeAt(t: TypeNode, l: unknown, r: unknown, path: Path): unknown {
  if (l === undefined && r === undefined) return undefined;
  const tl = l === undefined ? undefined : concreteType(t, l);
  const tr = r === undefined ? undefined : concreteType(t, r);
  if (tr === undefined) return mergeAs(tl!, l, r, path);
  if (tl === undefined || sameShape(tl, tr)) return mergeAs(tr, l, r, path);
  // A schema-less value changing shape: the live reading is checked, the configuration's wins.
  mergeAs(tl, l, r, path);
  return mergeAs(tr, l, r, path);
}

const leaf = (l: unknown, r: unknown) => (r !== undefined ? r : l);

function mergeAs(t: TypeNode, l: unknown, r: unknown, path: Path): unknown {
  if (t.kind === 'list') {
    const ll = Array.isArray(l) ? l : undefined;
    const rl = Array.isArray(r) ? r : undefined;
    if (t.listType === 'atomic' || ((ll === undefined || ll.length === 0) && (rl === undefined || rl.length === 0))) return leaf(l, r);
    return mergeItems(t, ll ?? [], rl ?? [], path);
  }
  if (t.kind === 'map') {
    const lm = isPlainObject(l) ? l : undefined;
    const rm = isPlainObject(r) ? r : undefined;
    const empty = (m: JsonObject | undefined) => m === undefined || Object.keys(m).length === 0;
    if (t.atomic || (empty(lm) && empty(rm))) return leaf(l, r);
    return mergeFields(t, lm ?? {}, rm ?? {}, path);
  }
  return leaf(l, r);
}

function mergeFields(t: MapType, l: JsonObject, r: JsonObject, path: Path): JsonObject | undefined {
  const out: JsonObject = {};
  const keys = [...Object.keys(l), ...Object.keys(r).filter((k) => !Object.hasOwn(l, k))];
  for (const k of keys) {
    const merged = mergeAt(fieldType(t, k) ?? UNTYPED, Object.hasOwn(l, k) ? l[k] : undefined, Object.hasOwn(r, k) ? r[k] : undefined, [...path, field(k)]);
    if (merged !== undefined) setOwn(out, k, merged);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Live items the configuration does not name keep their place; the items it names come in the
 * configuration's order, each where the configuration puts it relative to the shared items.
 */
function mergeItems(t: ListType, l: unknown[], r: unknown[], path: Path): unknown[] | undefined {
  const rPEs: PathElement[] = [];
  const rItems = new Map<string, unknown>();
  r.forEach((item, i) => {
    const pe = elementOf(t, item, i, path);
    const id = serializeElement(pe);
    if (rItems.has(id)) throw new TypedObjectError(path, `duplicate entries for key ${elementToString(pe)}`);
    rItems.set(id, item);
    rPEs.push(pe);
  });
  const lPEs: PathElement[] = [];
  const lItems = new Map<string, unknown>();
  l.forEach((item, i) => {
    const pe = elementOf(t, item, i, path);
    const id = serializeElement(pe);
    // Live duplicates merge as one null item with the configuration's, as upstream's do.
    lItems.set(id, lItems.has(id) ? null : item);
    lPEs.push(pe);
  });
  const lIds = lPEs.map(serializeElement);
  const rIds = rPEs.map(serializeElement);
  const shared = rIds.filter((id) => lItems.has(id));
  let sharedAt = 0;
  let nextShared = shared[sharedAt++];
  const done = new Set<string>();
  const out: unknown[] = [];
  const emit = (pe: PathElement, lv: unknown, rv: unknown) => {
    const merged = mergeAt(t.element, lv, rv, [...path, pe]);
    if (merged !== undefined) out.push(merged);
  };
  let li = 0;
  let ri = 0;
  while (li < lIds.length || ri < rIds.length) {
    if (li < lIds.length && ri < rIds.length) {
      const id = lIds[li]!;
      if (id === rIds[ri]) {
        done.add(id);
        emit(lPEs[li]!, lItems.get(id), rItems.get(id));
        li++;
        ri++;
        nextShared = shared[sharedAt++];
        continue;
      }
      // A shared item out of the configuration's order waits until the configuration reaches it.
      if (rItems.has(id) && nextShared !== undefined && nextShared !== id) {
        li++;
        continue;
      }
    }
    if (li < lIds.length) {
      const id = lIds[li]!;
      if (!rItems.has(id)) {
        emit(lPEs[li]!, l[li], undefined);
        li++;
        continue;
      } else if (done.has(id)) {
        li++;
      }
    }
    if (ri < rIds.length) {
      const id = rIds[ri]!;
      done.add(id);
      emit(rPEs[ri]!, lItems.get(id), rItems.get(id));
      ri++;
      if (nextShared === id) nextShared = shared[sharedAt++];
    }
  }
  return out.length > 0 ? out : undefined;
}
