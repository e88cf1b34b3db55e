// apiextensions.<domain>/v1: CustomResourceDefinitions, the kinds registered at run time.
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { CustomResourceDefinition } from './custom-resource-definition.js';
import { decodeDefinitionSchemas } from './json-schema-props.js';

/** The group of CustomResourceDefinitions, e.g. apiextensions.orch.io. */
export const apiextensionsGroup = (d: ApiDomain): string => d.group('apiextensions');

export const apiextensionsV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: apiextensionsGroup(d),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'CustomResourceDefinition', resource: 'customresourcedefinitions', singular: 'customresourcedefinition',
      namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'], subresources: ['status'],
      schema: CustomResourceDefinition,
      defaulter: defaultDefinition,
      decodeFreeForm: decodeDefinitionSchemas,
      // The openAPIV3Schema has no protobuf message here (see custom-resource-definition.ts).
      protobuf: false,
    }),
  ],
});

/** Upstream's v1 defaults: singular and listKind from the kind, None conversion, service port 443. */
function defaultDefinition(crd: CustomResourceDefinition): void {
  const spec = crd.spec as Partial<CustomResourceDefinition['spec']> | undefined;
  if (!spec) return;
  const names = spec.names;
  if (names) {
    if (!names.singular && typeof names.kind === 'string') names.singular = names.kind.toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service && service.port === undefined) service.port = 443;
  // Upstream's defaulting also fills status.storedVersions; the strategy sets them on every write.
}
