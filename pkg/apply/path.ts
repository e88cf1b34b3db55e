// Field paths of server-side apply: each step names a field, a list item by its key fields, a set
// item by its value, or a list item by index. The total order, the printed form used in conflict
// messages and the FieldsV1 key form all follow upstream's structured-merge-diff, because clients
// compare managedFields and conflict messages byte for byte.
import { goJson, goQuote, formatGoNumber } from './go-format.js';

/** Any JSON value (key fields and set values are normally scalars, but FieldsV1 may hold any). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface KeyField {
  readonly name: string;
  readonly value: JsonValue;
}

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  /** Key fields sorted by name. */
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

/** A FieldsV1 key or path element that cannot be read; the message follows upstream's. */
export class FieldsV1Error extends Error {
  override name = 'FieldsV1Error';
}

export const field = (name: string): PathElement => ({ kind: 'field', name });

/** A list item selected by the values of its key fields, e.g. `key({name: 'app'})`. */
export function key(fields: Readonly<Record<string, JsonValue>>): PathElement {
  return { kind: 'key', fields: sortFields(Object.entries(fields).map(([name, value]) => ({ name, value }))) };
}

export const value = (v: JsonValue): PathElement => ({ kind: 'value', value: v });

export const index = (i: number): PathElement => ({ kind: 'index', index: i });

/** A path from its parts: strings are field names, numbers indices, or path elements. */
export function path(...parts: (string | number | PathElement)[]): Path {
  return parts.map((p) => (typeof p === 'string' ? field(p) : typeof p === 'number' ? index(p) : p));
}

function sortFields(fields: KeyField[]): KeyField[] {
  return fields.sort((a, b) => compareStrings(a.name, b.name));
}

// ---- order -----------------------------------------------------------------------------------

/** Strings in the order of their UTF-8 bytes (Go's string order), which is code point order. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate belongs to a code point above U+FFFF, after every unit that is not one.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function rank(v: JsonValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null && typeof v === 'object') return 4;
  return 5; // null
}

/** Upstream's total order of values: numbers, strings, booleans, lists, maps, then null. */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0: return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
    case 1: return compareStrings(a as string, b as string);
    case 2: return a === b ? 0 : a === false ? -1 : 1;
    case 3: {
      const x = a as JsonValue[];
      const y = b as JsonValue[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareValues(x[i]!, y[i]!);
        if (c !== 0) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    case 4: {
      const x = a as Record<string, JsonValue>;
      const y = b as Record<string, JsonValue>;
      const xk = Object.keys(x).sort(compareStrings);
      const yk = Object.keys(y).sort(compareStrings);
      for (let i = 0; i < Math.min(xk.length, yk.length); i++) {
        const c = compareStrings(xk[i]!, yk[i]!) || compareValues(x[xk[i]!]!, y[yk[i]!]!);
        if (c !== 0) return c;
      }
      return xk.length === yk.length ? 0 : xk.length < yk.length ? -1 : 1;
    }
    default: return 0;
  }
}

const kindRank = { field: 0, key: 1, value: 2, index: 3 } as const;

/** Upstream's order of path elements: field names, then keys, then values, then indices. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] < kindRank[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field': return compareStrings(a.name, (b as typeof a).name);
    case 'value': return compareValues(a.value, (b as typeof a).value);
    case 'index': {
      const j = (b as typeof a).index;
      return a.index === j ? 0 : a.index < j ? -1 : 1;
    }
    case 'key': {
      const x = a.fields;
      const y = (b as typeof a).fields;
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareStrings(x[i]!.name, y[i]!.name) || compareValues(x[i]!.value, y[i]!.value);
        if (c !== 0) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
  }
}

export const elementsEqual = (a: PathElement, b: PathElement): boolean => compareElements(a, b) === 0;

/** Paths in lexical order of their elements, a prefix first. */
export function comparePaths(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareElements(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

// ---- printing --------------------------------------------------------------------------------

/** A value as upstream prints it in a path: strings quoted Go-style, maps as k=v pairs. */
export function valueToString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return formatGoNumber(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  return Object.keys(v).sort(compareStrings).map((k) => `${k}=${valueToString(v[k]!)}`).join('');
}

/** `.name`, `[name="app",port=80]`, `[="a"]` or `[3]`, as upstream prints an element. */
export function elementToString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field': return `.${pe.name}`;
    case 'key': return `[${pe.fields.map((f) => `${f.name}=${valueToString(f.value)}`).join(',')}]`;
    case 'value': return `[=${valueToString(pe.value)}]`;
    case 'index': return `[${pe.index}]`;
  }
}

/** `.spec.containers[name="app"].image`: the form of conflict messages and causes. */
export function pathToString(p: Path): string {
  return p.map(elementToString).join('');
}

// ---- FieldsV1 keys ---------------------------------------------------------------------------

/** The FieldsV1 key of an element: `f:name`, `k:{"name":"app"}`, `v:"a"`, `i:3`. */
export function serializeElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field': return `f:${pe.name}`;
    // Key fields keep their sorted order; nested maps are written with sorted keys, as Go does.
    case 'key': return `k:{${pe.fields.map((f) => `${goJson(f.name)}:${goJson(f.value)}`).join(',')}}`;
    case 'value': return `v:${goJson(pe.value)}`;
    case 'index': return `i:${pe.index}`;
  }
}

/** What parseElement yields for a key of a type this version does not know (skipped, as upstream does). */
export const UNKNOWN_ELEMENT: unique symbol = Symbol('unknown path element type');

/** Reads a FieldsV1 key; throws FieldsV1Error with upstream's wording when it is malformed. */
export function parseElement(text: string): PathElement | typeof UNKNOWN_ELEMENT {
  if (text.length < 2) throw new FieldsV1Error('key must be 2 characters long:');
  if (text[1] !== ':') throw new FieldsV1Error(`missing colon: ${text}`);
  const body = text.slice(2);
  switch (text[0]) {
    case 'f': return field(body);
    case 'v': return value(parseJson(body));
    case 'k': {
      const parsed = parseJson(body);
      if (parsed === null) return { kind: 'key', fields: [] };
      if (typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new FieldsV1Error(`ReadObjectCB: expect { or n, but found ${body.trimStart()[0] ?? 'EOF'}`);
      }
      return { kind: 'key', fields: sortFields(Object.entries(parsed).map(([name, v]) => ({ name, value: v }))) };
    }
    case 'i': {
      if (!/^[+-]?[0-9]+$/.test(body)) throw new FieldsV1Error(`strconv.Atoi: parsing ${goQuote(body)}: invalid syntax`);
      const n = Number(body);
      if (!Number.isSafeInteger(n)) throw new FieldsV1Error(`strconv.Atoi: parsing ${goQuote(body)}: value out of range`);
      return index(n);
    }
    default: return UNKNOWN_ELEMENT;
  }
}

function parseJson(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    // Upstream's reader reports either bad JSON or data after the value with this wording.
    throw new FieldsV1Error(`managedFields parsing: unexpected trailing data after JSON object, or invalid JSON: ${text}`);
  }
}
