import { isDeepStrictEqual } from 'node:util';
import type { TSchema } from '@sinclair/typebox';
import { shapedCopy } from '../../runtime/wire-shape.js';
import { invalid, type FieldError, type Path } from '../../runtime/field-errors.js';

/** The upstream "field is immutable" error when `value` differs from `old`. */
export function validateImmutableField(value: unknown, old: unknown, path: Path): FieldError[] {
  return isDeepStrictEqual(value ?? null, old ?? null) ? [] : [invalid(path, value ?? null, 'field is immutable')];
}

/** Drops what upstream's semantic equality ignores: unset fields and empty lists. */
export function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(normalized);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const n = normalized(v);
      if (n !== undefined) out[k] = n;
    }
    return out;
  }
  return value;
}

/**
 * "field is immutable" when `value` and `old`, both shaped as `schema` writes them (the stored
 * object carries zero values a client may leave out), differ semantically.
 */
export function validateImmutableShaped(schema: TSchema, value: unknown, old: unknown, path: Path): FieldError[] {
  const comparable = (v: unknown) => (v === undefined || v === null ? undefined : normalized(shapedCopy(schema, v)));
  return isDeepStrictEqual(comparable(value), comparable(old)) ? [] : [invalid(path, value ?? null, 'field is immutable')];
}
