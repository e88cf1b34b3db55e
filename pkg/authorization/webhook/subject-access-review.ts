// The SubjectAccessReview exchanged with the authorization webhook, in authorization.<domain>/v1
// or v1beta1, as upstream's webhook authorizer sends and reads it: the spec holds
// resourceAttributes (namespace, verb, group, version, resource, subresource, name) or
// nonResourceAttributes (path, verb), and the user (user, groups — `group` in v1beta1 — extra,
// uid), every empty field left out, in Go's field order with map keys sorted. The answer is
// decoded as upstream's client decodes it: apiVersion and kind may be absent (they default to
// what was sent), either version of our group is read, anything else is an error, and a field of
// the wrong type makes the answer malformed.
import { isJSONObject, malformedReview, readReviewAnswer } from '../../util/webhook/review-answer.js';
import type { Attributes } from '../attributes.js';

export type SubjectAccessReviewVersion = 'v1' | 'v1beta1';

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied: boolean;
  reason: string;
  evaluationError: string;
}

/** The v1 spec for `a`, as Go encodes it; its JSON is also the cache key. */
export function subjectAccessReviewSpec(a: Attributes): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  const put = (o: Record<string, unknown>, k: string, v: string) => {
    if (v) o[k] = v;
  };
  if (a.isResourceRequest) {
    const ra: Record<string, unknown> = {};
    put(ra, 'namespace', a.namespace);
    put(ra, 'verb', a.verb);
    put(ra, 'group', a.apiGroup);
    put(ra, 'version', a.apiVersion);
    put(ra, 'resource', a.resource);
    put(ra, 'subresource', a.subresource);
    put(ra, 'name', a.name);
    spec.resourceAttributes = ra;
  } else {
    const nra: Record<string, unknown> = {};
    put(nra, 'path', a.path);
    put(nra, 'verb', a.verb);
    spec.nonResourceAttributes = nra;
  }
  const u = a.user;
  if (u) {
    put(spec, 'user', u.name);
    if (u.groups.length) spec.groups = [...u.groups];
    const keys = Object.keys(u.extra).sort();
    if (keys.length) spec.extra = Object.fromEntries(keys.map((k) => [k, u.extra[k] ?? null]));
    put(spec, 'uid', u.uid ?? '');
  }
  return spec;
}

/** The request body: a SubjectAccessReview of `apiVersion` carrying the (v1) spec in that version's shape. */
export function subjectAccessReviewRequest(apiVersion: string, version: SubjectAccessReviewVersion, spec: Record<string, unknown>): string {
  let body = spec;
  if (version === 'v1beta1' && 'groups' in spec) {
    // v1beta1 names the groups `group`; the order of the other fields stays.
    body = Object.fromEntries(Object.entries(spec).map(([k, v]) => [k === 'groups' ? 'group' : k, v]));
  }
  return JSON.stringify({ kind: 'SubjectAccessReview', apiVersion, metadata: { creationTimestamp: null }, spec: body, status: { allowed: false } });
}

const malformed = (field: string, want: string, got: unknown) => malformedReview('SubjectAccessReview', field, want, got);

/**
 * Reads the answer's status. `group` is authorization.<domain>; the answer may be in either of its
 * versions. Throws on anything else.
 */
export function parseSubjectAccessReviewResponse(body: string, group: string): SubjectAccessReviewStatus {
  const { doc, apiVersion, kind } = readReviewAnswer(body, 'SubjectAccessReview');
  if ((apiVersion && apiVersion !== `${group}/v1` && apiVersion !== `${group}/v1beta1`) || (kind && kind !== 'SubjectAccessReview')) {
    throw new Error(`the webhook returned apiVersion ${JSON.stringify(apiVersion)} kind ${JSON.stringify(kind)}, expected a SubjectAccessReview of ${group}`);
  }
  const status = doc['status'] ?? {};
  if (!isJSONObject(status)) throw malformed('status', 'SubjectAccessReviewStatus', status);
  const out: SubjectAccessReviewStatus = { allowed: false, denied: false, reason: '', evaluationError: '' };
  for (const f of ['allowed', 'denied'] as const) {
    const v = status[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') throw malformed(`status.${f}`, 'bool', v);
    out[f] = v;
  }
  for (const f of ['reason', 'evaluationError'] as const) {
    const v = status[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw malformed(`status.${f}`, 'string', v);
    out[f] = v;
  }
  return out;
}
