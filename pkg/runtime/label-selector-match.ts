// Evaluates a metav1.LabelSelector against a set of labels, as upstream's LabelSelectorAsSelector
// followed by Matches does. The selector is assumed valid (see validateLabelSelector).
import type { LabelSelector } from '../../api/meta/v1/types.js';

/** True when the selector selects nothing in particular: no matchLabels and no matchExpressions. */
export function isEmptySelector(sel: LabelSelector | undefined): boolean {
  return Object.keys(sel?.matchLabels ?? {}).length === 0 && (sel?.matchExpressions ?? []).length === 0;
}

/** Whether `labels` satisfy every requirement of `sel`; an empty selector matches everything. */
export function selectorMatches(sel: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  const has = (k: string) => Object.prototype.hasOwnProperty.call(l, k);
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    if (!has(k) || l[k] !== v) return false;
  }
  for (const req of sel.matchExpressions ?? []) {
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
        if (!has(req.key) || !values.includes(l[req.key]!)) return false;
        break;
      case 'NotIn':
        if (has(req.key) && values.includes(l[req.key]!)) return false;
        break;
      case 'Exists':
        if (!has(req.key)) return false;
        break;
      case 'DoesNotExist':
        if (has(req.key)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
