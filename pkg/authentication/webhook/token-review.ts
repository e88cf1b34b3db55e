// The TokenReview exchanged with the webhook (spec 2.8), in authentication.<domain>/v1 or
// v1beta1: the request body we send and a strict reading of the answer. The answer must be a
// TokenReview of the version we sent; any field of the wrong type makes it malformed, as Go's
// decoder would refuse it.

export type TokenReviewVersion = 'v1' | 'v1beta1';

export interface TokenReviewStatus {
  authenticated: boolean;
  user: { username: string; uid: string; groups: string[]; extra: Record<string, string[]> };
  audiences: string[];
  error: string;
}

/** The request body: Go's encoding of a TokenReview with only spec set (audiences omitted when empty). */
export function tokenReviewRequest(apiVersion: string, token: string, audiences: readonly string[]): string {
  return JSON.stringify({
    kind: 'TokenReview',
    apiVersion,
    metadata: { creationTimestamp: null },
    spec: { token, ...(audiences.length ? { audiences } : {}) },
    status: { user: {} },
  });
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

function malformed(field: string): Error {
  return new Error(`the webhook returned a malformed TokenReview: ${field} has the wrong type`);
}

/** Reads the answer's status; throws on anything but a well-formed TokenReview of `apiVersion`. */
export function parseTokenReviewResponse(body: string, apiVersion: string): TokenReviewStatus {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    // JSON.parse's message quotes the body, which may echo the token: say only what is wrong.
    throw new Error('the webhook returned a response that is not valid JSON');
  }
  if (!isObj(doc)) throw new Error('the webhook returned a response that is not a JSON object');
  if (doc.apiVersion !== apiVersion || doc.kind !== 'TokenReview') {
    const got = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : 'none');
    throw new Error(`the webhook returned apiVersion ${got(doc.apiVersion)} kind ${got(doc.kind)}, expected apiVersion ${JSON.stringify(apiVersion)} kind "TokenReview"`);
  }
  const status = doc.status ?? {};
  if (!isObj(status)) throw malformed('status');
  const out: TokenReviewStatus = { authenticated: false, user: { username: '', uid: '', groups: [], extra: {} }, audiences: [], error: '' };
  if (status.authenticated != null) {
    if (typeof status.authenticated !== 'boolean') throw malformed('status.authenticated');
    out.authenticated = status.authenticated;
  }
  if (status.error != null) {
    if (typeof status.error !== 'string') throw malformed('status.error');
    out.error = status.error;
  }
  if (status.audiences != null) {
    if (!isStrings(status.audiences)) throw malformed('status.audiences');
    out.audiences = status.audiences;
  }
  const user = status.user ?? {};
  if (!isObj(user)) throw malformed('status.user');
  for (const f of ['username', 'uid'] as const) {
    if (user[f] != null) {
      if (typeof user[f] !== 'string') throw malformed(`status.user.${f}`);
      out.user[f] = user[f];
    }
  }
  if (user.groups != null) {
    if (!isStrings(user.groups)) throw malformed('status.user.groups');
    out.user.groups = user.groups;
  }
  if (user.extra != null) {
    if (!isObj(user.extra)) throw malformed('status.user.extra');
    for (const [k, v] of Object.entries(user.extra)) {
      if (v === null) {
        out.user.extra[k] = [];
        continue;
      }
      if (!isStrings(v)) throw malformed(`status.user.extra[${JSON.stringify(k)}]`);
      out.user.extra[k] = v;
    }
  }
  return out;
}
