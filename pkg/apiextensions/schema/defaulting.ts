// Defaulting (upstream's defaulting.Default) and the dropping of nulls that nothing accepts
// (PruneNonNullableNullsWithoutDefaults). Upstream defaults a custom resource when it is decoded:
// from a request, and from storage too, so an object stored before a default existed gets it when
// it is read.
import { deepCopyJSON, hasField, isObject, setField } from './json-schema-props.js';
import { fieldSchemaOf, type Structural } from './structural.js';

const isNonNullableNull = (x: unknown, s: Structural | undefined) => x === null && s !== undefined && !s.nullable;

/**
 * Sets, in place, every absent field whose schema has a default (and every null that is not
 * nullable but has one), in objects, maps and list items, recursively.
 */
export function applyDefaults(x: unknown, s: Structural | undefined): void {
  if (s === undefined) return;
  if (isObject(x)) {
    for (const [k, prop] of s.properties ?? []) {
      if (prop.default === undefined) continue;
      if (!hasField(x, k) || isNonNullableNull(x[k], prop)) setField(x, k, deepCopyJSON(prop.default));
    }
    for (const k of Object.keys(x)) {
      const prop = s.properties?.get(k);
      if (prop !== undefined) {
        applyDefaults(x[k], prop);
      } else if (s.additionalProperties !== undefined) {
        const values = s.additionalProperties.structural;
        if (isNonNullableNull(x[k], values)) setField(x, k, deepCopyJSON(values!.default) ?? null);
        applyDefaults(x[k], values);
      }
    }
  } else if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], s.items)) x[i] = deepCopyJSON(s.items!.default) ?? null;
      applyDefaults(x[i], s.items);
    }
  }
}

/** Removes, in place, null fields and map values whose schema is neither nullable nor defaulted (null list items stay). */
export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: Structural | undefined): void {
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      const schema = fieldSchemaOf(s, k);
      if (x[k] === null && schema !== undefined && !schema.nullable && schema.default === undefined) delete x[k];
      else pruneNonNullableNullsWithoutDefaults(x[k], schema);
    }
  } else if (Array.isArray(x)) {
    for (const v of x) pruneNonNullableNullsWithoutDefaults(v, s?.items);
  }
}
