// metav1.LabelSelector as controllers read one: a missing selector selects nothing (budgets,
// ReplicaSets and Deployments without one own no pods); otherwise the shared evaluation.
import type { LabelSelector } from '../../api/meta/v1/types.js';
import { selectorMatches as matches } from '../runtime/label-selector-match.js';

export function selectorMatches(sel: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  return sel ? matches(sel, labels) : false;
}
