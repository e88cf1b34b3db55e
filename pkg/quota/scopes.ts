// Which objects a quota tracks: every scope in spec.scopes acts as an Exists requirement, ANDed
// with the requirements of spec.scopeSelector (upstream's getScopeSelectorsFromQuota).
import type { ResourceQuota, ScopedResourceSelectorRequirement } from '../../api/core/v1/resource-quota.js';
import type { QuotaEvaluator } from './evaluator.js';

export function scopeSelectorsOf(q: ResourceQuota): ScopedResourceSelectorRequirement[] {
  const out: ScopedResourceSelectorRequirement[] = (q.spec?.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists' }));
  return out.concat(q.spec?.scopeSelector?.matchExpressions ?? []);
}

/**
 * Whether the quota tracks the object: its status.hard names at least one resource the evaluator
 * accounts for, and the object matches all its scopes.
 */
export function quotaMatches(q: ResourceQuota, evaluator: QuotaEvaluator, obj: unknown): boolean {
  const hard = Object.keys(q.status?.hard ?? {});
  if (evaluator.matchingResources(hard).length === 0) return false;
  return scopeSelectorsOf(q).every((s) => evaluator.matchesScope(s, obj));
}

/** A requirement over a single-valued key, as a label selector requirement on a map that always has the key. */
export function matchesValue(req: ScopedResourceSelectorRequirement, value: string): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In': return values.includes(value);
    case 'NotIn': return !values.includes(value);
    case 'Exists': return true;
    default: return false; // DoesNotExist: the key is always present
  }
}
