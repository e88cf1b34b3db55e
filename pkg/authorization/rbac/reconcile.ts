// What to write so the bootstrap roles and bindings exist as the policy says, without taking
// anything from an operator (upstream's component-helpers auth/rbac/reconciliation, union mode):
// missing objects are created, missing rules, selectors, subjects, labels and annotations added,
// extra ones kept; an object annotated autoupdate=false is left alone. And the aggregation of
// ClusterRoles by their aggregationRule (upstream's clusterrole-aggregation controller), run at start.
import type { LabelSelector } from '../../../api/meta/v1/types.js';
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import type { PolicyRule } from '../../../api/rbac/v1/policy-rule.js';
import type { RoleRef } from '../../../api/rbac/v1/role-ref.js';
import type { Subject } from '../../../api/rbac/v1/subject.js';
import { selectorMatches } from '../../runtime/label-selector-match.js';
import { covers } from './rules.js';

export type ReconcileOperation = 'create' | 'update' | 'recreate' | 'none';

interface Meta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface RuleOwner {
  metadata?: Meta;
  rules?: PolicyRule[];
  aggregationRule?: ClusterRole['aggregationRule'];
}

export interface BindingObject {
  metadata?: Meta;
  roleRef: RoleRef;
  subjects?: Subject[];
}

export interface ReconcileResult<T> {
  operation: ReconcileOperation;
  /** The object to create or write; for 'none' or a protected object, the existing one. */
  object: T;
  /** The existing object opted out (autoupdate "false"): nothing is to be written, whatever is missing. */
  protected: boolean;
  missingRules?: PolicyRule[];
  missingSubjects?: Subject[];
}

/** Upstream's merge: later maps win, absent when every map is absent. */
function merge(...maps: (Record<string, string> | undefined)[]): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const m of maps) {
    if (m && !out) out = {};
    if (m) Object.assign(out!, m);
  }
  return out;
}

const sameMap = (a: Record<string, string> | undefined, b: Record<string, string> | undefined) =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort()) && (a === undefined) === (b === undefined);

const isProtected = (existing: { metadata?: Meta }, autoupdateKey: string) => existing.metadata?.annotations?.[autoupdateKey] === 'false';

/** Merges expected labels and annotations into `out`; true when that changed them. */
function mergeMeta(out: { metadata?: Meta }, expected: { metadata?: Meta }, existing: { metadata?: Meta }): boolean {
  out.metadata = { ...(out.metadata ?? {}) };
  const annotations = merge(expected.metadata?.annotations, existing.metadata?.annotations);
  const labels = merge(expected.metadata?.labels, existing.metadata?.labels);
  if (annotations) out.metadata.annotations = annotations;
  if (labels) out.metadata.labels = labels;
  return !sameMap(annotations, existing.metadata?.annotations) || !sameMap(labels, existing.metadata?.labels);
}

/** A Role or ClusterRole: the object to write so it holds every expected rule and selector. */
export function reconcileRole<T extends RuleOwner>(expected: T, existing: T | undefined, autoupdateKey: string): ReconcileResult<T> {
  if (!existing) return { operation: 'create', object: structuredClone(expected), protected: false, missingRules: expected.rules ?? [] };
  const result = structuredClone(existing);
  let changed = mergeMeta(result, expected, existing);
  const missingRules = covers(existing.rules ?? [], expected.rules ?? []).uncovered;
  if (missingRules.length > 0) {
    result.rules = [...(existing.rules ?? []), ...missingRules];
    changed = true;
  }
  const want = expected.aggregationRule;
  const have = existing.aggregationRule;
  if (!want && have) {
    delete result.aggregationRule;
    changed = true;
  } else if (want) {
    const haveSelectors = have?.clusterRoleSelectors ?? [];
    const missing = (want.clusterRoleSelectors ?? []).filter((s) => !haveSelectors.some((h) => sameSelector(h, s)));
    if (missing.length > 0 || !have) {
      result.aggregationRule = { clusterRoleSelectors: [...haveSelectors.map((s) => structuredClone(s)), ...missing.map((s) => structuredClone(s))] };
      changed = true;
    }
  }
  const prot = isProtected(existing, autoupdateKey);
  if (prot) return { operation: 'none', object: existing, protected: true, missingRules };
  return { operation: changed ? 'update' : 'none', object: changed ? result : existing, protected: false, missingRules };
}

function sameSelector(a: LabelSelector, b: LabelSelector): boolean {
  return canonical(a) === canonical(b);
}

function canonical(s: LabelSelector): string {
  return JSON.stringify({
    l: Object.entries(s.matchLabels ?? {}).sort(),
    e: (s.matchExpressions ?? []).map((e) => [e.key, e.operator, e.values ?? []]),
  });
}

const sameSubject = (a: Subject, b: Subject) =>
  a.kind === b.kind && (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');

/**
 * A RoleBinding or ClusterRoleBinding: missing subjects added. A different roleRef cannot be
 * updated in place, so the binding is to be deleted and created again ('recreate').
 */
export function reconcileBinding<T extends BindingObject>(expected: T, existing: T | undefined, autoupdateKey: string): ReconcileResult<T> {
  if (!existing) return { operation: 'create', object: structuredClone(expected), protected: false, missingSubjects: expected.subjects ?? [] };
  const prot = isProtected(existing, autoupdateKey);
  const a = expected.roleRef;
  const b = existing.roleRef;
  if (a.apiGroup !== b.apiGroup || a.kind !== b.kind || a.name !== b.name) {
    return prot ? { operation: 'none', object: existing, protected: true } : { operation: 'recreate', object: structuredClone(expected), protected: false };
  }
  const result = structuredClone(existing);
  let changed = mergeMeta(result, expected, existing);
  const missingSubjects: Subject[] = [];
  for (const s of expected.subjects ?? []) {
    if (!(existing.subjects ?? []).some((e) => sameSubject(e, s)) && !missingSubjects.some((m) => sameSubject(m, s))) missingSubjects.push(s);
  }
  if (missingSubjects.length > 0) {
    result.subjects = [...(existing.subjects ?? []), ...missingSubjects.map((s) => structuredClone(s))];
    changed = true;
  }
  if (prot) return { operation: 'none', object: existing, protected: true, missingSubjects };
  return { operation: changed ? 'update' : 'none', object: changed ? result : existing, protected: false, missingSubjects };
}

const sameRule = (a: PolicyRule, b: PolicyRule) => JSON.stringify(normalRule(a)) === JSON.stringify(normalRule(b));
const normalRule = (r: PolicyRule) => [r.verbs, r.apiGroups ?? [], r.resources ?? [], r.resourceNames ?? [], r.nonResourceURLs ?? []];

/**
 * The rules an aggregated ClusterRole should hold: every distinct rule of the ClusterRoles its
 * selectors match (itself excluded), roles taken in name order, or undefined when `role` is not
 * aggregated or already holds exactly those rules.
 */
export function aggregateClusterRole(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] | undefined {
  const selectors = role.aggregationRule?.clusterRoleSelectors;
  if (!role.aggregationRule) return undefined;
  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const sel of selectors ?? []) {
    const matched = all.filter((r) => r.metadata?.name !== role.metadata?.name && selectorMatches(sel, r.metadata?.labels))
      .sort((x, y) => (x.metadata?.name ?? '').localeCompare(y.metadata?.name ?? ''));
    for (const r of matched) {
      if (seen.has(r.metadata?.name ?? '')) continue;
      seen.add(r.metadata?.name ?? '');
      for (const rule of r.rules ?? []) if (!rules.some((x) => sameRule(x, rule))) rules.push(rule);
    }
  }
  const current = role.rules ?? [];
  if (current.length === rules.length && current.every((r, i) => sameRule(r, rules[i]!))) return undefined;
  return rules;
}

/**
 * Aggregates every aggregated ClusterRole of `all` until nothing changes (edit feeds admin, view
 * feeds edit), returning the roles whose rules changed, with their new rules.
 */
export function aggregateAll(all: readonly ClusterRole[]): ClusterRole[] {
  const current = new Map(all.map((r) => [r.metadata?.name ?? '', structuredClone(r)]));
  const changed = new Set<string>();
  for (let pass = 0; pass <= current.size; pass++) {
    let any = false;
    for (const role of current.values()) {
      const rules = aggregateClusterRole(role, [...current.values()]);
      if (rules) {
        role.rules = rules;
        changed.add(role.metadata?.name ?? '');
        any = true;
      }
    }
    if (!any) break;
  }
  return [...changed].map((n) => current.get(n)!);
}
