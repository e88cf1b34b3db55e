// The results of every check run on one pod, as one verdict (upstream's AggregateCheckResult):
// reasons alone name a pod among many (`host namespaces, privileged`); reasons with their details
// explain one object (`host namespaces (hostNetwork=true), privileged (container "a" must not ...)`).
import type { CheckResult } from './check.js';

/** The placeholder for a check that refused without saying why. */
export const unknownForbiddenReason = 'unknown forbidden reason';

export interface AggregateCheckResult {
  allowed: boolean;
  /** One per refusing check, in check order. */
  forbiddenReasons: string[];
  /** One per refusing check (possibly empty), in the same order. */
  forbiddenDetails: string[];
}

export function aggregateCheckResults(results: readonly CheckResult[]): AggregateCheckResult {
  const refused = results.filter((r) => !r.allowed);
  return {
    allowed: refused.length === 0,
    forbiddenReasons: refused.map((r) => r.forbiddenReason || unknownForbiddenReason),
    forbiddenDetails: refused.map((r) => r.forbiddenDetail ?? ''),
  };
}

/** `reason1, reason2`. */
export const forbiddenReason = (a: AggregateCheckResult): string => a.forbiddenReasons.join(', ');

/** `reason1 (detail1), reason2`: each reason with its detail in parentheses when it has one. */
export const forbiddenDetail = (a: AggregateCheckResult): string =>
  a.forbiddenReasons.map((r, i) => (a.forbiddenDetails[i] ? `${r} (${a.forbiddenDetails[i]})` : r)).join(', ');
