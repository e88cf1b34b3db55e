// Helpers over the schema of a CustomResourceDefinition version as its author writes it
// (JSONSchemaProps, declared with the kind in api/apiextensions/v1): plain JSON, read by
// everything in this folder. Fields are optional because authors leave them out.

export type { JSONSchemaProps, ValidationRule } from '../../../api/apiextensions/v1/json-schema-props.js';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';

/** Whether a value is a JSON object (not null, not a list). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The own entries of an optional record, in the order written. */
export function entriesOf<T>(r: Record<string, T> | undefined): [string, T][] {
  return isObject(r) ? Object.entries(r) : [];
}

/**
 * Sets a field of a decoded object. A plain assignment of `__proto__` would change the object's
 * prototype instead of adding the key JSON.parse can produce; this always adds a key.
 */
export function setField(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/** Whether a decoded object has its own field `key`. */
export function hasField(obj: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(obj, key);
}

/** A deep copy of a decoded JSON value. */
export function deepCopyJSON<T>(v: T): T {
  if (Array.isArray(v)) return v.map(deepCopyJSON) as T;
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) setField(out, k, deepCopyJSON(x));
    return out as T;
  }
  return v;
}

/** Deep equality of decoded JSON values (Go's reflect.DeepEqual on them). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => hasField(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Whether a value is a schema object (the shape is the author's; the type only says what may be read). */
export function isSchema(v: unknown): v is JSONSchemaProps {
  return isObject(v);
}
