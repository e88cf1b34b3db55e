// Drops what a kind's schema does not declare, the way upstream's decoder ignores unknown JSON
// fields, and reports each dropped field so fieldValidation can warn or reject. Nulls follow
// upstream's JSON decoding: a null field is unset, a null map value or list element is the zero
// value of its type (so validation sees what upstream's validation sees).
import { isPlainObject, type SchemaNode } from './schema-node.js';

/**
 * Removes from `value`, in place: fields unknown to `schema`, and fields set to null (null means
 * unset, as in upstream JSON decoding); empty values upstream omits are wire-shape.ts's concern. A null map
 * value or list element becomes its type's zero value, as Go decodes it: `""`, `0`, `false`,
 * `{}` for a struct, `"0"` for a Quantity (so `limits: {cpu: null}` is a zero limit, and
 * `containers: [null]` a container without name or image, both for validation to judge).
 * Returns the paths of the unknown fields, e.g. `spec.template.spec.containers[0].imagePullPolcy`.
 */
export function pruneUnknownFields(schema: object, value: unknown): string[] {
  const unknown: string[] = [];
  walk(schema as SchemaNode, value, '', unknown);
  return unknown;
}

function walk(schema: SchemaNode, value: unknown, path: string, unknown: string[]): void {
  if (schema['x-orch-preserve-unknown-fields']) return;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return;
    for (let i = 0; i < value.length; i++) {
      if (value[i] === null) {
        const zero = zeroValue(items);
        if (zero !== undefined) value[i] = zero;
      }
      walk(items, value[i], `${path}[${i}]`, unknown);
    }
    return;
  }
  if (!isPlainObject(value)) return;
  const props = schema.properties;
  const mapValues = schema.patternProperties ? Object.values(schema.patternProperties)[0] : undefined;
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (!props && !mapValues && !additional) return; // not an object schema (e.g. a union of scalars)
  for (const key of Object.keys(value)) {
    const child = props?.[key] ?? mapValues ?? additional;
    const childPath = props?.[key] || !mapValues ? (path ? `${path}.${key}` : key) : `${path}[${key}]`;
    if (value[key] === null) {
      const zero = props?.[key] || !child ? undefined : zeroValue(child);
      if (zero === undefined) {
        delete value[key];
        continue;
      }
      value[key] = zero;
    }
    if (!child) {
      unknown.push(childPath);
      delete value[key];
      continue;
    }
    walk(child, value[key], childPath, unknown);
  }
}

/**
 * What Go's JSON decoding leaves for a null map value or list element of this schema, or
 * undefined where it leaves nothing JSON can show (a null Time) or the schema is free-form (the
 * null is kept, as in a map[string]interface{}).
 */
function zeroValue(schema: SchemaNode): unknown {
  if (schema['x-orch-preserve-unknown-fields']) return undefined;
  if (schema['x-orch-type']?.endsWith('.Quantity')) return '0';
  if (schema['x-orch-int-or-string']) return 0;
  switch (schema.type) {
    case 'string': return schema.format === 'date-time' ? undefined : '';
    case 'integer':
    case 'number': return 0;
    case 'boolean': return false;
    case 'object': return {};
    case 'array': return [];
    default: return undefined;
  }
}
