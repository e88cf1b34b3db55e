// The DeleteOptions of a delete or deletecollection, read as upstream's handler reads them: from a
// body in any media type a write accepts (JSON, YAML, protobuf), decoded as the meta group's
// options whatever group the body names; else from the query. The body, when there is one, is
// all: upstream reads the query's options only without it.
import type { ApiDomain } from '../../api/domain.js';
import { DeleteOptions as DeleteOptionsSchema, type DeleteOptions } from '../../api/meta/v1/types.js';
import { parseBody } from '../runtime/decoder.js';
import { newBadRequest, newInvalid } from '../runtime/errors.js';
import { GoStrings, invalid, notSupported, type FieldError } from '../runtime/field-errors.js';
import { findNumberProblem } from '../runtime/number-check.js';
import { decodeEnvelope } from '../runtime/protobuf/envelope.js';
import { ProtobufDecodeError } from '../runtime/protobuf/errors.js';
import { pruneUnknownFields } from '../runtime/prune.js';
import type { SchemaValidator } from '../runtime/schema-validator.js';
import { bodyFormat } from './negotiation.js';
import type { Query } from './query.js';
import { parseGroupVersion, readTypeMeta } from './type-meta.js';

/** Decodes the raw bytes of a protobuf envelope as a message of a schema (the protobuf codec). */
export interface MessageDecoder {
  decodeMessage(schema: object, kind: string, raw: Uint8Array): Record<string, unknown>;
}

export interface DeleteOptionsBody {
  options: DeleteOptions;
  /** The group/version the body was read in (its own, or the meta group's when it named none), for the audit. */
  apiVersion: string;
}

const KIND = 'DeleteOptions';

/**
 * The other kinds upstream's meta scheme knows, by the Go type a body of that kind decodes to
 * before it fails to convert to DeleteOptions: some under any group (as DeleteOptions itself is),
 * the rest only in the meta group's v1 (and v1beta1 for Tables and metadata).
 */
const anyGroupKinds = new Set(['CreateOptions', 'UpdateOptions', 'Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);
const metaKinds: Record<string, readonly string[]> = {
  v1: ['WatchEvent', 'ListOptions', 'GetOptions', 'PatchOptions', 'Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList'],
  v1beta1: ['Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList'],
};

function joinGroupVersion(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/**
 * The group/version a body of kind DeleteOptions names, defaulted as upstream's decoders default
 * it (the meta group's v1 when it names none; a protobuf envelope's version-less group too); a
 * body of another kind is refused as upstream refuses it. `shown` is the body as a missing version
 * reports it.
 */
function bodyGroupVersion(apiVersion: string, kind: string, domain: ApiDomain, protobuf: boolean, shown: () => string): string {
  const meta = { group: domain.metaGroup, version: 'v1' };
  let gv = parseGroupVersion(apiVersion);
  if (gv.version === '' && (protobuf || gv.group === '' || gv.group === meta.group)) gv = meta;
  if (gv.version === '') throw newBadRequest(`Object 'apiVersion' is missing in '${shown()}'`);
  const decoded = joinGroupVersion(gv.group, gv.version);
  const k = kind || KIND;
  if (k === KIND) return decoded;
  const inMetaGroup = gv.group === meta.group || gv.group === 'meta.k8s.io';
  if (anyGroupKinds.has(k) || (inMetaGroup && metaKinds[gv.version]?.includes(k))) {
    throw newBadRequest(`converting (v1.${k}) to (v1.DeleteOptions): unknown conversion`);
  }
  throw newBadRequest(`no kind ${JSON.stringify(k)} is registered for version ${JSON.stringify(decoded)}`);
}

/**
 * Decodes a DeleteOptions body by its Content-Type. JSON and YAML bodies may name any group and
 * version (the legacy `v1`, the resource's own group, the meta group), protobuf ones in their
 * envelope; unknown fields are ignored, as upstream's non-strict decoder ignores them. Malformed
 * bodies and other kinds are 400, a media type no write accepts 415.
 */
export function decodeDeleteOptionsBody(
  raw: Buffer, contentType: string | undefined, domain: ApiDomain, schemas: SchemaValidator, protobuf: MessageDecoder,
): DeleteOptionsBody {
  const format = bodyFormat(contentType, domain);
  let data: Record<string, unknown>;
  let apiVersion: string;
  if (format === 'protobuf') {
    try {
      const envelope = decodeEnvelope(raw);
      apiVersion = bodyGroupVersion(envelope.apiVersion, envelope.kind, domain, true, () => '');
      data = protobuf.decodeMessage(DeleteOptionsSchema, KIND, envelope.raw);
    } catch (e) {
      if (e instanceof ProtobufDecodeError) throw newBadRequest(e.message);
      throw e;
    }
  } else {
    const parsed = parseBody(raw, format, false);
    // A JSON null decodes to nothing: empty options.
    const value = parsed.value ?? {};
    const typeMeta = readTypeMeta(value, newBadRequest);
    apiVersion = bodyGroupVersion(typeMeta.apiVersion, typeMeta.kind, domain, false, () => raw.toString('utf8'));
    const { apiVersion: _apiVersion, kind: _kind, ...fields } = value as Record<string, unknown>;
    data = fields;
    pruneUnknownFields(DeleteOptionsSchema, data);
    const numberProblem = findNumberProblem(DeleteOptionsSchema, data, parsed.numbers);
    if (numberProblem) throw newBadRequest(numberProblem);
  }
  const { decodeErrors } = schemas.check(DeleteOptionsSchema, data);
  if (decodeErrors.length > 0) throw newBadRequest(`DeleteOptions cannot be decoded: ${decodeErrors.join('; ')}`);
  return { options: data as DeleteOptions, apiVersion };
}

/**
 * DeleteOptions from the query, converted as upstream's parameter codec converts them:
 * gracePeriodSeconds, orphanDependents, propagationPolicy, dryRun, and `uid` and
 * `resourceVersion` as preconditions. A malformed integer is a 400.
 */
export function deleteOptionsFromQuery(q: Query): DeleteOptions {
  const options: DeleteOptions = {};
  const grace = q.int('gracePeriodSeconds');
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  if (q.has('orphanDependents')) options.orphanDependents = q.bool('orphanDependents');
  const policy = q.str('propagationPolicy');
  if (policy !== undefined) options.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
  const dryRun = q.all('dryRun');
  if (dryRun.length > 0) options.dryRun = dryRun;
  const uid = q.str('uid');
  const resourceVersion = q.str('resourceVersion');
  if (uid || resourceVersion) options.preconditions = { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) };
  return options;
}

/** Upstream's ValidateDeleteOptions: the causes of a 422 on DeleteOptions. */
export function validateDeleteOptions(o: DeleteOptions): FieldError[] {
  const errs: FieldError[] = [];
  const policy = o.propagationPolicy as string | undefined;
  if (o.orphanDependents !== undefined && policy !== undefined) {
    errs.push(invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (policy !== undefined && policy !== 'Foreground' && policy !== 'Background' && policy !== 'Orphan') {
    errs.push(notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  if (o.dryRun?.some((v) => v !== 'All')) errs.push(notSupported('dryRun', new GoStrings(o.dryRun), ['All']));
  return errs;
}

/** Throws upstream's 422 when the options do not validate. */
export function checkDeleteOptions(o: DeleteOptions, domain: ApiDomain): void {
  const errs = validateDeleteOptions(o);
  if (errs.length > 0) throw newInvalid(KIND, domain.metaGroup, '', errs);
}
