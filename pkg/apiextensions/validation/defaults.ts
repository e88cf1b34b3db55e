// The defaults of a structural schema, as upstream's ValidateDefaults checks them: each must be
// pruned already (no field the schema would drop) and valid against the schema it stands in.
// Defaults inside metadata are forbidden outright (openapi-schema.ts), so only value defaults are
// checked here.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import { invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import { pruneValue, validateValue } from '../customresource/basic-schema.js';

/** The errors of every default in `s` (the root of a version's schema), which must be structural. */
export function validateDefaults(s: JSONSchemaProps, path: Path, requirePruned: boolean): FieldError[] {
  const errs: FieldError[] = [];
  walk(s, path, true, (node, at) => {
    const value = node.default;
    const where = at.child('default');
    if (requirePruned) {
      const pruned = structuredClone(value);
      if (pruneValue(node, pruned, '', node['x-kubernetes-embedded-resource'] === true).length > 0) errs.push(invalid(where, value, 'must not have unknown fields'));
    }
    errs.push(...validateValue(node, value, String(where)));
  });
  return errs;
}

/** Whether a default in `s` holds a field its schema would prune (stored before the rule existed). */
export function hasUnprunedDefaults(s: JSONSchemaProps): boolean {
  let found = false;
  walk(s, Path.root(''), true, (node) => {
    if (pruneValue(node, structuredClone(node.default), '', node['x-kubernetes-embedded-resource'] === true).length > 0) found = true;
  });
  return found;
}

/** Visits the nodes with a default, through properties and items (defaults are forbidden elsewhere). */
function walk(s: JSONSchemaProps, path: Path, isRoot: boolean, visit: (node: JSONSchemaProps, at: Path) => void): void {
  if (s.default !== undefined && !isRoot) visit(s, path);
  const items = Array.isArray(s.items) ? undefined : s.items;
  if (items) walk(items, path.child('items'), false, visit);
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    // Root metadata, kind and apiVersion take no defaults (openapi-schema.ts says so).
    if (isRoot && (k === 'metadata' || k === 'apiVersion' || k === 'kind')) continue;
    walk(p, path.child('properties').key(k), false, visit);
  }
}
