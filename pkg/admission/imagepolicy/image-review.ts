// The ImageReview exchanged with the image policy webhook, in imagepolicy.<domain>/v1alpha1 (as
// TokenReviews and SubjectAccessReviews go out in authentication.<domain> and
// authorization.<domain>): the spec we send, encoded as Go encodes it (empty fields left out, map
// keys sorted), which is also the cache key, and a strict reading of the answer's status.
import { isJSONObject, malformedReview, readReviewAnswer } from '../../util/webhook/review-answer.js';

export interface ImageReviewSpec {
  containers?: Array<{ image?: string }>;
  annotations?: Record<string, string>;
  namespace?: string;
}

export interface ImageReviewStatus {
  allowed: boolean;
  reason: string;
  auditAnnotations: Record<string, string>;
}

/** The spec for these images, annotations and namespace, every empty field left out. */
export function imageReviewSpec(images: readonly string[], annotations: Record<string, string>, namespace: string): ImageReviewSpec {
  const spec: ImageReviewSpec = {};
  if (images.length) spec.containers = images.map((image) => (image ? { image } : {}));
  const keys = Object.keys(annotations).sort();
  if (keys.length) spec.annotations = Object.fromEntries(keys.map((k) => [k, annotations[k]!]));
  if (namespace) spec.namespace = namespace;
  return spec;
}

/** The request body: an ImageReview of `apiVersion` carrying `spec`. */
export function imageReviewRequest(apiVersion: string, spec: ImageReviewSpec): string {
  return JSON.stringify({ kind: 'ImageReview', apiVersion, metadata: { creationTimestamp: null }, spec, status: { allowed: false } });
}

const malformed = (field: string, want: string, got: unknown) => malformedReview('ImageReview', field, want, got);

/** Reads the answer's status; `apiVersion` (and kind) may be absent, else must be what was sent. Throws on anything else. */
export function parseImageReviewResponse(body: string, apiVersion: string): ImageReviewStatus {
  const { doc, apiVersion: version, kind } = readReviewAnswer(body, 'ImageReview');
  if ((version && version !== apiVersion) || (kind && kind !== 'ImageReview')) {
    throw new Error(`the webhook returned apiVersion ${JSON.stringify(version)} kind ${JSON.stringify(kind)}, expected an ImageReview of ${apiVersion}`);
  }
  const status = doc['status'] ?? {};
  if (!isJSONObject(status)) throw malformed('status', 'ImageReviewStatus', status);
  const out: ImageReviewStatus = { allowed: false, reason: '', auditAnnotations: {} };
  const allowed = status['allowed'] ?? false;
  if (typeof allowed !== 'boolean') throw malformed('status.allowed', 'bool', allowed);
  out.allowed = allowed;
  const reason = status['reason'] ?? '';
  if (typeof reason !== 'string') throw malformed('status.reason', 'string', reason);
  out.reason = reason;
  const audit = status['auditAnnotations'] ?? {};
  if (!isJSONObject(audit)) throw malformed('status.auditAnnotations', 'map[string]string', audit);
  for (const [k, v] of Object.entries(audit)) {
    if (v === null) {
      out.auditAnnotations[k] = '';
      continue;
    }
    if (typeof v !== 'string') throw malformed(`status.auditAnnotations[${JSON.stringify(k)}]`, 'string', v);
    out.auditAnnotations[k] = v;
  }
  return out;
}
