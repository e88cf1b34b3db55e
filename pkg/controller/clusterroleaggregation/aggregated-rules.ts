// The rules an aggregated ClusterRole should hold (upstream's syncClusterRole): for each selector
// in order, the ClusterRoles it picks in name order (the role itself never), each of their rules
// appended unless an equal rule is already there.
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import type { PolicyRule } from '../../../api/rbac/v1/policy-rule.js';
import { selectorMatches } from '../label-selector.js';

// Upstream compares with equality.Semantic.DeepEqual; an absent list and an empty one are the same
// grant, so they compare equal here (our server may omit empty lists).
const ruleKey = (r: PolicyRule): string =>
  JSON.stringify([r.verbs ?? [], r.apiGroups ?? [], r.resources ?? [], r.resourceNames ?? [], r.nonResourceURLs ?? []]);

/** Whether two rule lists are the same, in the same order. */
export function sameRules(a: readonly PolicyRule[] | undefined, b: readonly PolicyRule[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((r, i) => ruleKey(r) === ruleKey(y[i]!));
}

/** The union of the rules of the roles `role`'s selectors pick out of `all`; undefined when `role` is not aggregated. */
export function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] | undefined {
  if (!role.aggregationRule) return undefined;
  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  const byName = [...all].sort((x, y) => ((x.metadata?.name ?? '') < (y.metadata?.name ?? '') ? -1 : (x.metadata?.name ?? '') > (y.metadata?.name ?? '') ? 1 : 0));
  for (const sel of role.aggregationRule.clusterRoleSelectors ?? []) {
    for (const picked of byName) {
      if (picked.metadata?.name === role.metadata?.name || !selectorMatches(sel, picked.metadata?.labels)) continue;
      for (const rule of picked.rules ?? []) {
        const k = ruleKey(rule);
        if (seen.has(k)) continue;
        seen.add(k);
        rules.push(structuredClone(rule));
      }
    }
  }
  return rules;
}
