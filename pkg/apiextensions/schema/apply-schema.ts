// What server-side apply needs of a CRD version's schema (the type upstream's field manager
// builds from the CRD's OpenAPI): lists are atomic unless x-kubernetes-list-type says set or map
// (keyed by x-kubernetes-list-map-keys), maps and structs are granular unless
// x-kubernetes-map-type says atomic, x-kubernetes-preserve-unknown-fields places are deduced from
// their values, and the metadata of the resource and of embedded resources is ObjectMeta. The
// result is written with the markers pkg/apply reads for built-in kinds, so one merge engine
// serves both.
import { ObjectMeta } from '../../../api/meta/v1/types.js';
import { typeOfSchema, type TypeNode } from '../../apply/type.js';
import type { SchemaNode } from '../../runtime/schema-node.js';
import type { Structural } from './structural.js';

const typeMetaString: SchemaNode = { type: 'string' };

function node(s: Structural, embedded: boolean): SchemaNode {
  const out: SchemaNode = {};
  if (s.type) out.type = s.type;
  if (s.default !== undefined) out.default = s.default;
  if (s.xPreserveUnknownFields) out['x-orch-preserve-unknown-fields'] = true;
  if (s.type === 'array' || s.items !== undefined) {
    if (s.items !== undefined) out.items = node(s.items, false);
    // Without a list type a CRD list is atomic (strategic merge's markers do not exist here).
    out['x-orch-list-type'] = s.xListType ?? 'atomic';
    if (s.xListType === 'map') out['x-orch-list-map-keys'] = s.xListMapKeys;
  }
  if (s.properties !== undefined || embedded) {
    const props: Record<string, SchemaNode> = {};
    for (const [k, p] of s.properties ?? []) props[k] = node(p, p.xEmbeddedResource);
    if (embedded || s.xEmbeddedResource) {
      props.apiVersion = typeMetaString;
      props.kind = typeMetaString;
      props.metadata = ObjectMeta as unknown as SchemaNode;
    }
    out.properties = props;
  }
  if (s.additionalProperties !== undefined && (s.additionalProperties.bool || s.additionalProperties.structural)) {
    out.additionalProperties = s.additionalProperties.structural !== undefined ? node(s.additionalProperties.structural, s.additionalProperties.structural.xEmbeddedResource) : {};
  }
  if (s.xMapType !== undefined) out['x-orch-map-type'] = s.xMapType;
  return out;
}

/** The schema, with pkg/apply's markers, of a resource whose CRD version schema is `s` (undefined: a schema-less resource). */
export function applySchemaOf(s: Structural | undefined): SchemaNode {
  if (s === undefined) return { type: 'object', properties: { apiVersion: typeMetaString, kind: typeMetaString, metadata: ObjectMeta as unknown as SchemaNode }, 'x-orch-preserve-unknown-fields': true };
  return node(s, true);
}

/** The server-side apply type of a resource whose CRD version schema is `s`. */
export function applyTypeOf(s: Structural | undefined): TypeNode {
  return typeOfSchema(applySchemaOf(s));
}
