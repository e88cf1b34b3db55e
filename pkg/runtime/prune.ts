// Drops what a kind's schema does not declare, the way upstream's decoder ignores unknown JSON
// fields, and reports each dropped field so fieldValidation can warn or reject.

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  'x-orch-preserve-unknown-fields'?: boolean;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Removes from `value`, in place: fields unknown to `schema`, and fields set to null (null means
 * unset, as in upstream JSON decoding). Empty values upstream omits are wire-shape.ts's concern.
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
    if (schema.items) value.forEach((item, i) => walk(schema.items!, item, `${path}[${i}]`, unknown));
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
      delete value[key];
      continue;
    }
    if (!child) {
      unknown.push(childPath);
      delete value[key];
      continue;
    }
    walk(child, value[key], childPath, unknown);
  }
}
