// The parts of our JSON Schemas the object walkers read (pruning, number checks, wire shape):
// one view of a schema node, so each walker states only what it does with it.
import type { EmitMode } from '../../api/schema.js';

export interface SchemaNode {
  type?: string | string[];
  format?: string;
  properties?: Record<string, SchemaNode>;
  /** A map's value schema (Type.Record). */
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  required?: string[];
  default?: unknown;
  anyOf?: SchemaNode[];
  'x-orch-type'?: string;
  'x-orch-emit'?: EmitMode;
  'x-orch-int-or-string'?: boolean;
  'x-orch-preserve-unknown-fields'?: boolean;
  /** Strategic merge patch strategy of a list or map (`merge`, `replace`, `retainKeys`, `merge,retainKeys`). */
  'x-orch-patch-strategy'?: string;
  /** Strategic merge patch key of a `merge` list of objects. */
  'x-orch-patch-merge-key'?: string;
  /** Server-side apply: how a list merges (atomic, set, map). */
  'x-orch-list-type'?: string;
  /** Server-side apply: the keys of a `map` list. */
  'x-orch-list-map-keys'?: string[];
  /** Server-side apply: whether a map merges per key (granular) or as a whole (atomic). */
  'x-orch-map-type'?: string;
  /** Server-side apply: whether a struct merges per field (granular) or as a whole (atomic). */
  'x-orch-struct-type'?: string;
}

/** A JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
