// A custom resource version's openAPIV3Schema in the dialect of our declared schemas, so the
// machinery built for declared kinds serves it: server-side apply reads its list and map types,
// the wire shape keeps every field as the client wrote it (custom resources have no Go types, so
// nothing is omitted or zero-filled but in metadata), and OpenAPI publishes it under upstream's
// definition name. apiVersion, kind and metadata are every object's, whatever the schema says.
import type { TObject } from '@sinclair/typebox';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import { ObjectMeta } from '../../../api/meta/v1/types.js';
import { field } from '../../../api/schema.js';

type Node = Record<string, unknown>;

/** Keywords published as they are (value validations at the node itself; junctors are left out). */
const copied = [
  'description', 'type', 'format', 'title', 'default', 'example', 'enum', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'multipleOf', 'maxProperties', 'minProperties', 'required', 'nullable',
  'x-kubernetes-embedded-resource', 'x-kubernetes-validations',
] as const;

/** Extensions with a name of our own, which the walkers read and OpenAPI publishes under both names. */
const renamed: Record<string, string> = {
  'x-kubernetes-preserve-unknown-fields': 'x-orch-preserve-unknown-fields',
  'x-kubernetes-int-or-string': 'x-orch-int-or-string',
  'x-kubernetes-list-type': 'x-orch-list-type',
  'x-kubernetes-list-map-keys': 'x-orch-list-map-keys',
  'x-kubernetes-map-type': 'x-orch-map-type',
};

/** upstream's definition name of a custom kind: the group reversed, the version, the kind (com.example.v1.Widget). */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function convert(s: JSONSchemaProps, v2: boolean): Node {
  const out: Node = {};
  for (const k of copied) if (s[k] !== undefined) out[k] = structuredClone(s[k]);
  for (const [from, to] of Object.entries(renamed)) {
    const value = (s as Node)[from];
    if (value !== undefined) out[to] = structuredClone(value);
  }
  if (s.properties) {
    const properties: Record<string, Node> = {};
    for (const [k, p] of Object.entries(s.properties)) properties[k] = { ...convert(p, v2), 'x-orch-emit': 'pointer' };
    out.properties = properties;
  }
  const items = Array.isArray(s.items) ? s.items[0] : s.items;
  if (items) out.items = convert(items, v2);
  if (typeof s.additionalProperties === 'object') out.additionalProperties = convert(s.additionalProperties, v2);
  else if (s.additionalProperties !== undefined) out.additionalProperties = s.additionalProperties;
  if (v2) toOpenAPIV2(out);
  return out;
}

/**
 * What upstream publishes in Swagger 2.0 (ToStructuralOpenAPIV2): no nullable (a nullable field
 * loses its type and structure, and is not required), no structure below preserved unknown fields.
 */
function toOpenAPIV2(n: Node): void {
  if (n.nullable) {
    for (const k of ['type', 'items', 'properties', 'nullable']) delete n[k];
  }
  if (n['x-orch-preserve-unknown-fields']) {
    delete n.items;
    delete n.properties;
    if (n.type === 'object') delete n.type;
  }
  if (n.type === 'array' && n.items === undefined) delete n.type;
  const properties = n.properties as Record<string, Node> | undefined;
  if (Array.isArray(n.required) && properties) {
    const required = n.required.filter((r) => !properties[r as string]?.nullable);
    if (required.length > 0) n.required = required;
    else delete n.required;
  }
  if ((n.additionalProperties as Node | undefined)?.nullable) delete n.required;
}

/** What apiVersion and kind say in every object's schema. */
const typeMeta = {
  apiVersion: {
    type: 'string', 'x-orch-emit': 'pointer',
    description: 'Versioned schema of this representation of the object, as group/version. The server may reject versions it does not know.',
  },
  kind: { type: 'string', 'x-orch-emit': 'pointer', description: 'The kind of the object, in CamelCase; the server infers it from the endpoint.' },
};

const metadata = field(1, ObjectMeta, { 'x-orch-emit': 'always', description: "The object's metadata: name, namespace, labels, annotations and more." });

/**
 * The schemas of a custom resource version: `internal`, which the server's walkers and OpenAPI
 * v3 read, and `openAPIV2`, published in Swagger 2.0. Both are named `name`.
 */
export function customResourceSchemas(schema: JSONSchemaProps | undefined, name: string): { internal: TObject; openAPIV2: TObject } {
  const build = (v2: boolean): TObject => {
    const root = schema ? convert(schema, v2) : { type: 'object', 'x-orch-preserve-unknown-fields': true };
    // A preserving root published in Swagger 2.0 is a bare object: kubectl would otherwise refuse unknown fields.
    const bare = v2 && root['x-orch-preserve-unknown-fields'] === true;
    const properties = bare ? undefined : { ...(root.properties as Record<string, Node> | undefined), ...typeMeta, metadata };
    const out: Node = { ...root, type: 'object', 'x-orch-type': name };
    if (properties) out.properties = properties;
    else delete out.properties;
    if (typeof out.description === 'string') out['x-orch-type-description'] = out.description;
    return out as unknown as TObject;
  };
  return { internal: build(false), openAPIV2: build(true) };
}
