// How one PolicyRule is matched against a request, and whether one set of rules grants everything
// another grants (upstream's rbac/v1 evaluation helpers, RuleAllows and the policy comparator's
// Covers). Escalation prevention and bootstrap reconciliation both rest on Covers, so the two
// must agree exactly with the matcher the authorizer uses.
import type { PolicyRule } from '../../../api/rbac/v1/policy-rule.js';

export const VerbAll = '*';
export const APIGroupAll = '*';
export const ResourceAll = '*';
export const NonResourceAll = '*';

/** The parts of a request RBAC looks at; structurally a subset of the generic authorizer attributes. */
export interface RbacUser {
  name: string;
  groups: readonly string[];
}

export interface RbacAttributes {
  user: RbacUser;
  verb: string;
  namespace?: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  path?: string;
  isResourceRequest: boolean;
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === VerbAll || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === APIGroupAll || g === group);
}

/**
 * `combined` is `resource` or `resource/subresource`. A rule names a resource, `*`, the exact
 * combined form, or a star, a slash and the subresource (any resource's subresource); `pods/` and
 * a star has no special meaning upstream and matches only itself.
 */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ResourceAll || r === combined) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** Rules with names never match a request without one (list, create, deletecollection, watch of all). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceURLMatches(rule: PolicyRule, url: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === NonResourceAll || u === url) return true;
    if (u.endsWith('*') && url.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(a: RbacAttributes, rule: PolicyRule): boolean {
  if (a.isResourceRequest) {
    const sub = a.subresource ?? '';
    const combined = sub ? `${a.resource ?? ''}/${sub}` : (a.resource ?? '');
    return verbMatches(rule, a.verb) && apiGroupMatches(rule, a.apiGroup ?? '') &&
      resourceMatches(rule, combined, sub) && resourceNameMatches(rule, a.name ?? '');
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path ?? '');
}

export function rulesAllow(a: RbacAttributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(a, r));
}

// ---- Covers ------------------------------------------------------------------------------

/**
 * Splits a rule into rules of one group, resource, verb and at most one name (or one URL and
 * verb), so each piece is either wholly covered by a single owner rule or not at all.
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        const names = rule.resourceNames ?? [];
        if (names.length > 0) {
          for (const n of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [n] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

const hasAll = (set: readonly string[], wanted: readonly string[]) => wanted.every((w) => set.includes(w));

function resourceCoversAll(set: readonly string[], wanted: readonly string[]): boolean {
  if (set.includes(ResourceAll) || hasAll(set, wanted)) return true;
  for (const path of wanted) {
    if (set.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!set.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbOk = owner.verbs.includes(VerbAll) || hasAll(owner.verbs, sub.verbs);
  const groups = owner.apiGroups ?? [];
  const groupOk = groups.includes(APIGroupAll) || hasAll(groups, sub.apiGroups ?? []);
  const resourceOk = resourceCoversAll(owner.resources ?? [], sub.resources ?? []);
  const urlOk = (sub.nonResourceURLs ?? []).every((p) => (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, p)));
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const nameOk = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbOk && groupOk && resourceOk && nameOk && urlOk;
}

/** Whether `owner` grants every permission of `servant`, and the broken-down pieces it does not. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covers: boolean; uncovered: PolicyRule[] } {
  const uncovered: PolicyRule[] = [];
  for (const rule of servant) {
    for (const sub of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, sub))) uncovered.push(sub);
    }
  }
  return { covers: uncovered.length === 0, uncovered };
}

/**
 * Merges rules of one group and one resource (and at most one name) that differ only by verb, so
 * an escalation message lists `Verbs:["get" "list"]` once rather than a line per verb.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleKey(rule);
    if (key === undefined) {
      out.push(rule);
      continue;
    }
    const existing = simple.get(key);
    if (existing) existing.verbs = [...existing.verbs, ...rule.verbs];
    else simple.set(key, structuredClone(rule));
  }
  return [...out, ...simple.values()];
}

function simpleKey(rule: PolicyRule): string | undefined {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs ?? []).length > 0) return undefined;
  if ((rule.apiGroups ?? []).length !== 1 || (rule.resources ?? []).length !== 1) return undefined;
  return JSON.stringify([rule.apiGroups![0], rule.resources![0], names.length === 1, names[0] ?? '']);
}

/** Go's %q of a []string: `["a" "b"]`. */
export function goQuotedList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** Upstream's CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, empty fields left out. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, v: readonly string[] | undefined) => {
    if (v && v.length > 0) parts.push(`${label}:${goQuotedList(v)}`);
  };
  add('APIGroups', rule.apiGroups);
  add('Resources', rule.resources);
  add('NonResourceURLs', rule.nonResourceURLs);
  add('ResourceNames', rule.resourceNames);
  add('Verbs', rule.verbs);
  return `{${parts.join(', ')}}`;
}
