// --authorization-mode and the flags that go with it, read and checked as kube-apiserver reads
// and checks them (BuiltInAuthorizationOptions: Complete, Validate; reload.go builds the chain):
// a comma list (a string-slice flag: CSV, repeated flags append), AlwaysAllow when none is given,
// every error reported at once in upstream's wording, and the chain built in the order given
// behind the system:masters authorizer.
import { goQuote } from '../util/go-quote.js';
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from './always.js';
import type { Authorizer, RuleResolver } from './authorizer.js';
import { PrivilegedGroupsAuthorizer } from './privileged-groups.js';
import { UnionAuthorizer, UnionRuleResolver } from './union.js';

export const ModeAlwaysAllow = 'AlwaysAllow';
export const ModeAlwaysDeny = 'AlwaysDeny';
export const ModeWebhook = 'Webhook';
export const ModeRBAC = 'RBAC';
export const ModeNode = 'Node';

/**
 * The modes we implement, in upstream's order of AuthorizationModeChoices. Upstream's ABAC is not
 * among them, so it is refused as "not a valid mode".
 */
export const authorizationModeChoices: readonly string[] = [ModeAlwaysAllow, ModeAlwaysDeny, ModeWebhook, ModeRBAC, ModeNode];

export function isValidAuthorizationMode(mode: string): boolean {
  return authorizationModeChoices.includes(mode);
}

export interface AuthorizationOptions {
  /** --authorization-mode, in order. Empty means "not given": complete() makes it AlwaysAllow. */
  modes: string[];
  /** --authorization-webhook-config-file */
  webhookConfigFile: string;
  /** --authorization-webhook-version: v1 (our default) or v1beta1. */
  webhookVersion: string;
  /** --authorization-webhook-cache-authorized-ttl, milliseconds; 0 caches no allowed answers. */
  webhookCacheAuthorizedTTLMs: number;
  /** --authorization-webhook-cache-unauthorized-ttl, milliseconds; 0 caches no other answers. */
  webhookCacheUnauthorizedTTLMs: number;
  /** Attempts of the webhook's retry policy (not a flag; upstream validates it with the flags). */
  webhookRetrySteps?: number;
}

export function defaultAuthorizationOptions(): AuthorizationOptions {
  return { modes: [], webhookConfigFile: '', webhookVersion: 'v1', webhookCacheAuthorizedTTLMs: 5 * 60_000, webhookCacheUnauthorizedTTLMs: 30_000 };
}

/** Upstream's Complete: no mode given means AlwaysAllow. */
export function completeAuthorizationOptions(o: AuthorizationOptions): AuthorizationOptions {
  return o.modes.length === 0 ? { ...o, modes: [ModeAlwaysAllow] } : o;
}

/** Every problem with the options, in upstream's order and words; empty when they are usable. */
export function validateAuthorizationOptions(o: AuthorizationOptions): string[] {
  const errs: string[] = [];
  if (o.modes.length === 0) errs.push('at least one authorization-mode must be passed');
  const modes = new Set(o.modes);
  for (const mode of o.modes) {
    if (!isValidAuthorizationMode(mode)) errs.push(`authorization-mode ${goQuote(mode)} is not a valid mode`);
    if (mode === ModeWebhook && o.webhookConfigFile === '') errs.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (o.webhookConfigFile !== '' && !modes.has(ModeWebhook)) errs.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (o.modes.length !== modes.size) errs.push(`authorization-mode [${o.modes.map(goQuote).join(' ')}] has mode specified more than once`);
  if (o.webhookRetrySteps !== undefined && o.webhookRetrySteps <= 0) {
    errs.push(`number of webhook retry attempts must be greater than 0, but is: ${o.webhookRetrySteps}`);
  }
  return errs;
}

/**
 * The values of a string-slice flag (pflag's StringSlice, which --authorization-mode is): each
 * occurrence is one CSV record (quotes allowed, spaces kept, only the first line read; an empty
 * value is no entries), and repeated occurrences append. Throws pflag's error on a malformed value.
 */
export function parseStringSliceFlag(flag: string, occurrences: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of occurrences) {
    if (value === '') continue;
    try {
      out.push(...csvRecord(value));
    } catch (e) {
      throw new Error(`invalid argument ${goQuote(value)} for "--${flag}" flag: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

/** The first record of CSV text, as Go's encoding/csv reads it with default settings. */
function csvRecord(text: string): string[] {
  const fields: string[] = [];
  let i = 0;
  const col = (pos: number) => Buffer.byteLength(text.slice(0, pos)) + 1;
  for (;;) {
    if (text[i] === '"') {
      let field = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new Error(`parse error on line 1, column ${col(i)}: extraneous or missing " in quoted-field`);
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i];
        i++;
      }
      if (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') {
        throw new Error(`parse error on line 1, column ${col(i)}: extraneous or missing " in quoted-field`);
      }
      fields.push(field);
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\n' && text[end] !== '\r') end++;
      const field = text.slice(i, end);
      const q = field.indexOf('"');
      if (q >= 0) throw new Error(`parse error on line 1, column ${col(i + q)}: bare " in non-quoted field`);
      fields.push(field);
      i = end;
    }
    if (text[i] === ',') {
      i++;
      continue;
    }
    return fields;
  }
}

/** An authorizer a mode builds; those that can also list rules take part in SelfSubjectRulesReview. */
export type ModeAuthorizer = Authorizer & Partial<RuleResolver>;

/** How each mode's authorizer is made; AlwaysAllow and AlwaysDeny are built in. */
export type ModeConstructors = Partial<Record<string, () => ModeAuthorizer>>;

export interface AuthorizationChain {
  /** system:masters first, then each mode in order. */
  authorizer: UnionAuthorizer;
  /** The modes' rule resolvers in order (not the system:masters authorizer, as upstream). */
  ruleResolver: UnionRuleResolver;
  /** The modes' authorizers by mode, for callers that need one (e.g. to close a webhook). */
  byMode: Map<string, ModeAuthorizer>;
}

/** The ordered chain for validated, completed modes; throws on a mode nothing constructs. */
export function buildAuthorizationChain(modes: readonly string[], constructors: ModeConstructors = {}): AuthorizationChain {
  if (modes.length === 0) throw new Error('at least one authorization mode must be passed');
  const builtIn: ModeConstructors = { [ModeAlwaysAllow]: () => new AlwaysAllowAuthorizer(), [ModeAlwaysDeny]: () => new AlwaysDenyAuthorizer() };
  const chain: Authorizer[] = [new PrivilegedGroupsAuthorizer()];
  const resolvers: RuleResolver[] = [];
  const byMode = new Map<string, ModeAuthorizer>();
  for (const mode of modes) {
    const make = Object.hasOwn(constructors, mode) ? constructors[mode] : Object.hasOwn(builtIn, mode) ? builtIn[mode] : undefined;
    if (!make) throw new Error(`unknown authorization mode ${mode} specified`);
    const a = make();
    chain.push(a);
    byMode.set(mode, a);
    if (typeof a.rulesFor === 'function') resolvers.push(a as RuleResolver);
  }
  return { authorizer: new UnionAuthorizer(chain), ruleResolver: new UnionRuleResolver(resolvers), byMode };
}
