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
  anyOf?: SchemaNode[];
  'x-orch-type'?: string;
  'x-orch-emit'?: EmitMode;
  'x-orch-int-or-string'?: boolean;
  'x-orch-preserve-unknown-fields'?: boolean;
}

/** A JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
