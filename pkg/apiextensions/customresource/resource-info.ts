// The scheme entries a CustomResourceDefinition registers: one per served version, named by its
// accepted names (status.acceptedNames, as upstream serves them), with the version's schema,
// sub-resources, printer columns and deprecation warning. The storage version's entry exists even
// when the version is not served: the definition's objects are deleted through it.
import type { ApiDomain } from '../../../api/domain.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../../../api/apiextensions/v1/custom-resource-definition.js';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import { scaleKind } from '../../../api/autoscaling/v1/scale.js';
import type { KindRegistration, Subresource } from '../../../api/registration.js';
import { resourceInfoOf, type ResourceInfo } from '../../runtime/scheme.js';
import { compareKubeAwareVersions, versionStability } from '../../util/kube-version.js';
import { isConditionTrue } from '../conditions.js';
import { CustomResourceSchema } from '../schema/custom-resource-schema.js';
import { customResourceSchemas, definitionName } from './internal-schema.js';
import { printerColumnsOf } from './printer-columns.js';
import { customResourceScale, type CustomResourceScale } from './scale.js';

/** Upstream's verbs of a custom resource, in its discovery order. */
const verbs = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

export interface CustomResourceVersion {
  info: ResourceInfo;
  scale: CustomResourceScale | undefined;
}

export interface CustomResourceVersions {
  /** The served versions. */
  served: CustomResourceVersion[];
  /** The storage version, served or not. */
  storage: CustomResourceVersion;
}

/** Whether a definition's resources are served: names accepted (or established before), and every accepted name set. */
export function servable(crd: CustomResourceDefinition): boolean {
  const n = crd.status?.acceptedNames;
  if (!n?.plural || !n.singular || !n.kind || !n.listKind) return false;
  return isConditionTrue(crd, 'NamesAccepted') || isConditionTrue(crd, 'Established');
}

/** The warning requests to a deprecated version get (upstream's defaultDeprecationWarning unless the version says its own). */
function deprecationWarning(crd: CustomResourceDefinition, v: CustomResourceDefinitionVersion): string[] {
  if (!v.deprecated) return [];
  if (v.deprecationWarning !== undefined) return [v.deprecationWarning];
  const { group, names } = crd.spec;
  let msg = `${group}/${v.name} ${names.kind} is deprecated`;
  const newer = crd.spec.versions
    .filter((x) => x.served && !x.deprecated && compareKubeAwareVersions(x.name, v.name) < 0)
    .sort((a, b) => compareKubeAwareVersions(a.name, b.name))[0];
  if (newer) msg += `; use ${group}/${newer.name} ${names.kind}`;
  return [msg];
}

function versionOf(crd: CustomResourceDefinition, v: CustomResourceDefinitionVersion, domain: ApiDomain): CustomResourceVersion {
  const names = crd.status!.acceptedNames!;
  const { group } = crd.spec;
  const storage = crd.spec.versions.find((x) => x.storage)!;
  const schema = v.schema?.openAPIV3Schema as JSONSchemaProps | undefined;
  const schemas = customResourceSchemas(schema, definitionName(group, v.name, names.kind));
  const sub = v.subresources;
  const scalePaths = sub?.scale;
  const scale = scalePaths ? customResourceScale(scalePaths) : undefined;
  const subresources: Subresource[] = [...(sub?.status ? ['status' as const] : []), ...(scale ? ['scale' as const] : [])];
  const registration: KindRegistration = {
    kind: names.kind,
    resource: names.plural,
    singular: names.singular ?? '',
    namespaced: crd.spec.scope === 'Namespaced',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    subresources,
    schema: schemas.internal,
    printerColumns: printerColumnsOf(v.additionalPrinterColumns),
    ...(scale ? { scale, subresourceKinds: { scale: scaleKind } } : {}),
    protobuf: false,
  };
  const info = resourceInfoOf({ group, version: v.name, stability: versionStability(v.name) }, registration, domain);
  info.listKind = names.listKind!;
  info.verbs = verbs;
  info.custom = {
    definition: crd.metadata?.name ?? '',
    uid: crd.metadata?.uid ?? '',
    schema: new CustomResourceSchema(schema),
    storageAPIVersion: `${group}/${storage.name}`,
    warnings: deprecationWarning(crd, v),
    terminating: crd.metadata?.deletionTimestamp !== undefined || isConditionTrue(crd, 'Terminating'),
    established: isConditionTrue(crd, 'Established'),
    openAPIV2Schema: schemas.openAPIV2,
    ...(scalePaths ? { scaleSpecReplicasPath: scalePaths.specReplicasPath } : {}),
  };
  return { info, scale };
}

/** The versions a servable definition registers; undefined when it is not servable. */
export function customResourceVersions(crd: CustomResourceDefinition, domain: ApiDomain): CustomResourceVersions | undefined {
  if (!servable(crd)) return undefined;
  const storageVersion = crd.spec.versions.find((v) => v.storage);
  if (!storageVersion) return undefined;
  const served = crd.spec.versions.filter((v) => v.served).map((v) => versionOf(crd, v, domain));
  const storage = served.find((s) => s.info.version === storageVersion.name) ?? versionOf(crd, storageVersion, domain);
  return { served, storage };
}
