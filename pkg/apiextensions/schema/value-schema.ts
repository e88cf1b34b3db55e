// The schema the OpenAPI validator walks, in the form kube-openapi's validate package holds it
// (spec.Schema): built from a CRD version's schema as upstream converts it
// (ConvertJSONSchemaPropsWithPostProcess: `type` as a list, int-or-string as [integer, string],
// formats strfmt does not know dropped), or from a structural schema (ToKubeOpenAPI, used to
// validate default values, formats kept).
import { entriesOf, isObject, type JSONSchemaProps } from './json-schema-props.js';
import { supportedFormat } from './formats.js';
import type { NestedValueValidation, Structural, ValueChecks, ValueValidation } from './structural.js';

export interface ValueSchema extends ValueChecks {
  type: string[];
  nullable: boolean;
  required: string[];
  properties?: Map<string, ValueSchema>;
  /** `additionalProperties`: false forbids other keys; a schema validates them. */
  additionalProperties?: { allows: boolean; schema?: ValueSchema };
  items?: ValueSchema;
  allOf: ValueSchema[];
  anyOf: ValueSchema[];
  oneOf: ValueSchema[];
  not?: ValueSchema;
}

const NUMERIC_KEYS = ['maximum', 'minimum', 'maxLength', 'minLength', 'maxItems', 'minItems', 'multipleOf', 'maxProperties', 'minProperties'] as const;

const cache = new WeakMap<JSONSchemaProps, ValueSchema>();

/** The validator's schema for a CRD version's schema, as upstream's NewSchemaValidator builds it; cached per schema object. */
export function valueSchemaOf(props: JSONSchemaProps): ValueSchema {
  let s = cache.get(props);
  if (s === undefined) {
    s = fromProps(props);
    cache.set(props, s);
  }
  return s;
}

function fromProps(p: JSONSchemaProps): ValueSchema {
  const s: ValueSchema = {
    type: p.type ? [p.type] : [],
    nullable: p.nullable === true,
    format: supportedFormat(p.format ?? ''),
    exclusiveMaximum: p.exclusiveMaximum === true,
    exclusiveMinimum: p.exclusiveMinimum === true,
    pattern: p.pattern ?? '',
    uniqueItems: p.uniqueItems === true,
    required: p.required ?? [],
    allOf: (p.allOf ?? []).map(fromProps),
    anyOf: (p.anyOf ?? []).map(fromProps),
    oneOf: (p.oneOf ?? []).map(fromProps),
  };
  if (p['x-kubernetes-int-or-string'] === true) s.type = ['integer', 'string'];
  for (const k of NUMERIC_KEYS) if (typeof p[k] === 'number') s[k] = p[k];
  if (Array.isArray(p.enum)) s.enum = p.enum;
  if (isObject(p.properties)) s.properties = new Map(entriesOf(p.properties).map(([k, v]) => [k, fromProps(v)]));
  if (p.additionalProperties !== undefined) {
    s.additionalProperties = isObject(p.additionalProperties)
      ? { allows: true, schema: fromProps(p.additionalProperties) }
      : { allows: p.additionalProperties === true };
  }
  if (isObject(p.items)) s.items = fromProps(p.items);
  if (p.not !== undefined) s.not = fromProps(p.not);
  return s;
}

function emptyValueSchema(): ValueSchema {
  return { type: [], nullable: false, format: '', exclusiveMaximum: false, exclusiveMinimum: false, pattern: '', uniqueItems: false, required: [], allOf: [], anyOf: [], oneOf: [] };
}

function applyValueValidation(s: ValueSchema, v: ValueValidation | undefined): void {
  if (v === undefined) return;
  s.format = v.format;
  s.exclusiveMaximum = v.exclusiveMaximum;
  s.exclusiveMinimum = v.exclusiveMinimum;
  s.pattern = v.pattern;
  s.uniqueItems = v.uniqueItems;
  for (const k of NUMERIC_KEYS) if (v[k] !== undefined) s[k] = v[k];
  if (v.enum !== undefined) s.enum = v.enum;
  s.required = v.required ?? [];
  s.allOf = v.allOf.map(fromNested);
  s.anyOf = v.anyOf.map(fromNested);
  s.oneOf = v.oneOf.map(fromNested);
  if (v.not !== undefined) s.not = fromNested(v.not);
}

function fromNested(n: NestedValueValidation): ValueSchema {
  const s = emptyValueSchema();
  applyValueValidation(s, n.valueValidation);
  if (n.items !== undefined) s.items = fromNested(n.items);
  if (n.properties !== undefined) s.properties = new Map([...n.properties].map(([k, p]) => [k, fromNested(p)]));
  // Normally empty; the spelled-out int-or-string carries its types here.
  if (n.forbiddenGenerics.type) s.type = [n.forbiddenGenerics.type];
  s.nullable = n.forbiddenGenerics.nullable;
  return s;
}

/** The validator's schema for a structural schema (upstream's ToKubeOpenAPI: formats kept as written). */
export function valueSchemaOfStructural(st: Structural): ValueSchema {
  const s = emptyValueSchema();
  if (st.items !== undefined) s.items = valueSchemaOfStructural(st.items);
  if (st.properties !== undefined) s.properties = new Map([...st.properties].map(([k, p]) => [k, valueSchemaOfStructural(p)]));
  if (st.type) s.type = [st.type];
  s.nullable = st.nullable;
  if (st.additionalProperties !== undefined) {
    const a = st.additionalProperties;
    s.additionalProperties = { allows: a.bool, ...(a.structural ? { schema: valueSchemaOfStructural(a.structural) } : {}) };
  }
  applyValueValidation(s, st.valueValidation);
  return s;
}
