// Building blocks for API schemas. Every kind is declared once with these helpers; validation,
// pruning, defaulting, OpenAPI, patch strategies and protobuf numbering are all read from the
// resulting JSON Schema, so the markers set here are the single source of truth.
import { CloneType, Type, type SchemaOptions, type TSchema, type TProperties } from '@sinclair/typebox';

/** Markers read by strategic merge patch and server-side apply (see ARCHITECTURE section 2). */
export interface ListMarkers {
  /** How server-side apply treats the list. */
  listType?: 'atomic' | 'set' | 'map';
  /** Keys that identify an item of a `map` list. */
  mapKeys?: string[];
  /** Strategic merge patch strategy. */
  patchStrategy?: 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys';
  /** Strategic merge patch key of a `merge` list. */
  patchMergeKey?: string;
}

function listOptions(markers: ListMarkers | undefined): SchemaOptions {
  const o: SchemaOptions = {};
  if (!markers) return o;
  if (markers.listType) o['x-orch-list-type'] = markers.listType;
  if (markers.mapKeys) o['x-orch-list-map-keys'] = markers.mapKeys;
  if (markers.patchStrategy) o['x-orch-patch-strategy'] = markers.patchStrategy;
  if (markers.patchMergeKey) o['x-orch-patch-merge-key'] = markers.patchMergeKey;
  return o;
}

/**
 * How upstream's Go type writes a field in JSON (its `json:` tag and whether it is a pointer),
 * recorded as `x-orch-emit` only where the default is wrong. The default: a required property is
 * 'always'; an optional property holding an object shape (a struct) is 'pointer'; any other
 * optional property is 'omitempty'.
 * - 'omitempty': left out when "", 0, false, an empty list or an empty map.
 * - 'pointer': left out only when absent; a present zero value is kept.
 * - 'always': always written; when absent its zero value is filled in ("", 0, false, a struct
 *   filled recursively, null for a timestamp). Lists and maps stay absent when absent.
 */
export type EmitMode = 'omitempty' | 'pointer' | 'always';

/** A property holding a shared shape, numbered for protobuf; `options` (a description, markers) describe the use. */
export function field<T extends TSchema>(proto: number, schema: T, options: SchemaOptions = {}): T {
  // CloneType lets the shape's own keys win; the use's description and markers must win instead.
  return Object.assign(CloneType(schema), options, { 'x-proto': proto });
}

/**
 * A named object shape; `name` is the OpenAPI definition name (e.g. io.orch.api.apps.v1.StatefulSetSpec).
 * The shape's own description is kept apart from the description a use of it gives (`field`),
 * so OpenAPI can publish the first on the definition and the second beside the reference.
 */
export function object<P extends TProperties>(name: string, properties: P, options: SchemaOptions = {}) {
  const own = typeof options.description === 'string' ? { 'x-orch-type-description': options.description } : {};
  return Type.Object(properties, { ...options, ...own, 'x-orch-type': name });
}

export const str = (proto: number, options: SchemaOptions = {}) => Type.String({ ...options, 'x-proto': proto });

export const bool = (proto: number, options: SchemaOptions = {}) => Type.Boolean({ ...options, 'x-proto': proto });

export const int32 = (proto: number, options: SchemaOptions = {}) =>
  Type.Integer({ minimum: -2147483648, maximum: 2147483647, ...options, format: 'int32', 'x-proto': proto });

export const int64 = (proto: number, options: SchemaOptions = {}) =>
  Type.Integer({ ...options, format: 'int64', 'x-proto': proto });

/** A string enum; an unsupported value is reported with the list of supported ones. */
export function enumOf<const V extends readonly string[]>(proto: number, values: V, options: SchemaOptions = {}) {
  return Type.Unsafe<V[number]>(Type.String({ ...options, enum: [...values], 'x-proto': proto }));
}

/** map[string]string */
export const stringMap = (proto: number, options: SchemaOptions = {}) =>
  Type.Record(Type.String(), Type.String(), { ...options, 'x-proto': proto });

/** map[string]<schema> */
export function mapOf<T extends TSchema>(proto: number, value: T, options: SchemaOptions = {}) {
  return Type.Record(Type.String(), value, { ...options, 'x-proto': proto });
}

/** []<schema> with its merge markers. */
export function list<T extends TSchema>(proto: number, item: T, markers?: ListMarkers, options: SchemaOptions = {}) {
  return Type.Array(item, { ...options, ...listOptions(markers), 'x-proto': proto });
}

/** []string */
export const stringList = (proto: number, markers?: ListMarkers, options: SchemaOptions = {}) =>
  list(proto, Type.String(), markers, options);

/** []byte, carried as base64 in JSON. */
export const bytes = (proto: number, options: SchemaOptions = {}) =>
  Type.String({ ...options, format: 'byte', 'x-proto': proto });

/** A free-form JSON value (RawExtension, FieldsV1): kept as it is, never pruned. */
export const raw = (proto: number, options: SchemaOptions = {}) =>
  Type.Unknown({ ...options, 'x-orch-preserve-unknown-fields': true, 'x-proto': proto });

export const opt = Type.Optional;
