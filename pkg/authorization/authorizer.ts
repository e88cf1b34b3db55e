// The contract between the server and its authorizers (spec 5.10): each answers allow, deny or
// no opinion, with a reason a 403 may quote, and an evaluation error when it could not decide
// (upstream's (Decision, reason, error) triple). A RuleResolver lists what a user may do, for
// SelfSubjectRulesReview.
import type { UserInfo } from '../runtime/user.js';
import type { Attributes } from './attributes.js';

export type DecisionKind = 'allow' | 'deny' | 'noOpinion';

export interface Decision {
  decision: DecisionKind;
  /** Why; quoted after the 403 message when the request is refused. May be empty. */
  reason: string;
  /** Set when the authorizer failed to evaluate (a webhook error, a broken rule). */
  evaluationError?: string;
}

export interface Authorizer {
  /** Never rejects: failures are a decision with an evaluationError. */
  authorize(a: Attributes): Promise<Decision>;
}

/** A resource rule as SelfSubjectRulesReview reports it. */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RulesResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** True when the list may leave out rules (an authorizer that cannot list them, or failed to). */
  incomplete: boolean;
  evaluationError?: string;
}

export interface RuleResolver {
  /** The rules `user` holds in `namespace` ('' for cluster-wide rules only). Never rejects. */
  rulesFor(user: UserInfo, namespace: string): Promise<RulesResult>;
}

export const allow = (reason = ''): Decision => ({ decision: 'allow', reason });
export const deny = (reason = ''): Decision => ({ decision: 'deny', reason });
export const noOpinion = (reason = ''): Decision => ({ decision: 'noOpinion', reason });

/** Upstream's NewAggregate(...).Error(): one message alone, several de-duplicated in `[a, b]`. */
export function aggregateErrors(errs: readonly string[]): string | undefined {
  if (errs.length === 0) return undefined;
  if (errs.length === 1) return errs[0];
  const seen = [...new Set(errs)];
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}
