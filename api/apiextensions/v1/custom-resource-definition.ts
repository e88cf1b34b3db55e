// apiextensions.<domain>/v1 CustomResourceDefinition: a kind registered at run time, served by the
// same machinery as the built-in kinds with the definition's schema in place of a declared one.
// Field numbers follow upstream apiextensions-apiserver's generated.proto.
//
// An openAPIV3Schema (upstream's recursive JSONSchemaProps) is declared here as a free-form value:
// every walker of our schemas (pruning, wire shape, apply, protobuf) takes schemas without cycles,
// so json-schema-props.ts reads, type-checks and prunes it by hand when a definition is decoded.
import type { Static } from '@sinclair/typebox';
import { bool, bytes, enumOf, field, int32, list, object, opt, raw, str, stringList } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { time } from '../../meta/v1/primitives.js';

const P = 'io.orch.apiextensions-apiserver.pkg.apis.apiextensions.v1';

export const ServiceReference = object(`${P}.ServiceReference`, {
  namespace: str(1, { description: 'Namespace of the service.' }),
  name: str(2, { description: 'Name of the service.' }),
  path: opt(str(3, { 'x-orch-emit': 'pointer', description: 'URL path the server sends requests to on the service.' })),
  port: opt(int32(4, { 'x-orch-emit': 'pointer', description: 'Port of the service; 443 by default. Must be 1 to 65535.' })),
}, { required: ['namespace', 'name'], description: 'A Service through which a conversion webhook is reached.' });

export const WebhookClientConfig = object(`${P}.WebhookClientConfig`, {
  url: opt(str(3, {
    'x-orch-emit': 'pointer',
    description: 'Where the webhook is, as https://host[:port]/path; no user, query or fragment. Exactly one of url and service is set.',
  })),
  service: opt(field(1, ServiceReference, { description: 'The Service in front of the webhook. Exactly one of url and service is set.' })),
  caBundle: opt(bytes(2, { description: 'PEM certificates that verify the webhook\'s serving certificate; the system trust roots when empty.' })),
}, { description: 'How the server reaches a webhook over TLS.' });

export const WebhookConversion = object(`${P}.WebhookConversion`, {
  clientConfig: opt(field(2, WebhookClientConfig, { description: 'How to call the conversion webhook. Required for the Webhook strategy.' })),
  conversionReviewVersions: stringList(3, { listType: 'atomic' }, {
    description: 'ConversionReview versions the webhook understands, in order of preference; the server sends the first it knows (v1, v1beta1).',
  }),
}, { required: ['conversionReviewVersions'], description: 'The webhook that converts custom resources between versions.' });

export const CustomResourceConversion = object(`${P}.CustomResourceConversion`, {
  strategy: enumOf(1, ['None', 'Webhook'] as const, {
    description: 'How objects are converted between versions: None changes only apiVersion; Webhook calls a conversion webhook.',
  }),
  webhook: opt(field(2, WebhookConversion, { description: 'The conversion webhook; required when strategy is Webhook.' })),
}, { required: ['strategy'], description: 'How custom resources are converted between the served versions.' });

export const CustomResourceDefinitionNames = object(`${P}.CustomResourceDefinitionNames`, {
  plural: str(1, { description: 'Plural lower-case resource name served at /apis/<group>/<version>/<plural>; also the first part of the definition\'s name.' }),
  singular: opt(str(2, { description: 'Singular lower-case name; defaults to the lower-cased kind.' })),
  shortNames: opt(stringList(3, { listType: 'atomic' }, { description: 'Short lower-case names clients accept for the resource (kubectl get <shortname>).' })),
  kind: str(4, { description: 'CamelCase kind of the objects, as in their kind field.' }),
  listKind: opt(str(5, { description: 'CamelCase kind of lists of the objects; defaults to <kind>List.' })),
  categories: opt(stringList(6, { listType: 'atomic' }, { description: 'Groups of resources this one belongs to, such as all (kubectl get all).' })),
}, { required: ['plural', 'kind'], description: 'The names by which a custom resource is served and spoken of.' });
export type CustomResourceDefinitionNames = Static<typeof CustomResourceDefinitionNames>;

export const CustomResourceValidation = object(`${P}.CustomResourceValidation`, {
  openAPIV3Schema: opt(raw(1, {
    description: 'The OpenAPI v3 schema objects of this version must fit: structural, as upstream defines it (types everywhere, value validations only in allOf, anyOf, oneOf and not).',
  })),
}, { description: 'The schema of one version of a custom resource.' });

export const CustomResourceSubresourceStatus = object(`${P}.CustomResourceSubresourceStatus`, {}, {
  description: 'Turns on the status sub-resource: writes to the resource ignore status, writes to /status change only status.',
});

export const CustomResourceSubresourceScale = object(`${P}.CustomResourceSubresourceScale`, {
  specReplicasPath: str(1, { description: 'JSON path (dot notation under .spec) of the desired replica count a Scale\'s spec.replicas reads and writes.' }),
  statusReplicasPath: str(2, { description: 'JSON path (dot notation under .status) of the observed replica count a Scale\'s status.replicas reads.' }),
  labelSelectorPath: opt(str(3, {
    'x-orch-emit': 'pointer',
    description: 'JSON path (dot notation under .spec or .status) of the label selector, in string form, a Scale\'s status.selector reads.',
  })),
}, { required: ['specReplicasPath', 'statusReplicasPath'], description: 'Turns on the scale sub-resource and says where its replica counts live.' });

export const CustomResourceSubresources = object(`${P}.CustomResourceSubresources`, {
  status: opt(field(1, CustomResourceSubresourceStatus, { description: 'Serve the status sub-resource.' })),
  scale: opt(field(2, CustomResourceSubresourceScale, { description: 'Serve the scale sub-resource.' })),
}, { description: 'The sub-resources served for a version of a custom resource.' });

export const CustomResourceColumnDefinition = object(`${P}.CustomResourceColumnDefinition`, {
  name: str(1, { description: 'Human-readable name of the column.' }),
  type: str(2, { description: 'OpenAPI type of the cells: integer, number, string, boolean or date.' }),
  format: opt(str(3, { description: 'OpenAPI format of the cells, such as name or date-time.' })),
  description: opt(str(4, { description: 'Human-readable description of the column.' })),
  priority: opt(int32(5, { description: 'Importance of the column: 0 is always shown, higher ones only with more detail (kubectl -o wide).' })),
  jsonPath: str(6, { description: 'Simple JSON path (dot notation) of the value each row shows, evaluated against the object.' }),
}, { required: ['name', 'type', 'jsonPath'], description: 'A column of the Table a custom resource is listed as.' });

export const SelectableField = object(`${P}.SelectableField`, {
  jsonPath: str(1, { description: 'Simple JSON path (dot notation) of a string, integer or boolean field field selectors may name.' }),
}, { required: ['jsonPath'], description: 'A field of a custom resource that field selectors may use.' });

export const CustomResourceDefinitionVersion = object(`${P}.CustomResourceDefinitionVersion`, {
  name: str(1, { description: 'Version name, served at /apis/<group>/<version>/...; a DNS label such as v1 or v2beta1.' }),
  served: bool(2, { 'x-orch-emit': 'always', description: 'Whether the version is served through the REST API.' }),
  storage: bool(3, { 'x-orch-emit': 'always', description: 'Whether objects are stored in this version; exactly one version has it.' }),
  deprecated: opt(bool(7, { description: 'Marks the version deprecated: requests to it get a warning.' })),
  deprecationWarning: opt(str(8, { 'x-orch-emit': 'pointer', description: 'The warning requests to a deprecated version get, instead of the default one.' })),
  schema: opt(field(4, CustomResourceValidation, { description: 'The schema objects of this version are validated, pruned and defaulted with.' })),
  subresources: opt(field(5, CustomResourceSubresources, { description: 'The sub-resources this version serves.' })),
  additionalPrinterColumns: opt(list(6, CustomResourceColumnDefinition, { listType: 'atomic' }, {
    description: 'Columns of the Table this version is listed as, after the name; an Age column when none are given.',
  })),
  selectableFields: opt(list(9, SelectableField, { listType: 'atomic' }, { description: 'Fields beyond metadata.name and metadata.namespace field selectors may name.' })),
}, { required: ['name', 'served', 'storage'], description: 'One version of a custom resource.' });
export type CustomResourceDefinitionVersion = Static<typeof CustomResourceDefinitionVersion>;

export const CustomResourceDefinitionSpec = object(`${P}.CustomResourceDefinitionSpec`, {
  group: str(1, { description: 'API group of the resource, a DNS subdomain with at least one dot; the last part of the definition\'s name.' }),
  names: field(3, CustomResourceDefinitionNames, { description: 'The names of the resource and its kind.' }),
  scope: enumOf(4, ['Cluster', 'Namespaced'] as const, { description: 'Whether objects live in a namespace (Namespaced) or in the cluster (Cluster).' }),
  versions: list(7, CustomResourceDefinitionVersion, { listType: 'atomic' }, {
    description: 'The versions of the resource; exactly one is the storage version. Clients see them ordered by version priority.',
  }),
  conversion: opt(field(9, CustomResourceConversion, { description: 'How objects are converted between versions; None by default.' })),
  preserveUnknownFields: opt(bool(10, {
    description: 'Deprecated: keep unknown fields; may only be false. Use x-kubernetes-preserve-unknown-fields in the schema instead.',
  })),
}, { required: ['group', 'names', 'scope', 'versions'], description: 'The resource a CustomResourceDefinition registers.' });
export type CustomResourceDefinitionSpec = Static<typeof CustomResourceDefinitionSpec>;

export const CustomResourceDefinitionCondition = object(`${P}.CustomResourceDefinitionCondition`, {
  type: str(1, { description: 'Type of the condition: NamesAccepted, Established, Terminating and the like.' }),
  status: str(2, { description: 'Whether the condition holds: True, False or Unknown.' }),
  lastTransitionTime: opt(time(3, { 'x-orch-emit': 'pointer', description: 'When the status last changed from one value to another.' })),
  reason: opt(str(4, { description: 'Machine-readable CamelCase reason for the last transition.' })),
  message: opt(str(5, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of a CustomResourceDefinition.' });
export type CustomResourceDefinitionCondition = Static<typeof CustomResourceDefinitionCondition>;

export const CustomResourceDefinitionStatus = object(`${P}.CustomResourceDefinitionStatus`, {
  conditions: opt(list(1, CustomResourceDefinitionCondition, { listType: 'map', mapKeys: ['type'] }, {
    description: 'The observed state of the definition: NamesAccepted, Established and, once deleted, Terminating.',
  })),
  acceptedNames: opt(field(2, CustomResourceDefinitionNames, {
    'x-orch-emit': 'always',
    description: 'The names actually served; they differ from spec.names when a requested name is already in use in the group.',
  })),
  storedVersions: opt(stringList(3, { listType: 'atomic' }, {
    description: 'Every version objects were ever stored in; a version leaves it only once a storage migration moved its objects.',
  })),
}, { description: 'The observed state of a CustomResourceDefinition.' });
export type CustomResourceDefinitionStatus = Static<typeof CustomResourceDefinitionStatus>;

export const CustomResourceDefinition = topLevel(`${P}.CustomResourceDefinition`, {
  spec: field(2, CustomResourceDefinitionSpec, { 'x-orch-emit': 'always', description: 'The resource the definition registers.' }),
  status: opt(field(3, CustomResourceDefinitionStatus, { 'x-orch-emit': 'always', description: 'The observed state of the definition.' })),
}, {
  required: ['spec'],
  description: 'Registers a custom resource: its group, names, scope, versions and schemas. Its name is <plural>.<group>.',
});
export type CustomResourceDefinition = Static<typeof CustomResourceDefinition>;
