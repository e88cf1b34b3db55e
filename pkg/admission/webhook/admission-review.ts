// The AdmissionReview exchanged with a webhook (spec 2.10): the request built in the first
// version the webhook accepts (v1 or v1beta1, in the webhook's order), and its answer decoded and
// checked as upstream checks it. v1 answers must name admission.<domain>/v1 AdmissionReview and
// echo the request's uid; v1beta1 answers, as upstream, are checked for neither.
import { randomUUID } from 'node:crypto';
import type { ApiDomain } from '../../../api/domain.js';
import type { Attributes } from '../interfaces.js';
import type { WebhookInvocation } from './match.js';
import type { VersionedObjects } from './versioned-attributes.js';

export type ReviewVersion = 'v1' | 'v1beta1';

/** The AdmissionReview versions the server can send, in upstream's order of support. */
export const supportedReviewVersions: readonly ReviewVersion[] = ['v1', 'v1beta1'];

/** The first of the webhook's versions the server speaks, or undefined when none. */
export function negotiateReviewVersion(admissionReviewVersions: readonly string[] | undefined): ReviewVersion | undefined {
  return (admissionReviewVersions ?? []).find((v): v is ReviewVersion => (supportedReviewVersions as readonly string[]).includes(v));
}

export interface AdmissionRequestEnvelope {
  uid: string;
  version: ReviewVersion;
  /** The AdmissionReview to POST. */
  review: Record<string, unknown>;
}

/**
 * The AdmissionReview of the request for one webhook: kind and resource as the webhook is sent
 * them (converted under matchPolicy Equivalent), requestKind/requestResource as the client sent
 * them. Fields are in upstream's order and omitted where upstream's `omitempty` omits them.
 */
export function createAdmissionReview(domain: ApiDomain, version: ReviewVersion, attrs: Attributes, invocation: WebhookInvocation, versioned: VersionedObjects): AdmissionRequestEnvelope {
  const uid = randomUUID();
  const u = attrs.userInfo;
  const extra = Object.keys(u.extra ?? {}).length > 0 ? { extra: u.extra } : {};
  const request: Record<string, unknown> = {
    uid,
    kind: { group: invocation.kind.group, version: invocation.kind.version, kind: invocation.kind.kind },
    resource: { group: invocation.resource.group, version: invocation.resource.version, resource: invocation.resource.resource },
    ...(invocation.subresource ? { subResource: invocation.subresource } : {}),
    requestKind: { group: attrs.kind.group, version: attrs.kind.version, kind: attrs.kind.kind },
    requestResource: { group: attrs.resource.group, version: attrs.resource.version, resource: attrs.resource.resource },
    ...(attrs.subresource ? { requestSubResource: attrs.subresource } : {}),
    ...(attrs.name ? { name: attrs.name } : {}),
    ...(attrs.namespace ? { namespace: attrs.namespace } : {}),
    operation: attrs.operation,
    userInfo: { username: u.name, ...(u.uid ? { uid: u.uid } : {}), ...(u.groups.length ? { groups: u.groups } : {}), ...extra },
    object: versioned.object ?? null,
    oldObject: versioned.oldObject ?? null,
    dryRun: attrs.dryRun,
    options: attrs.operation === 'CONNECT' ? null : (attrs.options ?? null),
  };
  return { uid, version, review: { kind: 'AdmissionReview', apiVersion: `${domain.group('admission')}/${version}`, request } };
}

/** What the checks of an answer leave to act on (upstream's AdmissionResponse). */
export interface AdmissionResponse {
  allowed: boolean;
  /** The decoded JSON patch document, not yet parsed as operations; undefined when none. */
  patch?: Buffer;
  /** '' when no patch. */
  patchType: string;
  /** The webhook's Status, on a denial. */
  result?: WebhookStatus;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** The metav1.Status a webhook may return in response.status. */
export interface WebhookStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: Record<string, unknown>;
  code?: number;
}

/** A body that does not decode as an AdmissionReview; upstream reports it as a failed call. */
export class ReviewDecodeError extends Error {}

/** An AdmissionReview that decoded but fails upstream's checks. */
export class InvalidReviewError extends Error {}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's json decoding error for a field of the wrong type. */
function wrongType(field: string, v: unknown, want: string): ReviewDecodeError {
  const got = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;
  return new ReviewDecodeError(`json: cannot unmarshal ${got} into Go struct field ${field} of type ${want}`);
}

function optString(o: Record<string, unknown>, key: string, field: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw wrongType(field, v, 'string');
  return v;
}

function decodeStatus(v: unknown): WebhookStatus | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) throw wrongType('AdmissionResponse.response.status', v, 'v1.Status');
  const out: WebhookStatus = {};
  for (const k of ['status', 'message', 'reason'] as const) {
    const s = optString(v, k, `AdmissionResponse.response.status.${k}`);
    if (s !== undefined) out[k] = s;
  }
  if (v['code'] !== undefined && v['code'] !== null) {
    if (typeof v['code'] !== 'number' || !Number.isInteger(v['code'])) throw wrongType('AdmissionResponse.response.status.code', v['code'], 'int32');
    out.code = v['code'];
  }
  if (isObj(v['details'])) out.details = v['details'];
  return out;
}

interface DecodedReview {
  apiVersion: string;
  kind: string;
  response?: {
    uid: string;
    allowed: boolean;
    patch?: Buffer;
    patchType?: string;
    status?: WebhookStatus;
    warnings: string[];
    auditAnnotations: Record<string, string>;
  };
}

/** Decodes the answer's body as JSON into the AdmissionReview fields upstream reads; throws ReviewDecodeError. */
export function decodeAdmissionReview(body: string): DecodedReview {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch (e) {
    throw new ReviewDecodeError(`couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isObj(doc)) throw new ReviewDecodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(doc) ? 'array' : typeof doc} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  const apiVersion = optString(doc, 'apiVersion', 'AdmissionReview.apiVersion') ?? '';
  const kind = optString(doc, 'kind', 'AdmissionReview.kind') ?? '';
  const r = doc['response'];
  if (r === undefined || r === null) return { apiVersion, kind };
  if (!isObj(r)) throw wrongType('AdmissionReview.response', r, 'v1.AdmissionResponse');
  const allowed = r['allowed'];
  if (allowed !== undefined && allowed !== null && typeof allowed !== 'boolean') throw wrongType('AdmissionResponse.response.allowed', allowed, 'bool');
  const patchText = optString(r, 'patch', 'AdmissionResponse.response.patch');
  let patch: Buffer | undefined;
  if (patchText !== undefined) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(patchText) || patchText.length % 4 !== 0) throw new ReviewDecodeError(`illegal base64 data at input byte ${Math.max(0, patchText.search(/[^A-Za-z0-9+/=]/))}`);
    patch = Buffer.from(patchText, 'base64');
  }
  const warnings = r['warnings'];
  if (warnings !== undefined && warnings !== null && (!Array.isArray(warnings) || warnings.some((w) => typeof w !== 'string'))) {
    throw wrongType('AdmissionResponse.response.warnings', warnings, '[]string');
  }
  const annotations = r['auditAnnotations'];
  if (annotations !== undefined && annotations !== null && (!isObj(annotations) || Object.values(annotations).some((a) => typeof a !== 'string'))) {
    throw wrongType('AdmissionResponse.response.auditAnnotations', annotations, 'map[string]string');
  }
  const patchType = optString(r, 'patchType', 'AdmissionResponse.response.patchType');
  const status = decodeStatus(r['status']);
  return {
    apiVersion,
    kind,
    response: {
      uid: optString(r, 'uid', 'AdmissionResponse.response.uid') ?? '',
      allowed: allowed === true,
      ...(patch && patch.length > 0 ? { patch } : {}),
      ...(patchType !== undefined ? { patchType } : {}),
      ...(status ? { status } : {}),
      warnings: (warnings as string[] | undefined | null) ?? [],
      auditAnnotations: (annotations as Record<string, string> | undefined | null) ?? {},
    },
  };
}

/** The checks upstream makes of a decoded answer (VerifyAdmissionResponse); throws InvalidReviewError. */
export function verifyAdmissionResponse(domain: ApiDomain, sent: AdmissionRequestEnvelope, mutating: boolean, review: DecodedReview): AdmissionResponse {
  const r = review.response;
  if (!r) throw new InvalidReviewError('webhook response was absent');
  const common = { allowed: r.allowed, warnings: r.warnings, auditAnnotations: r.auditAnnotations, ...(r.status ? { result: r.status } : {}) };
  if (sent.version === 'v1beta1') {
    // v1beta1 never had its uid, kind or patch type checked; a patch can only be a JSON patch.
    if (mutating && r.patch) return { ...common, patch: r.patch, patchType: 'JSONPatch' };
    return { ...common, patchType: '' };
  }
  if (r.uid !== sent.uid) throw new InvalidReviewError(`expected response.uid=${JSON.stringify(sent.uid)}, got ${JSON.stringify(r.uid)}`);
  const [group, version] = review.apiVersion.includes('/') ? review.apiVersion.split('/', 2) as [string, string] : ['', review.apiVersion];
  const expected = `${domain.group('admission')}/v1, Kind=AdmissionReview`;
  if (`${group}/${version}, Kind=${review.kind}` !== expected) {
    throw new InvalidReviewError(`expected webhook response of ${expected}, got ${group}/${version}, Kind=${review.kind}`);
  }
  if (!mutating) {
    if (r.patch) throw new InvalidReviewError('validating webhook may not return response.patch');
    if (r.patchType !== undefined) throw new InvalidReviewError('validating webhook may not return response.patchType');
    return { ...common, patchType: '' };
  }
  if (r.patch && r.patchType === undefined) throw new InvalidReviewError('webhook returned response.patch but not response.patchType');
  if (!r.patch && r.patchType !== undefined) throw new InvalidReviewError('webhook returned response.patchType but not response.patch');
  if (r.patchType === '') throw new InvalidReviewError('webhook returned invalid response.patchType of ""');
  return { ...common, ...(r.patch ? { patch: r.patch } : {}), patchType: r.patchType ?? '' };
}
