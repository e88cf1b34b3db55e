// Turns one of our TypeBox schemas (JSON Schema draft-07 with x-orch markers) into the schema
// dialect of Swagger 2.0 or OpenAPI 3.0, the way upstream publishes its types: named shapes are
// hoisted into definitions and referenced, maps become additionalProperties, merge markers are
// published under our name and upstream's, protobuf numbering is dropped.
import { scalarDefinition } from './scalar-definitions.js';
import { isJsonObject, type Dialect, type JsonObject, type JsonValue } from './types.js';

/** Where the definitions of a dialect live. */
export function refPrefix(dialect: Dialect): string {
  return dialect === 'v2' ? '#/definitions/' : '#/components/schemas/';
}

/**
 * Protobuf codec internals, the JSON encoding marker (how the server writes the field, not what
 * a client may send) and the naming markers (a named shape becomes a definition instead).
 */
const droppedKeys = new Set([
  'x-proto', 'x-orch-proto-embedded', 'x-orch-protobuf', 'x-orch-emit', 'x-orch-type', 'x-orch-type-description', '$id', '$schema',
]);

/**
 * Keys that describe the field holding a named shape rather than the shape itself
 * (`field(2, LabelSelector, { 'x-orch-patch-strategy': 'replace' })`), so they stay beside the $ref.
 * `x-orch-struct-type` is a use's own struct type, overriding the shape's `x-orch-map-type` there
 * (upstream's field-level `+structType`, such as PersistentVolumeSpec.claimRef's granular).
 */
const useSiteKeys = new Set(['default', 'x-orch-patch-strategy', 'x-orch-patch-merge-key', 'x-orch-struct-type']);

/** Our markers and the names kubectl and other upstream clients read them under. */
const upstreamMarkers: Record<string, string> = {
  'x-orch-list-type': 'x-kubernetes-list-type',
  'x-orch-list-map-keys': 'x-kubernetes-list-map-keys',
  'x-orch-patch-strategy': 'x-kubernetes-patch-strategy',
  'x-orch-patch-merge-key': 'x-kubernetes-patch-merge-key',
  'x-orch-map-type': 'x-kubernetes-map-type',
  // Upstream publishes +structType under the map type's name.
  'x-orch-struct-type': 'x-kubernetes-map-type',
  'x-orch-preserve-unknown-fields': 'x-kubernetes-preserve-unknown-fields',
};

export interface ConversionContext {
  dialect: Dialect;
  /** Records the definition of a named shape; called for every use, with the same definition each time. */
  define(name: string, definition: JsonObject): void;
}

/** The schema to publish where `schema` is used: a $ref for a named shape, an inline schema otherwise. */
export function convertSchema(schema: unknown, ctx: ConversionContext): JsonObject {
  if (!isJsonObject(schema)) throw new Error(`not a schema: ${JSON.stringify(schema)}`);
  const name = schema['x-orch-type'];
  if (typeof name !== 'string') return convertInline(schema, ctx);
  const shape: JsonObject = {};
  const site: JsonObject = {};
  // The shape's own description goes on the definition; a different one is the field's, beside the $ref.
  const own = schema['x-orch-type-description'];
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'description') {
      if (v !== own) site[k] = v;
    } else {
      (useSiteKeys.has(k) ? site : shape)[k] = v;
    }
  }
  if (typeof own === 'string') shape.description = own;
  ctx.define(name, scalarDefinition(name, ctx.dialect) ?? convertInline(shape, ctx));
  return reference(name, convertInline(site, ctx), ctx.dialect);
}

/** A $ref with the field's own keywords: beside the $ref in Swagger 2.0, around it with allOf in OpenAPI 3.0, as upstream. */
function reference(name: string, siblings: JsonObject, dialect: Dialect): JsonObject {
  const ref = { $ref: `${refPrefix(dialect)}${name}` };
  if (Object.keys(siblings).length === 0) return ref;
  return dialect === 'v2' ? { ...ref, ...siblings } : { allOf: [ref], ...siblings };
}

function convertInline(schema: JsonObject, ctx: ConversionContext): JsonObject {
  const v3 = ctx.dialect === 'v3';
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (value === undefined || droppedKeys.has(key)) continue;
    switch (key) {
      case 'properties':
        out.properties = mapValues(value, (s) => convertSchema(s, ctx));
        break;
      case 'items':
        if (Array.isArray(value)) throw new Error('tuple schemas (items as an array) have no OpenAPI form');
        out.items = convertSchema(value, ctx);
        break;
      case 'patternProperties': {
        // TypeBox spells map[string]T as one catch-all pattern; OpenAPI has additionalProperties.
        const patterns = Object.values(asObject(value, key));
        if (patterns.length !== 1) throw new Error('only single-pattern maps have an OpenAPI form');
        out.additionalProperties = convertSchema(patterns[0], ctx);
        break;
      }
      case 'additionalProperties':
        out.additionalProperties = typeof value === 'boolean' ? value : convertSchema(value, ctx);
        break;
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
        // Swagger 2.0 has none of these (allOf aside, which we never write); the other keywords still apply.
        if (schema['x-orch-int-or-string'] === true || (!v3 && key !== 'allOf')) break;
        out[key] = asArray(value, key).map((s) => convertSchema(s, ctx));
        break;
      case 'not':
        if (v3) out.not = convertSchema(value, ctx);
        break;
      case 'const':
        // OpenAPI 3.0 and Swagger 2.0 predate const.
        out.enum = [clone(value)];
        break;
      case 'default':
        // Upstream publishes defaults in v3 only.
        if (v3) out.default = clone(value);
        break;
      case 'x-orch-int-or-string':
        out[key] = clone(value);
        if (v3) out['x-kubernetes-int-or-string'] = clone(value);
        break;
      default:
        out[key] = clone(value);
        if (key in upstreamMarkers) out[upstreamMarkers[key]!] = clone(value);
    }
  }
  if (schema['x-orch-int-or-string'] === true) {
    out.type = 'string';
    out.format = 'int-or-string';
  }
  // A free-form value (RawExtension, FieldsV1) is an object on the wire, as upstream declares it.
  if (schema['x-orch-preserve-unknown-fields'] === true && out.type === undefined) out.type = 'object';
  return out;
}

function asObject(value: unknown, key: string): JsonObject {
  if (!isJsonObject(value)) throw new Error(`${key} must be an object`);
  return value;
}

function asArray(value: unknown, key: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${key} must be an array`);
  return value;
}

function mapValues(value: unknown, f: (v: unknown) => JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(asObject(value, 'properties'))) out[k] = f(v);
  return out;
}

/** A deep copy of a JSON value; anything that is not JSON is a schema bug. */
function clone(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`non-finite number in a schema: ${value}`);
    return value;
  }
  if (Array.isArray(value)) return value.map(clone);
  if (isJsonObject(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = clone(v);
    return out;
  }
  throw new Error(`not a JSON value in a schema: ${String(value)}`);
}
