// The first implementation of the CustomResourceSchema seam: what serving custom resources needs
// of a structural schema (types, required fields, enums, nullable, int-or-string, properties,
// items and additionalProperties; upstream's structural pruning with x-kubernetes-preserve-unknown-fields
// and embedded resources; defaults, with nulls of non-nullable fields dropped first). The full
// OpenAPI v3 validation (formats, bounds, patterns, lengths, list types, CEL) replaces it behind
// the same interface.
import { isDeepStrictEqual } from 'node:util';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import type { CustomResourceSchema } from '../../runtime/custom-resource-schema.js';
import { notSupported, required, typeInvalid, type FieldError } from '../../runtime/field-errors.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields an embedded resource (and the root) keeps whatever its schema says: its type and object metadata. */
const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/** The schema a list's items follow (a list of schemas is not structural; the first stands in). */
function itemsOf(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return Array.isArray(s.items) ? s.items[0] : s.items;
}

/** The schema of keys beyond `properties`: a schema, `{}` for `true` (anything, pruned), none for absent or `false`. */
function additionalOf(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const a = s.additionalProperties;
  if (a === undefined || a === false) return undefined;
  return a === true ? {} : a;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** The JSON type name upstream's validator reports for a value. */
function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

function hasType(v: unknown, type: string): boolean {
  switch (type) {
    case 'object': return isObject(v);
    case 'array': return Array.isArray(v);
    case 'string': return typeof v === 'string';
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'number': return typeof v === 'number';
    case 'boolean': return typeof v === 'boolean';
    default: return true;
  }
}

/** How an enum value is named among the supported ones: strings as they are, anything else as JSON. */
const enumName = (e: unknown) => (typeof e === 'string' ? e : JSON.stringify(e));

/** Field errors of `v` at `path` (an object's root is ''); resource roots skip their metadata. */
export function validateValue(s: JSONSchemaProps, v: unknown, path: string, errs: FieldError[] = [], resourceRoot = false): FieldError[] {
  if (v === null) {
    if (s.nullable || (!s.type && !s['x-kubernetes-int-or-string'])) return errs;
    errs.push(typeInvalid(path, '', `${path} in body must be of type ${s.type ?? 'integer,string'}: "null"`));
    return errs;
  }
  if (s['x-kubernetes-int-or-string']) {
    if (!hasType(v, 'integer') && !hasType(v, 'string')) errs.push(typeInvalid(path, v, `${path} in body must be of type integer,string: "${typeName(v)}"`));
    return errs;
  }
  if (s.type && !hasType(v, s.type)) {
    errs.push(typeInvalid(path, v, `${path} in body must be of type ${s.type}: "${typeName(v)}"`));
    return errs;
  }
  if (s.enum && !s.enum.some((e) => isDeepStrictEqual(e, v))) errs.push(notSupported(path, v, s.enum.map(enumName)));
  if (isObject(v)) {
    const embedded = resourceRoot || s['x-kubernetes-embedded-resource'] === true;
    for (const r of s.required ?? []) if (!(r in v)) errs.push(required(join(path, r)));
    const additional = additionalOf(s);
    for (const [k, x] of Object.entries(v)) {
      if (embedded && metaFields.has(k)) continue;
      const child = s.properties?.[k] ?? additional;
      if (child) validateValue(child, x, join(path, k), errs);
    }
  } else if (Array.isArray(v)) {
    const items = itemsOf(s);
    if (items) v.forEach((x, i) => validateValue(items, x, `${path}[${i}]`, errs));
  }
  return errs;
}

/**
 * Upstream's structural pruning of `v` in place: fields the schema does not specify go unless
 * x-kubernetes-preserve-unknown-fields keeps them; embedded resources (and the resource root) keep
 * apiVersion, kind and metadata. Returns the pruned paths, sorted.
 */
export function pruneValue(s: JSONSchemaProps | undefined, v: unknown, path: string, resourceRoot = false): string[] {
  const pruned: string[] = [];
  prune(v, resourceRoot ? { ...(s ?? {}), 'x-kubernetes-embedded-resource': true } : s, path, pruned, resourceRoot);
  return pruned.sort();
}

function prune(v: unknown, s: JSONSchemaProps | undefined, path: string, pruned: string[], atRoot: boolean): void {
  const preserve = s?.['x-kubernetes-preserve-unknown-fields'] === true;
  if (isObject(v)) {
    const embedded = s?.['x-kubernetes-embedded-resource'] === true;
    const additional = s ? additionalOf(s) : undefined;
    for (const k of Object.keys(v)) {
      if (embedded && metaFields.has(k)) continue;
      const child = s?.properties?.[k] ?? additional;
      if (child !== undefined) {
        prune(v[k], child, join(path, k), pruned, false);
      } else if (!preserve) {
        // The resource root's own type and metadata are not reported (they are kept elsewhere).
        if (!(atRoot && metaFields.has(k))) pruned.push(join(path, k));
        delete v[k];
      }
    }
  } else if (Array.isArray(v)) {
    const items = s ? itemsOf(s) : undefined;
    v.forEach((x, i) => {
      if (preserve && !items) return;
      prune(x, items, `${path}[${i}]`, pruned, false);
    });
  }
}

/**
 * Upstream's defaulting of `v` in place: nulls of non-nullable fields without a default go, then
 * every absent (or null, non-nullable) field with a default gets a copy of it, depth first.
 */
export function defaultValue(s: JSONSchemaProps | undefined, v: unknown): void {
  if (!s) return;
  if (isObject(v)) {
    for (const [k, prop] of Object.entries(s.properties ?? {})) {
      if (v[k] === null && !prop.nullable && prop.default === undefined) delete v[k];
      if (prop.default !== undefined && (!(k in v) || (v[k] === null && !prop.nullable))) v[k] = structuredClone(prop.default);
    }
    const additional = additionalOf(s);
    for (const [k, x] of Object.entries(v)) {
      const child = s.properties?.[k] ?? additional;
      if (child) defaultValue(child, x);
    }
  } else if (Array.isArray(v)) {
    const items = itemsOf(s);
    if (items) for (const x of v) defaultValue(items, x);
  }
}

/** The seam's first implementation over a version's openAPIV3Schema. */
export function basicCustomResourceSchema(schema: JSONSchemaProps | undefined): CustomResourceSchema {
  return {
    validate: (obj) => (schema ? validateValue(schema, obj, '', [], true) : []),
    prune: (obj) => pruneValue(schema, obj, '', true),
    default: (obj) => defaultValue(schema, obj),
  };
}
