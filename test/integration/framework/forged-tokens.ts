// Tokens a hostile client can make from a real one: its claims changed and signed again with a
// key (the right one, to show a claim check refuses it), or re-labelled `alg: none` or HS256 keyed
// with the public key (the classic algorithm-confusion attacks).
import { createHmac, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

type Claims = Record<string, unknown>;

const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** The header and claims of a compact JWT, unverified. */
export function decodeJWT(token: string): { header: Claims; claims: Claims } {
  const [h, c] = token.split('.');
  return { header: JSON.parse(Buffer.from(h ?? '', 'base64url').toString()) as Claims, claims: JSON.parse(Buffer.from(c ?? '', 'base64url').toString()) as Claims };
}

/**
 * The token's claims with `changes` applied (undefined removes a claim), signed again by `key`
 * under the same header, or with `header` changes (another alg and kid for another key).
 */
export function resigned(token: string, changes: Claims, key: KeyObject, headerChanges: Claims = {}): Promise<string> {
  const { header, claims } = decodeJWT(token);
  const next: Claims = { ...claims, ...changes };
  for (const [k, v] of Object.entries(changes)) if (v === undefined) delete next[k];
  return new SignJWT(next).setProtectedHeader({ ...header, ...headerChanges } as { alg: string }).sign(key);
}

/** The token's claims under `alg: none`, with an empty signature. */
export function unsigned(token: string): string {
  const { header, claims } = decodeJWT(token);
  return `${part({ ...header, alg: 'none' })}.${part(claims)}.`;
}

/** The token's claims under HS256, the MAC keyed with `secret` (e.g. the issuer's public key PEM). */
export function hs256(token: string, secret: string): string {
  const { header, claims } = decodeJWT(token);
  const input = `${part({ ...header, alg: 'HS256' })}.${part(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}
