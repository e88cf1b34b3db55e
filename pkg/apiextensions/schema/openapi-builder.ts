// The OpenAPI definitions published for a CRD version (upstream's builder.BuildOpenAPIV2/V3, the
// definition part): the structural schema with int-or-string spelled out, apiVersion, kind and
// metadata added at the root and in embedded resources, the group-version-kind extension; for
// Swagger 2.0 what it cannot say is dropped (allOf/anyOf/oneOf/not, nullable places, the inside of
// preserve-unknown-fields, defaults). A schema that is not structural is published as a bare object.
import { entriesOf, isObject, type JSONSchemaProps } from './json-schema-props.js';
import {
  cloneStructural, newStructural, unfold, visitStructural,
  type NestedValueValidation, type Structural, type ValueValidation,
} from './structural.js';
import { validateStructural } from './structural-validation.js';
import { Path } from '../../runtime/field-errors.js';

type Json = Record<string, unknown>;

export interface DefinitionOptions {
  /** Swagger 2.0 (`/openapi/v2`) rather than OpenAPI 3.0 (`/openapi/v3`). */
  v2: boolean;
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  /** spec.preserveUnknownFields of the CRD (legacy): v2 then publishes a bare object. */
  preserveUnknownFields?: boolean;
  /** Full references of the shared meta definitions in the document (`#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`). */
  objectMetaRef: string;
  listMetaRef: string;
  /** The schemas of TypeMeta's apiVersion and kind as the document publishes them (with their descriptions). */
  apiVersionSchema: Json;
  kindSchema: Json;
  /** Descriptions beside the metadata references of an object and of a list. */
  metadataDescription?: string;
  listMetadataDescription?: string;
  /** `x-kubernetes-selectable-fields` of the version (`spec.selectableFields`), when the server publishes them. */
  selectableFields?: string[];
}

const openapiV3Types = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

function hasInvalidTypes(s: JSONSchemaProps | undefined): boolean {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return false;
  if (s.type && !openapiV3Types.has(s.type)) return true;
  const subs: (JSONSchemaProps | undefined)[] = [
    ...(Array.isArray(s.items) ? s.items : [s.items]), ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), s.not,
    ...entriesOf(s.properties).map(([, v]) => v), isObject(s.additionalProperties) ? s.additionalProperties : undefined,
  ];
  return subs.some(hasInvalidTypes);
}

/** The structural schema to publish, or undefined when upstream would publish a bare object. */
function publishable(props: JSONSchemaProps | undefined): Structural | undefined {
  if (props === undefined || hasInvalidTypes(props)) return undefined;
  let s: Structural;
  try {
    s = newStructural(props);
  } catch {
    return undefined;
  }
  return validateStructural(Path.root(''), s).length === 0 ? unfold(s) : undefined;
}

/** Upstream's ToStructuralOpenAPIV2: drops what Swagger 2.0 cannot express. */
function toV2(s: Structural): Structural {
  const out = cloneStructural(s);
  visitStructural(out, (n) => {
    if (n.valueValidation) {
      n.valueValidation.allOf = [];
      n.valueValidation.oneOf = [];
      n.valueValidation.anyOf = [];
      delete n.valueValidation.not;
    }
    if (n.nullable) {
      n.type = '';
      n.nullable = false;
      delete n.items;
      delete n.properties;
    }
    if (n.xPreserveUnknownFields) {
      delete n.items;
      delete n.properties;
    }
    if (n.items === undefined && n.type === 'array') n.type = '';
    if (n.xPreserveUnknownFields && n.type === 'object') n.type = '';
    if (n.valueValidation?.required) {
      const nullable = new Set([...(n.properties ?? [])].filter(([, p]) => p.nullable).map(([k]) => k));
      if (n.additionalProperties?.structural?.nullable) delete n.valueValidation.required;
      else if (nullable.size > 0) {
        const kept = n.valueValidation.required.filter((r) => !nullable.has(r));
        if (kept.length > 0) n.valueValidation.required = kept;
        else delete n.valueValidation.required;
      }
    }
  });
  return out;
}

/** A structural schema as an OpenAPI schema object (upstream's ToKubeOpenAPI). */
export function toOpenAPI(s: Structural): Json {
  const out: Json = {};
  if (s.description) out.description = s.description;
  if (s.type) out.type = s.type;
  addValueValidation(out, s.valueValidation);
  if (s.title) out.title = s.title;
  if (s.default !== undefined) out.default = s.default;
  if (s.nullable) out.nullable = true;
  if (s.items !== undefined) out.items = toOpenAPI(s.items);
  if (s.properties !== undefined) out.properties = Object.fromEntries([...s.properties].map(([k, p]) => [k, toOpenAPI(p)]));
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = s.additionalProperties.structural !== undefined ? toOpenAPI(s.additionalProperties.structural) : s.additionalProperties.bool;
  }
  if (s.xPreserveUnknownFields) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (s.xEmbeddedResource) out['x-kubernetes-embedded-resource'] = true;
  if (s.xIntOrString) out['x-kubernetes-int-or-string'] = true;
  if (s.xListMapKeys.length > 0) out['x-kubernetes-list-map-keys'] = s.xListMapKeys;
  if (s.xListType !== undefined) out['x-kubernetes-list-type'] = s.xListType;
  if (s.xMapType !== undefined) out['x-kubernetes-map-type'] = s.xMapType;
  if (s.xValidations.length > 0) out['x-kubernetes-validations'] = s.xValidations;
  return out;
}

function addValueValidation(out: Json, v: ValueValidation | undefined): void {
  if (v === undefined) return;
  if (v.format) out.format = v.format;
  for (const k of ['maximum', 'minimum', 'maxLength', 'minLength', 'maxItems', 'minItems', 'multipleOf', 'maxProperties', 'minProperties'] as const) {
    if (v[k] !== undefined) out[k] = v[k];
  }
  if (v.exclusiveMaximum) out.exclusiveMaximum = true;
  if (v.exclusiveMinimum) out.exclusiveMinimum = true;
  if (v.pattern) out.pattern = v.pattern;
  if (v.uniqueItems) out.uniqueItems = true;
  if (v.enum !== undefined) out.enum = v.enum;
  if (v.required !== undefined) out.required = v.required;
  if (v.allOf.length > 0) out.allOf = v.allOf.map(nestedToOpenAPI);
  if (v.anyOf.length > 0) out.anyOf = v.anyOf.map(nestedToOpenAPI);
  if (v.oneOf.length > 0) out.oneOf = v.oneOf.map(nestedToOpenAPI);
  if (v.not !== undefined) out.not = nestedToOpenAPI(v.not);
}

function nestedToOpenAPI(n: NestedValueValidation): Json {
  const out: Json = {};
  addValueValidation(out, n.valueValidation);
  if (n.items !== undefined) out.items = nestedToOpenAPI(n.items);
  if (n.properties !== undefined) out.properties = Object.fromEntries([...n.properties].map(([k, p]) => [k, nestedToOpenAPI(p)]));
  // Normally empty; the spelled-out int-or-string keeps its types here.
  if (n.forbiddenGenerics.type) out.type = n.forbiddenGenerics.type;
  return out;
}

function metaReference(ref: string, description: string | undefined, v2: boolean): Json {
  const withDescription = description ? { description } : {};
  return v2 ? { $ref: ref, ...withDescription } : { allOf: [{ $ref: ref }], ...withDescription };
}

/** Adds apiVersion, kind and metadata to every embedded resource below `s` (upstream's addEmbeddedProperties). */
function addEmbeddedProperties(s: Json, opts: DefinitionOptions): void {
  const props = s.properties as Record<string, Json> | undefined;
  for (const p of Object.values(props ?? {})) addEmbeddedProperties(p, opts);
  if (isObject(s.items)) addEmbeddedProperties(s.items, opts);
  if (isObject(s.additionalProperties)) addEmbeddedProperties(s.additionalProperties, opts);
  if (s['x-kubernetes-preserve-unknown-fields'] === true && opts.v2) return;
  if (s['x-kubernetes-embedded-resource'] === true) {
    s.properties = {
      ...(props ?? {}),
      apiVersion: opts.apiVersionSchema,
      kind: opts.kindSchema,
      metadata: metaReference(opts.objectMetaRef, opts.metadataDescription, opts.v2),
    };
    const required = (s.required as string[] | undefined) ?? [];
    for (const r of ['kind', 'apiVersion']) if (!required.includes(r)) required.push(r);
    s.required = required;
  }
}

/** A schema without `default` anywhere (kube-openapi's PruneDefaults, applied to Swagger 2.0). */
function withoutDefaults(s: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'default') continue;
    if (k === 'properties' && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, isObject(p) ? withoutDefaults(p) : p]));
    else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && isObject(v)) out[k] = withoutDefaults(v);
    else if ((k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) out[k] = v.map((x) => (isObject(x) ? withoutDefaults(x) : x));
    else out[k] = v;
  }
  return out;
}

/** The published definition of the kind of a CRD version whose schema is `props`. */
export function kindDefinition(props: JSONSchemaProps | undefined, opts: DefinitionOptions): Json {
  let ret: Json;
  const s = publishable(props);
  if (s === undefined || (opts.v2 && (s.xPreserveUnknownFields || opts.preserveUnknownFields))) {
    ret = { type: 'object' };
  } else {
    ret = toOpenAPI(opts.v2 ? toV2(s) : s);
    ret.properties = {
      ...(ret.properties as Json | undefined),
      metadata: metaReference(opts.objectMetaRef, opts.metadataDescription, opts.v2),
      apiVersion: opts.apiVersionSchema,
      kind: opts.kindSchema,
    };
    addEmbeddedProperties(ret, opts);
  }
  ret['x-kubernetes-group-version-kind'] = [{ group: opts.group, kind: opts.kind, version: opts.version }];
  if (opts.selectableFields !== undefined && opts.selectableFields.length > 0) {
    ret['x-kubernetes-selectable-fields'] = opts.selectableFields.map((f) => ({ fieldPath: f.replace(/^\./, '') }));
  }
  // Swagger 2.0 is published with defaults pruned, as upstream prunes them before merging specs.
  return opts.v2 ? withoutDefaults(ret) : ret;
}

/** The published definition of the list kind, whose items refer to the kind's definition by `kindRef`. */
export function listDefinition(kindRef: string, opts: DefinitionOptions): Json {
  return {
    description: `${opts.listKind} is a list of ${opts.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: opts.apiVersionSchema,
      items: { description: `List of ${opts.plural}.`, type: 'array', items: { $ref: kindRef } },
      kind: opts.kindSchema,
      metadata: metaReference(opts.listMetaRef, opts.listMetadataDescription, opts.v2),
    },
    'x-kubernetes-group-version-kind': [{ group: opts.group, kind: opts.listKind, version: opts.version }],
  };
}

/** The name upstream gives a CRD kind's definition: the reversed group, version and kind (`io.k8s.bar.v1.Foo`). */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}
