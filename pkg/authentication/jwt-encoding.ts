// The encoding of compact JWTs as upstream's Go readers take it, shared by every token method that
// reads a JWT before verifying it (OIDC, service accounts).

/** Unpadded base64url as Go's RawURLEncoding reads it (no padding, no other characters): undefined on anything else. */
export function decodeBase64url(s: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return undefined;
  return Buffer.from(s, 'base64url');
}

/** A JSON object read from bytes, or undefined when they are not one. */
export function jsonObject(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(bytes.toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
