// Navigation of a kind's schema from a node to the node of a field or of a list's items, and the
// merge markers found there. Strategic merge patch and server-side apply both read a kind's
// schema through these, so the two never disagree about which schema governs a field.
import { isPlainObject, type SchemaNode } from './schema-node.js';

const patternCache = new Map<string, RegExp | null>();

function matchesPattern(pattern: string, key: string): boolean {
  let re = patternCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = null;
    }
    patternCache.set(pattern, re);
  }
  return re !== null && re.test(key);
}

/** The schema of a declared property (`properties`), or undefined when `key` is not declared. */
export function declaredFieldSchema(schema: SchemaNode | undefined, key: string): SchemaNode | undefined {
  const properties = schema?.properties;
  if (isPlainObject(properties) && Object.hasOwn(properties, key)) {
    const s = properties[key];
    return isPlainObject(s) ? (s as SchemaNode) : undefined;
  }
  return undefined;
}

/** The schema every undeclared key of an object takes (a map's values), if the schema gives one. */
export function mapValueSchema(schema: SchemaNode | undefined, key?: string): SchemaNode | undefined {
  if (schema === undefined) return undefined;
  const patterns = schema.patternProperties;
  if (isPlainObject(patterns)) {
    for (const [pattern, s] of Object.entries(patterns)) {
      if (isPlainObject(s) && (key === undefined || matchesPattern(pattern, key))) return s as SchemaNode;
    }
  }
  const additional = schema.additionalProperties;
  return isPlainObject(additional) ? (additional as SchemaNode) : undefined;
}

/** The schema of a field of an object: its declared property, else the map value schema. */
export function fieldSchema(schema: SchemaNode | undefined, key: string): SchemaNode | undefined {
  return declaredFieldSchema(schema, key) ?? mapValueSchema(schema, key);
}

/** The schema of a list's items. */
export function itemSchema(schema: SchemaNode | undefined): SchemaNode | undefined {
  const items = schema?.items;
  return isPlainObject(items) ? (items as SchemaNode) : undefined;
}

/** The strategies of `x-orch-patch-strategy` (`merge,retainKeys` gives both), trimmed. */
export function patchStrategies(schema: SchemaNode | undefined): string[] {
  const value = schema?.['x-orch-patch-strategy'];
  return typeof value === 'string' ? value.split(',').map((s) => s.trim()) : [];
}

/** `x-orch-patch-merge-key`, when set and not empty. */
export function patchMergeKey(schema: SchemaNode | undefined): string | undefined {
  const value = schema?.['x-orch-patch-merge-key'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
