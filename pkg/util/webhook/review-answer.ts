// The first reading of a review a webhook answered (a SubjectAccessReview, an ImageReview): a JSON
// object whose apiVersion and kind, when present, are strings; a field of the wrong type makes the
// answer malformed, as Go's decoder would refuse it.

export interface ReviewAnswer {
  doc: Record<string, unknown>;
  /** '' when absent. */
  apiVersion: string;
  /** '' when absent. */
  kind: string;
}

/** Whether `v` is a JSON object (a review's status, a map). */
export const isJSONObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The error of an answer whose `field` is not of Go type `want`. */
export function malformedReview(kind: string, field: string, want: string, got: unknown): Error {
  return new Error(`the webhook returned a malformed ${kind}: cannot unmarshal ${Array.isArray(got) ? 'array' : typeof got} into ${field} of type ${want}`);
}

/** The answer to a review of kind `kind` as a JSON object; throws when it is not one. */
export function readReviewAnswer(body: string, kind: string): ReviewAnswer {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch (e) {
    throw new Error(`the webhook returned a response that is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isJSONObject(doc)) throw new Error('the webhook returned a response that is not a JSON object');
  const apiVersion = doc['apiVersion'] ?? '';
  const k = doc['kind'] ?? '';
  if (typeof apiVersion !== 'string') throw malformedReview(kind, 'apiVersion', 'string', apiVersion);
  if (typeof k !== 'string') throw malformedReview(kind, 'kind', 'string', k);
  return { doc, apiVersion, kind: k };
}
