// The OpenAPI v3 schema of one served kind with every reference resolved in place (upstream's
// DefinitionsSchemaResolver), which is what CEL type checking derives a kind's type from. A shape
// that contains itself is cut where it recurs, as a free-form object.
import type { Scheme } from '../../runtime/scheme.js';
import { definitionName, DefinitionSet } from './definitions.js';
import { refPrefix } from './schema-conversion.js';
import { servedDefinitions } from './served-definitions.js';
import { isJsonObject, type GroupVersionKind, type JsonObject, type JsonValue } from './types.js';

const prefix = refPrefix('v3');
const freeForm: JsonObject = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function resolve(value: JsonValue, defs: DefinitionSet, expanding: ReadonlySet<string>): JsonValue {
  if (Array.isArray(value)) return value.map((v) => resolve(v, defs, expanding));
  if (!isJsonObject(value)) return value;
  const ref = value.$ref;
  if (typeof ref === 'string' && ref.startsWith(prefix)) {
    const name = ref.slice(prefix.length);
    const def = defs.get(name);
    if (!def || expanding.has(name)) return freeForm;
    return resolve(def, defs, new Set([...expanding, name]));
  }
  // A field's own keywords around a reference (`allOf: [{$ref}]`) merge into the shape it names.
  const allOf = value.allOf;
  if (Array.isArray(allOf) && allOf.length === 1) {
    const { allOf: _, ...siblings } = value;
    const shape = resolve(allOf[0]!, defs, expanding);
    return { ...(isJsonObject(shape) ? shape : {}), ...(resolve(siblings, defs, expanding) as JsonObject) };
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) out[k] = resolve(v, defs, expanding);
  return out;
}

/**
 * Resolves the schemas of the kinds `scheme` serves; the built-in definitions are built on first
 * use, a custom resource's from its definition's schema as it is served at the time of asking.
 */
export function kindSchemaResolver(scheme: Scheme): (kind: GroupVersionKind) => JsonObject | undefined {
  let builtIn: DefinitionSet | undefined;
  return (kind) => {
    const r = scheme.resources().find((x) => x.group === kind.group && x.version === kind.version && x.kind === kind.kind);
    if (!r) return undefined;
    let defs: DefinitionSet;
    let name: string;
    if (r.custom) {
      defs = new DefinitionSet('v3');
      name = defs.add(r.schema);
    } else {
      defs = builtIn ??= servedDefinitions(scheme, 'v3');
      name = definitionName(r.schema);
    }
    const def = defs.get(name);
    return def ? (resolve(def, defs, new Set([name])) as JsonObject) : undefined;
  };
}
