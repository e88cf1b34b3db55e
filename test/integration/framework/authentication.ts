// What a client sees of authentication: the identity the server reports back for a request
// (SelfSubjectReview), TokenReview and TokenRequest calls, and the check that a refused credential
// is a plain 401 that neither the answer nor the server's log repeats.
import assert from 'node:assert/strict';
import { apiDomain, type ApiDomain } from '../../../api/domain.js';
import type { TestServer } from './apiserver.js';
import { assertStatus } from './assertions.js';
import type { Client, Response } from './client.js';

/** The UserInfo of the review kinds. */
export interface ReviewedUser {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** The platform domain the test server runs with, for group names, secret types and extra keys. */
export function domainOf(t: TestServer): ApiDomain {
  return apiDomain(t.options.apiDomain);
}

/** `authentication.<domain>/<version>`. */
export function authenticationAPI(t: TestServer, version = 'v1'): string {
  return `${domainOf(t).group('authentication')}/${version}`;
}

/** POSTs a SelfSubjectReview with `client`'s credentials. */
export function selfSubjectReview(t: TestServer, client: Client, version = 'v1'): Promise<Response> {
  const api = authenticationAPI(t, version);
  return client.post(`/apis/${api}/selfsubjectreviews`, { apiVersion: api, kind: 'SelfSubjectReview' });
}

/** Who the server says `client` is; fails the test unless the review was answered. */
export async function whoami(t: TestServer, client: Client): Promise<ReviewedUser> {
  const r = await selfSubjectReview(t, client);
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.kind, 'SelfSubjectReview', r.text);
  return r.body.status.userInfo as ReviewedUser;
}

/** POSTs a TokenReview of `token` (and the audiences, when given) with `client`'s credentials. */
export function tokenReview(t: TestServer, client: Client, token: string, audiences?: string[], version = 'v1'): Promise<Response> {
  const api = authenticationAPI(t, version);
  return client.post(`/apis/${api}/tokenreviews`, { apiVersion: api, kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } });
}

export interface TokenRequestSpec {
  audiences?: string[];
  expirationSeconds?: number;
  boundObjectRef?: { kind: string; apiVersion: string; name: string; uid?: string };
}

/** POSTs a TokenRequest for the service account; `query` is appended as is (e.g. `?dryRun=All`). */
export function requestToken(t: TestServer, client: Client, namespace: string, serviceAccount: string, spec: TokenRequestSpec = {}, query = ''): Promise<Response> {
  const api = authenticationAPI(t);
  return client.post(`/api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount}/token${query}`, { apiVersion: api, kind: 'TokenRequest', spec });
}

/** A token for the service account; fails the test unless one was issued. */
export async function issueToken(t: TestServer, client: Client, namespace: string, serviceAccount: string, spec: TokenRequestSpec = {}): Promise<string> {
  const r = await requestToken(t, client, namespace, serviceAccount, spec);
  assert.equal(r.status, 201, r.text);
  assert.equal(typeof r.body.status?.token, 'string', r.text);
  return r.body.status.token as string;
}

/**
 * The answer is upstream's 401 (a Status with reason Unauthorized and message `Unauthorized`) and
 * repeats none of `secrets` (tokens, certificate or key material, asserted identities).
 */
export function assertUnauthorized(r: Response, secrets: readonly string[], what: string): void {
  assertStatus(r, 401, 'Unauthorized', what);
  assert.equal(r.body.message, 'Unauthorized', what);
  assertNotRepeated(r.text, secrets, `${what}: the answer`);
}

/** None of `secrets` appears in `text`. */
export function assertNotRepeated(text: string, secrets: readonly string[], what: string): void {
  for (const s of secrets) {
    assert.ok(s.length >= 8, `${what}: secret ${JSON.stringify(s)} is too short to search for`);
    assert.ok(!text.includes(s), `${what} contains ${JSON.stringify(s.slice(0, 24))}...`);
  }
}

/** Distinctive pieces of a PEM document (its base64 lines), to search logs and answers for. */
export function pemFragments(pem: string): string[] {
  return pem
    .split('\n')
    .filter((l) => l && !l.startsWith('-----'))
    .filter((_, i) => i % 4 === 1);
}

/** Polls until `check` holds or the deadline passes, then fails with the last thing seen. */
export async function pollUntil<T>(get: () => Promise<T>, check: (v: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (check(v)) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
