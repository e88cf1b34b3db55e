// Where a write happens, as the field manager needs it: the kind's type, the request's API
// version and sub-resource, the fields the write path resets, and the kind's empty object (the
// live object of a create, as upstream compares a create against the Go type's zero value).
import { isPlainObject, type SchemaNode } from '../runtime/schema-node.js';
import { shapedCopy } from '../runtime/wire-shape.js';
import type { FieldSet } from './field-set.js';
import type { EngineOptions } from './ownership.js';
import { typeOfSchema, type TypeNode } from './type.js';

export interface FieldManagerContext extends EngineOptions {
  type: TypeNode;
  /** The request's group/version, e.g. `apps/v1`. */
  apiVersion: string;
  /** `status`, `scale`, or empty for the main resource. */
  subresource?: string;
  /** The kind's empty object, compared against on create; `{}` when not given. */
  empty?: () => unknown;
}

/** The context for writes to objects of `schema` (a kind's root schema) through `apiVersion`. */
export function fieldManagerFor(schema: object, apiVersion: string, opts: { subresource?: string; ignoredFields?: FieldSet } = {}): FieldManagerContext {
  return {
    type: typeOfSchema(schema),
    apiVersion,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
    ...(opts.ignoredFields ? { ignoredFields: opts.ignoredFields } : {}),
    empty: emptyOf(schema),
  };
}

/** The kind's empty object, worked out once; each caller gets its own copy (apply merges into it). */
function emptyOf(schema: object): () => unknown {
  let template: unknown;
  return () => structuredClone((template ??= emptyObject(schema)));
}

/**
 * The zero value of a kind as upstream's Go type has it: structs that are always written are
 * present (empty), and lists and maps that are always written are null.
 */
export function emptyObject(schema: object): unknown {
  const zero = shapedCopy(schema, undefined);
  nullAlwaysCollections(schema as SchemaNode, zero);
  return zero;
}

function nullAlwaysCollections(schema: SchemaNode, value: unknown): void {
  if (!isPlainObject(value) || !isPlainObject(schema.properties)) return;
  const required = new Set(schema.required ?? []);
  for (const [key, prop] of Object.entries(schema.properties)) {
    if (!isPlainObject(prop)) continue;
    const mode = prop['x-orch-emit'] ?? (required.has(key) ? 'always' : undefined);
    const collection = prop.type === 'array' || (prop.type === 'object' && prop.properties === undefined);
    if (Object.hasOwn(value, key)) nullAlwaysCollections(prop, value[key]);
    else if (mode === 'always' && collection) value[key] = null;
  }
}
