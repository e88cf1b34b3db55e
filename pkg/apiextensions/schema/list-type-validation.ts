// x-kubernetes-list-type set and map (upstream's listtype.ValidateListSetsAndMaps): the items of
// a set are unique, the items of a map list are objects with unique keys. Duplicates are
// reported as upstream reports them: the index of each second occurrence, the item (a set's
// scalar) or its key fields (`Duplicate value: map[string]interface {}{"name":"a"}`).
import { duplicate, invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import { goBadValue, goJson } from './go-value.js';
import { hasField, isObject } from './json-schema-props.js';
import type { Structural } from './structural.js';

/** The list-type errors in `obj`, an object of schema `s` at `path` (undefined: the resource's root). */
export function validateListSetsAndMaps(path: Path | undefined, s: Structural | undefined, obj: Record<string, unknown>): FieldError[] {
  if (s === undefined) return [];
  const p = path ?? Path.root('');
  const errs: FieldError[] = [];
  const values = s.additionalProperties?.structural;
  if (values !== undefined) for (const [k, v] of Object.entries(obj)) errs.push(...check(p.key(k), values, v));
  if (s.properties !== undefined) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = s.properties.get(k);
      if (sub !== undefined) errs.push(...check(p.child(k), sub, v));
    }
  }
  return errs;
}

function check(path: Path, s: Structural, v: unknown): FieldError[] {
  if (Array.isArray(v)) return checkList(path, s, v);
  if (isObject(v)) return validateListSetsAndMaps(path, s, v);
  return [];
}

function checkList(path: Path, s: Structural, list: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  if (s.xListType === 'set') {
    for (const i of secondOccurrences(list)) errs.push(duplicate(path.index(i), goBadValue(list[i])));
  } else if (s.xListType === 'map') {
    errs.push(...checkMapList(path, s, list));
  }
  if (s.items !== undefined) list.forEach((x, i) => errs.push(...check(path.index(i), s.items!, x)));
  return errs;
}

/** How upstream tells values apart: scalars by Go value, compounds by their JSON. */
const identity = (x: unknown) => (isObject(x) || Array.isArray(x) ? `c${goJson(x)}` : `s${typeof x}:${JSON.stringify(x)}`);

/** The indexes at which a value occurs for the second time (not the third, as upstream counts). */
function secondOccurrences(list: unknown[], idOf: (x: unknown) => string = identity): number[] {
  if (list.length <= 1) return [];
  const seen = new Map<string, number>();
  const out: number[] = [];
  list.forEach((x, i) => {
    const key = idOf(x);
    const times = seen.get(key) ?? 0;
    seen.set(key, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}

function checkMapList(path: Path, s: Structural, list: unknown[]): FieldError[] {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && !isObject(x)) return [invalid(path.index(i), goBadValue(x), 'must be an object for an array of list-type map')];
  }
  if (list.length <= 1) return [];
  const keyFields = s.xListMapKeys;
  if (keyFields.length === 1) {
    const field = keyFields[0]!;
    const unspecified = Symbol('unspecified');
    const keys = list.map((x) => (isObject(x) && hasField(x, field) ? x[field] : unspecified));
    return secondOccurrences(keys, (k) => (k === unspecified ? 'unspecified' : identity(k))).map((i) => duplicate(path.index(i), goBadValue(keys[i] === unspecified ? {} : { [field]: keys[i] })));
  }
  const keys = list.map((x) => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const f of keyFields) if (hasField(x, f)) key[f] = x[f];
    return key;
  });
  return secondOccurrences(keys).map((i) => duplicate(path.index(i), goBadValue(keys[i])));
}
