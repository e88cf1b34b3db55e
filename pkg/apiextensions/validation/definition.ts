// Rules of CustomResourceDefinition (upstream's ValidateCustomResourceDefinition, its Update and
// Status variants) that its declared schema cannot state. Upstream validates the internal form of
// a v1 definition, where a schema, sub-resources or printer columns shared by every version are
// hoisted to spec.validation, spec.subresources and spec.additionalPrinterColumns; errors name
// those paths here too, so clients see upstream's field names. An update is held only to the rules
// the stored definition already met (a schema stored before a rule existed stays editable).
import { X509Certificate } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { ApiDomain } from '../../../api/domain.js';
import type {
  CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionSpec, CustomResourceDefinitionVersion,
} from '../../../api/apiextensions/v1/custom-resource-definition.js';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import { forbidden, invalid, notSupported, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateReviewVersions, validateWebhookService, validateWebhookURL } from '../../registry/admissionregistration/webhook-configuration-validation.js';
import type { KindValidation } from '../../registry/validation/kind-validation.js';
import { validateImmutableField } from '../../registry/validation/immutable.js';
import { isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../../registry/validation/names.js';
import { compileValidationRules } from '../../cel/validation-rules.js';
import type { Schema as RulesSchema } from '../../cel/types.js';
import { isConditionTrue } from '../conditions.js';
import { schemaValidationOptionsFor, validateCustomResourceSchema, type SchemaValidationOptions } from '../schema/schema-write-validation.js';

type Column = NonNullable<CustomResourceDefinitionVersion['additionalPrinterColumns']>[number];
type Subresources = NonNullable<CustomResourceDefinitionVersion['subresources']>;
type Conversion = NonNullable<CustomResourceDefinitionSpec['conversion']>;

const printerColumnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const conversionReviewVersions = ['v1', 'v1beta1'];
/** Which rules apply: all of them on create; on update those the stored definition met. */
interface Options {
  requireOpenAPISchema: boolean;
  /** The schema rules an update keeps relaxed (schemaValidationOptionsFor); none on create. */
  schema: Omit<SchemaValidationOptions, 'statusSubresource'>;
  requireRecognizedConversionReviewVersion: boolean;
  allowInvalidCABundle: boolean;
}

const createOptions: Options = {
  requireOpenAPISchema: true,
  schema: {},
  requireRecognizedConversionReviewVersion: true,
  allowInvalidCABundle: true,
};

const spec = Path.root('spec');

/** The schema of a version, if it has one. */
const schemaOf = (v: CustomResourceDefinitionVersion): JSONSchemaProps | undefined => v.schema?.openAPIV3Schema as JSONSchemaProps | undefined;

/** Upstream's semantic equality: unset and empty lists alike. */
function semanticEqual(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown => (Array.isArray(v) && v.length === 0 ? undefined : v);
  return isDeepStrictEqual(norm(a) ?? null, norm(b) ?? null);
}

/** What upstream's conversion to the internal form hoists: a field equal in every version. */
function hoisted<T>(versions: readonly CustomResourceDefinitionVersion[], get: (v: CustomResourceDefinitionVersion) => T): { value: T } | undefined {
  if (versions.length === 0) return undefined;
  const first = get(versions[0]!);
  return versions.every((v) => semanticEqual(get(v), first)) ? { value: first } : undefined;
}

/** A definition is checked against what the stored one already met, as upstream's update options. */
function updateOptions(old: CustomResourceDefinition): Options {
  const oldSchemas = (old.spec?.versions ?? []).map(schemaOf);
  const conversion = old.spec?.conversion;
  return {
    requireOpenAPISchema: oldSchemas.every((s) => s !== undefined),
    schema: schemaValidationOptionsFor(oldSchemas),
    requireRecognizedConversionReviewVersion: !conversion?.webhook?.conversionReviewVersions?.length
      || conversion.webhook.conversionReviewVersions.some((v) => conversionReviewVersions.includes(v)),
    allowInvalidCABundle: !isConditionTrue(old, 'Established') || caBundleProblem(conversion?.webhook?.clientConfig?.caBundle) !== undefined,
  };
}

/** Why a PEM bundle holds no certificate, or undefined when it does. */
function caBundleProblem(bundle: string | undefined): string | undefined {
  if (!bundle) return undefined;
  const pem = Buffer.from(bundle, 'base64').toString('utf8');
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  try {
    if (blocks.length === 0) return 'data does not contain any valid RSA or ECDSA certificates';
    for (const b of blocks) new X509Certificate(b);
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

/** The CustomResourceDefinition rules of the platform `domain` (its protected groups need an approval annotation). */
export function customResourceDefinitionValidation(domain: ApiDomain): KindValidation<CustomResourceDefinition> {
  return {
    name: nameIsDNSSubdomain,
    validate: (crd) => validateDefinition(crd, domain, createOptions, undefined),
    validateUpdate: (crd, old) => [
      ...validateDefinition(crd, domain, updateOptions(old), old),
      ...validateImmutableField(crd.spec?.group, old.spec?.group, spec.child('group')),
      ...validateImmutableField(crd.spec?.names?.plural, old.spec?.names?.plural, spec.child('names', 'plural')),
      ...(isConditionTrue(old, 'Established') ? [
        ...validateImmutableField(crd.spec?.scope, old.spec?.scope, spec.child('scope')),
        ...validateImmutableField(crd.spec?.names?.kind, old.spec?.names?.kind, spec.child('names', 'kind')),
      ] : []),
    ],
    validateStatusUpdate: (crd) => validateNames(crd.status?.acceptedNames, Path.root('status').child('acceptedNames')),
  };
}

function validateDefinition(crd: CustomResourceDefinition, domain: ApiDomain, opts: Options, old: CustomResourceDefinition | undefined): FieldError[] {
  const s = (crd.spec ?? {}) as Partial<CustomResourceDefinitionSpec>;
  const errs: FieldError[] = [];
  const name = crd.metadata?.name;
  if (name && name !== `${s.names?.plural ?? ''}.${s.group ?? ''}`) errs.push(invalid(Path.root('metadata').child('name'), name, 'must be spec.names.plural+"."+spec.group'));
  errs.push(...validateSpec(s, opts));
  errs.push(...validateNames(crd.status?.acceptedNames, Path.root('status').child('acceptedNames')));
  errs.push(...validateStoredVersions(crd.status?.storedVersions ?? [], s.versions ?? []));
  errs.push(...validateApproval(crd, old, domain));
  if (s.preserveUnknownFields === true && old?.spec?.preserveUnknownFields !== true) {
    errs.push(invalid(spec.child('preserveUnknownFields'), true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  return errs;
}

function validateSpec(s: Partial<CustomResourceDefinitionSpec>, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const versions = s.versions ?? [];
  if (!s.group) errs.push(required(spec.child('group')));
  else {
    const groupErrs = isDNS1123Subdomain(s.group);
    if (groupErrs.length > 0) errs.push(invalid(spec.child('group'), s.group, groupErrs.join(',')));
    else if (s.group.split('.').length < 2) errs.push(invalid(spec.child('group'), s.group, 'should be a domain with at least one dot'));
  }
  const schemaAt = hoisted(versions, schemaOf);
  const subresourcesAt = hoisted(versions, (v) => v.subresources);
  const columnsAt = hoisted(versions, (v) => v.additionalPrinterColumns);
  const topSchema = schemaAt?.value;
  if (opts.requireOpenAPISchema && !topSchema) {
    versions.forEach((v, i) => {
      if (!schemaOf(v)) errs.push(required(spec.child('versions').index(i).child('schema', 'openAPIV3Schema')));
    });
  }
  const hasStatus = (sub: Subresources | undefined) => sub?.status !== undefined;
  const anyStatus = versions.some((v) => hasStatus(v.subresources));
  let storageCount = 0;
  const names = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const at = spec.child('versions').index(i);
    if (v.storage) storageCount++;
    if (names.has(v.name)) unique = false;
    names.add(v.name);
    const nameErrs = isDNS1035Label(v.name ?? '');
    if (nameErrs.length > 0) errs.push(invalid(at.child('name'), v.name ?? '', nameErrs.join(',')));
    errs.push(...validateDeprecation(v, at));
    if (!schemaAt) errs.push(...validateVersionSchema(schemaOf(v), hasStatus(v.subresources), opts, at.child('schema')));
    if (!subresourcesAt) errs.push(...validateSubresources(v.subresources, at.child('subresources')));
    if (!columnsAt) (v.additionalPrinterColumns ?? []).forEach((c, j) => errs.push(...validateColumn(c, at.child('additionalPrinterColumns').index(j))));
  });
  if (!unique) errs.push(invalid(spec.child('versions'), versions, 'must contain unique version names'));
  if (storageCount !== 1) errs.push(invalid(spec.child('versions'), versions, 'must have exactly one version marked as storage version'));
  const n = s.names;
  for (const f of ['plural', 'singular', 'kind', 'listKind'] as const) if (!n?.[f]) errs.push(required(spec.child('names', f)));
  errs.push(...validateNames(n, spec.child('names')));
  if (schemaAt) errs.push(...validateVersionSchema(topSchema, anyStatus, opts, spec.child('validation')));
  if (subresourcesAt) errs.push(...validateSubresources(subresourcesAt.value, spec.child('subresources')));
  if (columnsAt) (columnsAt.value ?? []).forEach((c, j) => errs.push(...validateColumn(c, spec.child('additionalPrinterColumns').index(j))));
  errs.push(...validateConversion(s.conversion, s.preserveUnknownFields === true, opts));
  return errs;
}

function validateDeprecation(v: CustomResourceDefinitionVersion, at: Path): FieldError[] {
  const w = v.deprecationWarning;
  if (w === undefined) return [];
  const p = at.child('deprecationWarning');
  if (!v.deprecated) return [invalid(p, w, 'can only be set for deprecated versions')];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(w) > 256) errs.push(invalid(p, w, 'must be <= 256 characters long'));
  if (w.length === 0) errs.push(invalid(p, w, 'must not be an empty string'));
  let i = 0;
  for (const ch of w) {
    if (/\p{Cc}/u.test(ch)) {
      errs.push(invalid(p, w, `must only contain printable UTF-8 characters; control character found at index ${i}`));
      break;
    }
    if (!/[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(ch)) {
      errs.push(invalid(p, w, `must only contain printable UTF-8 characters; non-printable character found at index ${i}`));
      break;
    }
    i += Buffer.byteLength(ch);
  }
  return errs;
}

/** Names as spec.names and status.acceptedNames carry them. */
export function validateNames(n: Partial<CustomResourceDefinitionNames> | undefined, at: Path): FieldError[] {
  if (!n) return [];
  const errs: FieldError[] = [];
  const label = (value: string | undefined, field: string, mixedCase: boolean) => {
    if (!value) return;
    const problems = isDNS1035Label(mixedCase ? value.toLowerCase() : value);
    if (problems.length > 0) errs.push(invalid(at.child(field), value, `${mixedCase ? 'may have mixed case, but should otherwise match: ' : ''}${problems.join(',')}`));
  };
  label(n.plural, 'plural', false);
  label(n.singular, 'singular', false);
  label(n.kind, 'kind', true);
  label(n.listKind, 'listKind', true);
  (n.shortNames ?? []).forEach((s, i) => {
    const problems = isDNS1035Label(s);
    if (problems.length > 0) errs.push(invalid(at.child('shortNames').index(i), s, problems.join(',')));
  });
  if (n.kind && n.kind === n.listKind) errs.push(invalid(at.child('listKind'), n.listKind, 'kind and listKind may not be the same'));
  (n.categories ?? []).forEach((c, i) => {
    const problems = isDNS1035Label(c);
    if (problems.length > 0) errs.push(invalid(at.child('categories').index(i), c, problems.join(',')));
  });
  return errs;
}

function validateStoredVersions(stored: readonly string[], versions: readonly CustomResourceDefinitionVersion[]): FieldError[] {
  const at = Path.root('status').child('storedVersions');
  if (stored.length === 0) return [invalid(at, stored, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    if (v.storage && !remaining.has(v.name)) errs.push(invalid(at, stored, `must have the storage version ${v.name}`));
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining) {
    errs.push(invalid(at.index(i), v, `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`));
  }
  return errs;
}

/** Groups of the platform's own domain need an approval annotation, as upstream's k8s.io and kubernetes.io groups do. */
function validateApproval(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined, domain: ApiDomain): FieldError[] {
  const group = crd.spec?.group ?? '';
  const protectedGroup = [domain.name, domain.keyDomain].some((d) => group === d || group.endsWith(`.${d}`));
  if (!protectedGroup) return [];
  const key = `api-approved.${domain.keyDomain}`;
  const state = (annotations: Record<string, string> | undefined) => {
    const value = annotations?.[key] ?? '';
    if (value === '') return 'missing';
    if (value.startsWith('unapproved')) return 'bypassed';
    try {
      const u = new URL(value);
      if (u.host && u.protocol) return 'approved';
    } catch { /* not a URL */ }
    return 'invalid';
  };
  const now = state(crd.metadata?.annotations);
  if (old && state(old.metadata?.annotations) === now) return [];
  const at = Path.root('metadata').child('annotations').key(key);
  if (now === 'missing') return [required(at, `protected groups must have approval annotation ${JSON.stringify(key)}, see https://github.com/kubernetes/enhancements/pull/1111`)];
  if (now === 'invalid') {
    return [invalid(at, crd.metadata?.annotations?.[key] ?? '', `protected groups must have approval annotation ${JSON.stringify(key)} with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`)];
  }
  return [];
}

/** A version's (or the hoisted) openAPIV3Schema: the schema's rules, then its CEL rules once the schema itself is sound. */
function validateVersionSchema(schema: JSONSchemaProps | undefined, statusSubresource: boolean, opts: Options, at: Path): FieldError[] {
  if (!schema) return [];
  const errs = validateCustomResourceSchema(at, schema, { ...opts.schema, statusSubresource });
  if (errs.length > 0) return errs;
  return compileValidationRules(schema as RulesSchema, String(at.child('openAPIV3Schema')));
}

function validateSubresources(sub: Subresources | undefined, at: Path): FieldError[] {
  const scale = sub?.scale;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const check = (value: string | undefined, field: string, prefixes: string[], under: string) => {
    const p = at.child(`scale.${field}`);
    if (!value) {
      if (field !== 'labelSelectorPath') errs.push(required(p));
      return;
    }
    const pathErrs = validateSimpleJSONPath(value, p);
    if (pathErrs.length > 0) errs.push(...pathErrs);
    else if (!prefixes.some((x) => value.startsWith(x))) errs.push(invalid(p, value, `should be a json path under ${under}`));
  };
  check(scale.specReplicasPath, 'specReplicasPath', ['.spec.'], '.spec');
  check(scale.statusReplicasPath, 'statusReplicasPath', ['.status.'], '.status');
  check(scale.labelSelectorPath, 'labelSelectorPath', ['.spec.', '.status.'], 'either .spec or .status');
  return errs;
}

function validateSimpleJSONPath(s: string, at: Path): FieldError[] {
  if (s.length === 0) return [invalid(at, s, 'must not be empty')];
  if (!s.startsWith('.')) return [invalid(at, s, 'must be a simple json path starting with .')];
  return [];
}

function validateColumn(c: Partial<Column>, at: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(required(at.child('name')));
  if (!c.type) errs.push(required(at.child('type'), `must be one of ${printerColumnTypes.join(',')}`));
  else if (!printerColumnTypes.includes(c.type)) errs.push(invalid(at.child('type'), c.type, `must be one of ${printerColumnTypes.join(',')}`));
  if (c.format && !columnFormats.includes(c.format)) errs.push(invalid(at.child('format'), c.format, `must be one of ${columnFormats.join(',')}`));
  if (!c.jsonPath) errs.push(required(at.child('JSONPath')));
  else errs.push(...validateSimpleJSONPath(c.jsonPath, at.child('JSONPath')));
  return errs;
}

/** Conversion settings, at upstream's internal paths (spec.conversion.webhookClientConfig, .conversionReviewVersions). */
function validateConversion(c: Conversion | undefined, preserveUnknownFields: boolean, opts: Options): FieldError[] {
  if (!c) return [];
  const at = spec.child('conversion');
  const errs: FieldError[] = [];
  if (c.strategy !== 'None' && preserveUnknownFields) errs.push(invalid(at.child('strategy'), c.strategy, 'must be None if spec.preserveUnknownFields is true'));
  if (!c.strategy) errs.push(required(at.child('strategy')));
  else if (c.strategy !== 'None' && c.strategy !== 'Webhook') errs.push(notSupported(at.child('strategy'), c.strategy, ['None', 'Webhook']));
  const cc = c.webhook?.clientConfig;
  const versions = c.webhook?.conversionReviewVersions;
  if (c.strategy === 'Webhook') {
    const ccAt = at.child('webhookClientConfig');
    if (!cc) errs.push(required(ccAt, 'required when strategy is set to Webhook'));
    else {
      if ((cc.url === undefined) === (cc.service === undefined)) errs.push(required(ccAt, 'exactly one of url or service is required'));
      else if (cc.url !== undefined) errs.push(...validateWebhookURL(cc.url, ccAt.child('url')));
      else if (cc.service) errs.push(...validateWebhookService({ ...cc.service, port: cc.service.port ?? 443 }, ccAt.child('service')));
      const problem = opts.allowInvalidCABundle ? undefined : caBundleProblem(cc.caBundle);
      if (problem) errs.push(invalid(ccAt.child('caBundle'), cc.caBundle, problem));
    }
    errs.push(...validateReviewVersions(versions, conversionReviewVersions, opts.requireRecognizedConversionReviewVersion, at.child('conversionReviewVersions'), ''));
  } else {
    if (cc) errs.push(forbidden(at.child('webhookClientConfig'), 'should not be set when strategy is not set to Webhook'));
    if ((versions ?? []).length > 0) errs.push(forbidden(at.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}
