// A quota's usage recomputed from the objects of its namespace (upstream's quota.CalculateUsage and
// the evaluators' UsageStats): each evaluator tracking some of the quota's hard names sums the usage
// of the objects matching every scope; a tracked name nobody uses reads 0, so admission knows it.
import type { ResourceQuota } from '../../api/core/v1/resource-quota.js';
import { zeroQuantity } from '../runtime/quantity-exact.js';
import type { QuotaEvaluator } from './evaluator.js';
import { addUsage, fromUsage, mask, toUsage, type Usage } from './resource-list.js';
import { scopeSelectorsOf } from './scopes.js';

/** An evaluator and the live objects (of the quota's namespace) it accounts for. */
export interface EvaluatedObjects {
  evaluator: QuotaEvaluator;
  objects: unknown[];
}

/** The usage of the quota's spec.hard names, by the objects each evaluator is given. */
export function calculateUsage(q: ResourceQuota, sources: EvaluatedObjects[], now: Date): Usage {
  const hardNames = Object.keys(q.spec?.hard ?? {});
  const scopes = scopeSelectorsOf(q);
  let used: Usage = new Map();
  for (const { evaluator, objects } of sources) {
    const matched = evaluator.matchingResources(hardNames);
    if (matched.length === 0) continue;
    let sum: Usage = new Map(matched.map((n) => [n, zeroQuantity]));
    for (const obj of objects) {
      if (!scopes.every((s) => evaluator.matchesScope(s, obj))) continue;
      sum = addUsage(sum, mask(evaluator.usage(obj, now), matched));
    }
    used = addUsage(used, sum);
  }
  return used;
}

/**
 * The status the quota should have (upstream's syncResourceQuota): hard from spec.hard; used as
 * computed, keeping earlier values of names no evaluator tracks, restricted to the hard names.
 */
export function desiredQuotaStatus(q: ResourceQuota, computed: Usage): { hard: Record<string, string>; used: Record<string, string> } {
  const hard = toUsage(q.spec?.hard);
  const used = toUsage(q.status?.used);
  for (const [k, v] of computed) used.set(k, v);
  return { hard: fromUsage(hard), used: fromUsage(mask(used, hard.keys())) };
}

/** Whether two resource lists hold the same names with equal quantities. */
export function sameResourceList(a: Record<string, string | number> | undefined, b: Record<string, string | number> | undefined): boolean {
  if (!a || !b) return a === b;
  return JSON.stringify(fromUsage(toUsage(a))) === JSON.stringify(fromUsage(toUsage(b)));
}
