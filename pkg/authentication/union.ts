// Unions of authenticators (upstream's request and token unions): asked in order, the first that
// authenticates decides; failures are collected and, when nobody authenticated, reported together
// worded as Go's aggregate error (one reason alone, several as `[a, b]`, duplicates once).
import type { AuthenticationRequest, AuthenticationResult, RequestAuthenticator, TokenAuthenticator } from './authenticator.js';
import { skipped } from './authenticator.js';

/** A failed result that also carries its individual reasons, so nested unions flatten as Go's aggregates do. */
export type AggregateFailure = { outcome: 'failed'; reason: string; reasons: string[] };

/** The individual reasons of a failed result. */
export function reasonsOf(r: { outcome: 'failed'; reason: string }): string[] {
  const agg = (r as Partial<AggregateFailure>).reasons;
  return Array.isArray(agg) ? agg : [r.reason];
}

/** Go's utilerrors.NewAggregate(...).Error() over reasons; undefined for none. */
export function aggregateFailure(reasons: readonly string[]): AggregateFailure | undefined {
  const unique = [...new Set(reasons)];
  if (unique.length === 0) return undefined;
  const reason = unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
  return { outcome: 'failed', reason, reasons: unique };
}

/**
 * An authenticator that throws has failed. Its message is not used: it may quote the credential
 * (a JSON parser quotes its input), and reasons are logged.
 */
async function guarded(name: string, step: () => Promise<AuthenticationResult>): Promise<AuthenticationResult> {
  try {
    return await step();
  } catch (e) {
    return { outcome: 'failed', reason: `${name} authenticator failed unexpectedly (${e instanceof Error ? e.name : typeof e})` };
  }
}

async function firstAuthenticated(steps: Array<[string, () => Promise<AuthenticationResult>]>): Promise<AuthenticationResult> {
  const reasons: string[] = [];
  for (const [name, step] of steps) {
    const r = await guarded(name, step);
    if (r.outcome === 'authenticated') return r;
    if (r.outcome === 'failed') reasons.push(...reasonsOf(r));
  }
  return aggregateFailure(reasons) ?? skipped;
}

/** Request authenticators in order: the first `authenticated` wins; otherwise any failures, else skipped. */
export function unionRequestAuthenticator(authenticators: readonly RequestAuthenticator[], name = 'union'): RequestAuthenticator {
  const list = [...authenticators];
  return {
    name,
    authenticate: (req: AuthenticationRequest) => firstAuthenticated(list.map((a) => [a.name, () => a.authenticate(req)])),
  };
}

/** Token authenticators in order, as upstream's token union: the same rule over one token. */
export function unionTokenAuthenticator(authenticators: readonly TokenAuthenticator[], name = 'union'): TokenAuthenticator {
  const list = [...authenticators];
  return {
    name,
    authenticateToken: (token: string, audiences: readonly string[]) => firstAuthenticated(list.map((a) => [a.name, () => a.authenticateToken(token, audiences)])),
  };
}
