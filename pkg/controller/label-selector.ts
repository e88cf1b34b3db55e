// metav1.LabelSelector evaluated against labels (LabelSelectorAsSelector then Matches): a missing
// selector selects nothing, an empty one everything, as budgets, ReplicaSets and Deployments read them.
import type { LabelSelector } from '../../api/meta/v1/types.js';

export function selectorMatches(sel: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!sel) return false;
  const l = labels ?? {};
  const has = (k: string) => Object.prototype.hasOwnProperty.call(l, k);
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (!has(k) || l[k] !== v) return false;
  for (const req of sel.matchExpressions ?? []) {
    const values = req.values ?? [];
    const ok = req.operator === 'In' ? has(req.key) && values.includes(l[req.key]!)
      : req.operator === 'NotIn' ? !has(req.key) || !values.includes(l[req.key]!)
        : req.operator === 'Exists' ? has(req.key)
          : req.operator === 'DoesNotExist' ? !has(req.key)
            : false;
    if (!ok) return false;
  }
  return true;
}
