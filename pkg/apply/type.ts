// What kind of node each place of a kind's schema is, for server-side apply: a scalar, a map or
// struct (granular or atomic), or a list (atomic, a set of scalars, or a map keyed by fields).
// Read from the schema markers (ARCHITECTURE section 2, spec 4.9.7) and resolved lazily, so shared
// sub-schemas and deep kinds cost nothing until an object reaches them.
import { isPlainObject, type SchemaNode } from '../runtime/schema-node.js';
import { declaredFieldSchema, itemSchema, mapValueSchema, patchMergeKey } from '../runtime/schema-walk.js';

export interface ScalarType {
  readonly kind: 'scalar';
}

/** An object: a struct (declared fields), a map (a schema for every key), or both. */
export interface MapType {
  readonly kind: 'map';
  /** Atomic: owned and replaced as a whole. Granular: each field or key on its own. */
  readonly atomic: boolean;
  /** The type of a declared field, undefined when the field is not declared. */
  field(name: string): TypeNode | undefined;
  /** The type of a key that is not a declared field, if the schema allows such keys. */
  readonly element: TypeNode | undefined;
  /** A schema-less object (every key a field of unknown type), whose topology cannot change. */
  readonly deduced: boolean;
}

export interface ListType {
  readonly kind: 'list';
  /** atomic: owned and replaced as a whole; set: items are scalars owned one by one; map: items keyed by `keys`. */
  readonly listType: 'atomic' | 'set' | 'map';
  readonly keys: readonly string[];
  readonly element: TypeNode;
  /** The default of a key field, from the item schema, used when an item leaves the key out. */
  keyDefault(name: string): unknown;
}

/** A place without a schema: the value decides (objects granular, lists atomic, anything else a scalar). */
export interface DeducedType {
  readonly kind: 'deduced';
}

export type TypeNode = ScalarType | MapType | ListType | DeducedType;

const SCALAR: ScalarType = { kind: 'scalar' };
const DEDUCED: DeducedType = { kind: 'deduced' };
const DEDUCED_LIST: ListType = { kind: 'list', listType: 'atomic', keys: [], element: DEDUCED, keyDefault: () => undefined };
const DEDUCED_MAP: MapType = { kind: 'map', atomic: false, field: () => undefined, element: DEDUCED, deduced: true };

const cache = new WeakMap<object, TypeNode>();

/** The node type of a schema (a kind's root schema, or any node in it); schema-less when undefined. */
export function typeOfSchema(schema: object | undefined): TypeNode {
  if (schema === undefined || !isPlainObject(schema)) return DEDUCED;
  let t = cache.get(schema);
  if (t === undefined) {
    t = resolve(schema as SchemaNode);
    cache.set(schema, t);
  }
  return t;
}

/** The type a value takes at a place of type `t`: a schema-less place is decided by the value. */
export function concreteType(t: TypeNode, value: unknown): TypeNode {
  if (t.kind !== 'deduced') return t;
  if (Array.isArray(value)) return DEDUCED_LIST;
  if (isPlainObject(value)) return DEDUCED_MAP;
  return SCALAR;
}

/** The type of the value under key `name` of an object of type `t`. */
export function fieldType(t: MapType, name: string): TypeNode | undefined {
  return t.field(name) ?? t.element;
}

function hasType(schema: SchemaNode, type: string): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

function resolve(schema: SchemaNode): TypeNode {
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
  if (schema['x-orch-preserve-unknown-fields'] === true && properties === undefined) return DEDUCED;
  if (Array.isArray(schema.anyOf)) {
    return schema.anyOf.every((s) => isPlainObject(s) && typeOfSchema(s).kind === 'scalar') ? SCALAR : DEDUCED;
  }
  if (hasType(schema, 'array') || isPlainObject(schema.items)) return listType(schema);
  if (hasType(schema, 'object') || properties !== undefined || schema.patternProperties !== undefined || isPlainObject(schema.additionalProperties)) {
    return mapType(schema, properties);
  }
  return schema.type === undefined ? DEDUCED : SCALAR;
}

function listType(schema: SchemaNode): ListType {
  const items = itemSchema(schema);
  const keyDefault = (name: string): unknown => declaredFieldSchema(items, name)?.default;
  const marker = schema['x-orch-list-type'];
  // Resolved on first use: schemas may be recursive.
  const make = (listType: ListType['listType'], keys: readonly string[]): ListType => ({
    kind: 'list', listType, keys, keyDefault, get element() { return typeOfSchema(items); },
  });
  if (marker === 'atomic') return make('atomic', []);
  if (marker === 'set') return make('set', []);
  if (marker === 'map') {
    const keys = schema['x-orch-list-map-keys'];
    // A map list without keys cannot identify its items; upstream refuses such a schema.
    return Array.isArray(keys) && keys.length > 0 ? make('map', keys.filter((k): k is string => typeof k === 'string')) : make('atomic', []);
  }
  // Without a list type, strategic merge's `merge` strategy makes a map keyed by the merge key,
  // or a set when there is no key (spec 4.9.7); upstream reads exactly these two spellings.
  const strategy = schema['x-orch-patch-strategy'];
  if (strategy === 'merge' || strategy === 'merge,retainKeys') {
    const mergeKey = patchMergeKey(schema);
    return mergeKey === undefined ? make('set', []) : make('map', [mergeKey]);
  }
  return make('atomic', []);
}

function mapType(schema: SchemaNode, properties: Record<string, unknown> | undefined): MapType {
  const marker = schema['x-orch-struct-type'] ?? schema['x-orch-map-type'];
  const valueSchema = mapValueSchema(schema);
  const preserve = schema['x-orch-preserve-unknown-fields'] === true;
  return {
    kind: 'map',
    atomic: marker === 'atomic',
    field: (name) => (properties !== undefined && Object.hasOwn(properties, name) ? typeOfSchema(declaredFieldSchema(schema, name)) : undefined),
    // Resolved on first use: schemas may be recursive.
    get element() { return valueSchema !== undefined ? typeOfSchema(valueSchema) : preserve ? DEDUCED : undefined; },
    deduced: false,
  };
}
