// The fields an object sets, and what changed between two versions of an object, as sets of
// field paths read through the object's type (upstream's ToFieldSet and Compare).
import { FieldSet, FieldSetBuilder } from './field-set.js';
import { itemElement } from './item-key.js';
import { isPlainObject, jsonEqual } from './json.js';
import { field, serializeElement, type Path, type PathElement } from './path.js';
import { concreteType, fieldType, typeOfSchema, type ListType, type MapType, type TypeNode } from './type.js';
import { TypedObjectError } from './typed-error.js';

const UNTYPED = typeOfSchema(undefined);

/**
 * Every field `obj` sets: scalars and atomic values as leaves, map entries and list items as
 * members, and structs only where they are empty or null. Duplicate list items are one member
 * each, without their contents.
 */
export function fieldsOf(type: TypeNode, obj: unknown): FieldSet {
  const b = new FieldSetBuilder();
  visit(type, obj, [], b);
  return b.build();
}

function visit(t: TypeNode, v: unknown, path: Path, out: FieldSetBuilder): void {
  const ct = concreteType(t, v);
  if (ct.kind === 'scalar' || ct.kind === 'deduced') {
    out.insert(path);
  } else if (ct.kind === 'list') {
    if (ct.listType === 'atomic') out.insert(path);
    else if (Array.isArray(v)) visitItems(ct, v, path, out);
    else if (v !== null && v !== undefined) out.insert(path);
  } else if (ct.atomic) {
    out.insert(path);
  } else if (isPlainObject(v)) {
    for (const [k, child] of Object.entries(v)) {
      if (child === undefined) continue;
      const childPath = [...path, field(k)];
      visit(fieldType(ct, k) ?? UNTYPED, child, childPath, out);
      if (child === null || (isPlainObject(child) && Object.keys(child).length === 0) || ct.field(k) === undefined) out.insert(childPath);
    }
  } else if (v !== null && v !== undefined) {
    out.insert(path);
  }
}

function visitItems(t: ListType, items: unknown[], path: Path, out: FieldSetBuilder): void {
  const elements = items.map((item, i) => elementOf(t, item, i, path));
  const counts = new Map<string, number>();
  for (const pe of elements) counts.set(serializeElement(pe), (counts.get(serializeElement(pe)) ?? 0) + 1);
  items.forEach((item, i) => {
    const pe = elements[i]!;
    const itemPath = [...path, pe];
    if (counts.get(serializeElement(pe))! > 1) out.insert(itemPath);
    else {
      visit(t.element, item, itemPath, out);
      out.insert(itemPath);
    }
  });
}

/** The element of item `i` of a set or map list; an item that has none is a TypedObjectError. */
export function elementOf(t: ListType, item: unknown, i: number, path: Path): PathElement {
  try {
    return itemElement(t, item);
  } catch (err) {
    throw new TypedObjectError(path, `element ${i}: ${(err as Error).message}`);
  }
}

/** The fields added, changed and removed from one version of an object to the next. */
export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

interface Collector {
  added: FieldSetBuilder;
  modified: FieldSetBuilder;
  removed: FieldSetBuilder;
}

/**
 * Compares two versions of an object (undefined: absent, e.g. before a create). A granular node
 * that appears or disappears is itself added or removed, as are all its fields; an atomic or
 * scalar node that differs is modified.
 */
export function compare(type: TypeNode, old: unknown, next: unknown): Comparison {
  const c: Collector = { added: new FieldSetBuilder(), modified: new FieldSetBuilder(), removed: new FieldSetBuilder() };
  if (old !== undefined || next !== undefined) compareAt(type, old, next, [], c);
  return { added: c.added.build(), modified: c.modified.build(), removed: c.removed.build() };
}

function sameShape(a: TypeNode, b: TypeNode): boolean {
  return a === b || (a.kind === b.kind && a.kind !== 'map' && a.kind !== 'list');
}

function compareAt(t: TypeNode, l: unknown, r: unknown, path: Path, c: Collector): void {
  if (l === undefined && r === undefined) return;
  const tl = l === undefined ? undefined : concreteType(t, l);
  const tr = r === undefined ? undefined : concreteType(t, r);
  let leaf: boolean;
  if (tr === undefined) leaf = compareAs(tl!, l, r, path, c);
  else if (tl === undefined || sameShape(tl, tr)) leaf = compareAs(tr, l, r, path, c);
  else {
    // A schema-less value that changed shape: both readings count, as upstream compares both.
    compareAs(tl, l, r, path, c);
    leaf = compareAs(tr, l, r, path, c);
  }
  if (!leaf) {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
  }
}

/** Compares as type t; returns whether the node was compared as a whole (a leaf). */
function compareAs(t: TypeNode, l: unknown, r: unknown, path: Path, c: Collector): boolean {
  if (t.kind === 'list') {
    const ll = Array.isArray(l) ? l : undefined;
    const rl = Array.isArray(r) ? r : undefined;
    if (t.listType === 'atomic' || ((ll === undefined || ll.length === 0) && (rl === undefined || rl.length === 0))) return compareLeaf(l, r, path, c);
    compareItems(t, ll ?? [], rl ?? [], path, c);
    return false;
  }
  if (t.kind === 'map') {
    const lm = isPlainObject(l) ? l : undefined;
    const rm = isPlainObject(r) ? r : undefined;
    const empty = (m: Record<string, unknown> | undefined) => m === undefined || Object.keys(m).length === 0;
    if (t.atomic || (empty(lm) && empty(rm))) return compareLeaf(l, r, path, c);
    compareFields(t, lm ?? {}, rm ?? {}, path, c);
    return false;
  }
  return compareLeaf(l, r, path, c);
}

function compareLeaf(l: unknown, r: unknown, path: Path, c: Collector): true {
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (!jsonEqual(l, r)) c.modified.insert(path);
  return true;
}

function compareFields(t: MapType, l: Record<string, unknown>, r: Record<string, unknown>, path: Path, c: Collector): void {
  const keys = new Set([...Object.keys(l), ...Object.keys(r)]);
  for (const k of keys) {
    const lv = Object.hasOwn(l, k) ? l[k] : undefined;
    const rv = Object.hasOwn(r, k) ? r[k] : undefined;
    compareAt(fieldType(t, k) ?? UNTYPED, lv, rv, [...path, field(k)], c);
  }
}

function compareItems(t: ListType, l: unknown[], r: unknown[], path: Path, c: Collector): void {
  const order: PathElement[] = [];
  const left = new Map<string, unknown[]>();
  const right = new Map<string, unknown[]>();
  const index = (items: unknown[], into: Map<string, unknown[]>, other?: Map<string, unknown[]>) => {
    items.forEach((item, i) => {
      const pe = elementOf(t, item, i, path);
      const id = serializeElement(pe);
      const seen = into.get(id);
      if (seen) seen.push(item);
      else {
        into.set(id, [item]);
        if (!other?.has(id)) order.push(pe);
      }
    });
  };
  index(l, left);
  index(r, right, left);
  for (const pe of order) {
    const id = serializeElement(pe);
    const ls = left.get(id) ?? [];
    const rs = right.get(id) ?? [];
    const itemPath = [...path, pe];
    if (ls.length <= 1 && rs.length <= 1) compareAt(t.element, ls[0], rs[0], itemPath, c);
    else if (ls.length >= 2 && rs.length >= 2) {
      if (!jsonEqual(ls, rs)) c.modified.insert(itemPath);
    } else if (ls.length >= 2) {
      // Duplicates are owned as one member; going from several to one is a removal and an addition.
      if (rs.length > 0) compareAt(t.element, undefined, rs[0], itemPath, c);
      c.removed.insert(itemPath);
    } else {
      if (ls.length > 0) compareAt(t.element, ls[0], undefined, itemPath, c);
      c.added.insert(itemPath);
    }
  }
}
