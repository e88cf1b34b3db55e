// Roles, ClusterRoles and their bindings held in memory, fed by the change events of the
// in-process caches (never read from etcd per request), and indexed by subject so a request
// looks only at the bindings that can name its user: the user itself, one of its groups, or
// (as a user name) a service account. What applies, and how failures are worded, follows
// upstream's default rule resolver (pkg/registry/rbac/validation/rule.go).
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import type { ClusterRoleBinding } from '../../../api/rbac/v1/cluster-role-binding.js';
import type { PolicyRule } from '../../../api/rbac/v1/policy-rule.js';
import type { Role } from '../../../api/rbac/v1/role.js';
import type { RoleBinding } from '../../../api/rbac/v1/role-binding.js';
import type { RoleRef } from '../../../api/rbac/v1/role-ref.js';
import type { Subject } from '../../../api/rbac/v1/subject.js';
import type { RbacUser } from './rules.js';

export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';
export type RbacEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

type Binding = RoleBinding | ClusterRoleBinding;

/** Says which binding granted a rule, in upstream's words (the allow reason quotes it). */
export interface RuleSource {
  toString(): string;
}

/** Called per rule (with its source) or per error; returning false stops the walk. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, err: string | undefined) => boolean;

/** Why a roleRef does not resolve: a missing object (404 through the API) or an unknown kind. */
export type RoleRefFailure =
  | { reason: 'NotFound'; resource: 'roles' | 'clusterroles'; name: string; message: string }
  | { reason: 'UnsupportedKind'; message: string };

/** The service account user name of upstream's serviceaccount.MakeUsername. */
export const serviceAccountUsername = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;

const userKey = (name: string) => `u:${name}`;
const groupKey = (name: string) => `g:${name}`;

/** One binding as the index sees it: which subject keys it names, and the subjects it cannot honour. */
interface Entry {
  binding: Binding;
  /** Subject key -> index of the first subject with that key (upstream describes the first that applies). */
  matches: Map<string, number>;
  /** Subject key -> errors reported to that user (a User or Group given a namespace). */
  keyedErrors: Map<string, string[]>;
  /** Errors reported whoever asks (a subject of a kind RBAC does not know). */
  errors: string[];
}

/** The bindings of one scope: the cluster (ClusterRoleBindings) or one namespace (RoleBindings). */
class Scope {
  readonly entries = new Map<string, Entry>();
  private readonly byKey = new Map<string, Set<string>>();
  private readonly withErrors = new Set<string>();

  add(name: string, entry: Entry): void {
    this.remove(name);
    this.entries.set(name, entry);
    for (const key of [...entry.matches.keys(), ...entry.keyedErrors.keys()]) {
      let set = this.byKey.get(key);
      if (!set) this.byKey.set(key, (set = new Set()));
      set.add(name);
    }
    if (entry.errors.length > 0) this.withErrors.add(name);
  }

  remove(name: string): void {
    const old = this.entries.get(name);
    if (!old) return;
    this.entries.delete(name);
    for (const key of [...old.matches.keys(), ...old.keyedErrors.keys()]) {
      const set = this.byKey.get(key);
      set?.delete(name);
      if (set?.size === 0) this.byKey.delete(key);
    }
    this.withErrors.delete(name);
  }

  /** Names of the bindings that may concern a user with these keys, in name order for stable answers. */
  candidates(keys: readonly string[]): string[] {
    const names = new Set(this.withErrors);
    for (const k of keys) for (const n of this.byKey.get(k) ?? []) names.add(n);
    return [...names].sort();
  }

  get size(): number {
    return this.entries.size;
  }
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${JSON.stringify(s.name)}`;
}

function describeBinding(b: Binding, namespace: string): string {
  return namespace ? `RoleBinding ${JSON.stringify(`${b.metadata?.name ?? ''}/${namespace}`)}` : `ClusterRoleBinding ${JSON.stringify(b.metadata?.name ?? '')}`;
}

/** Upstream's utilerrors aggregate: one message alone, several de-duplicated in brackets. */
export function aggregateMessage(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  if (unique.length === 0) return '';
  if (unique.length === 1) return unique[0]!;
  return `[${unique.join(', ')}]`;
}

export class RbacIndex {
  private readonly roles = new Map<string, Role>();
  private readonly clusterRoles = new Map<string, ClusterRole>();
  private readonly cluster = new Scope();
  private readonly namespaces = new Map<string, Scope>();

  /** `rbacGroup` is rbac.authorization.<domain>, which upstream's not-found messages name. */
  constructor(private readonly rbacGroup: string) {}

  /** Applies one change event of one kind. */
  apply(kind: RbacKind, type: RbacEventType, obj: Role | ClusterRole | RoleBinding | ClusterRoleBinding): void {
    const name = obj.metadata?.name ?? '';
    const namespace = obj.metadata?.namespace ?? '';
    const deleted = type === 'DELETED';
    switch (kind) {
      case 'Role':
        if (deleted) this.roles.delete(`${namespace}/${name}`);
        else this.roles.set(`${namespace}/${name}`, obj as Role);
        break;
      case 'ClusterRole':
        if (deleted) this.clusterRoles.delete(name);
        else this.clusterRoles.set(name, obj as ClusterRole);
        break;
      case 'ClusterRoleBinding':
        if (deleted) this.cluster.remove(name);
        else this.cluster.add(name, this.entryOf(obj as Binding, ''));
        break;
      case 'RoleBinding': {
        let scope = this.namespaces.get(namespace);
        if (deleted) {
          scope?.remove(name);
          if (scope?.size === 0) this.namespaces.delete(namespace);
        } else {
          if (!scope) this.namespaces.set(namespace, (scope = new Scope()));
          scope.add(name, this.entryOf(obj as Binding, namespace));
        }
        break;
      }
    }
  }

  /** An ObjectCache onChange callback feeding one kind into the index. */
  handler(kind: RbacKind): (type: RbacEventType, obj: unknown) => void {
    return (type, obj) => this.apply(kind, type, obj as Role);
  }

  getRole(namespace: string, name: string): Role | undefined {
    return this.roles.get(`${namespace}/${name}`);
  }

  getClusterRole(name: string): ClusterRole | undefined {
    return this.clusterRoles.get(name);
  }

  listClusterRoles(): ClusterRole[] {
    return [...this.clusterRoles.values()];
  }

  /** The rules a roleRef grants in a binding of `bindingNamespace` ('' for a ClusterRoleBinding). */
  roleReferenceRules(ref: RoleRef, bindingNamespace: string): { rules: PolicyRule[] } | { failure: RoleRefFailure } {
    switch (ref.kind) {
      case 'Role': {
        const role = this.getRole(bindingNamespace, ref.name);
        if (!role) return { failure: { reason: 'NotFound', resource: 'roles', name: ref.name, message: `role.${this.rbacGroup} ${JSON.stringify(ref.name)} not found` } };
        return { rules: role.rules ?? [] };
      }
      case 'ClusterRole': {
        const role = this.getClusterRole(ref.name);
        if (!role) return { failure: { reason: 'NotFound', resource: 'clusterroles', name: ref.name, message: `clusterrole.${this.rbacGroup} ${JSON.stringify(ref.name)} not found` } };
        return { rules: role.rules ?? [] };
      }
      default:
        return { failure: { reason: 'UnsupportedKind', message: `unsupported role reference kind: ${JSON.stringify(ref.kind)}` } };
    }
  }

  /**
   * Walks every rule granted to `user` cluster-wide and, when `namespace` is set, in that
   * namespace, with every error met on the way: ClusterRoleBindings first, then RoleBindings.
   */
  visitRulesFor(user: RbacUser, namespace: string, visit: RuleVisitor): void {
    const keys = [userKey(user.name), ...user.groups.map(groupKey)];
    if (!this.visitScope(this.cluster, '', keys, visit)) return;
    if (namespace) {
      const scope = this.namespaces.get(namespace);
      if (scope) this.visitScope(scope, namespace, keys, visit);
    }
  }

  /** Every rule that applies, and the evaluation errors (rules are additive: those found still hold). */
  rulesFor(user: RbacUser, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_s, rule, err) => {
      if (rule) rules.push(rule);
      if (err) errors.push(err);
      return true;
    });
    return { rules, errors };
  }

  private visitScope(scope: Scope, namespace: string, keys: readonly string[], visit: RuleVisitor): boolean {
    for (const name of scope.candidates(keys)) {
      const entry = scope.entries.get(name)!;
      for (const err of entry.errors) if (!visit(undefined, undefined, err)) return false;
      let first = Infinity;
      for (const k of keys) {
        for (const err of entry.keyedErrors.get(k) ?? []) if (!visit(undefined, undefined, err)) return false;
        const i = entry.matches.get(k);
        if (i !== undefined && i < first) first = i;
      }
      if (first === Infinity) continue;
      const resolved = this.roleReferenceRules(entry.binding.roleRef, namespace);
      if ('failure' in resolved) {
        if (!visit(undefined, undefined, resolved.failure.message)) return false;
        continue;
      }
      const b = entry.binding;
      const subject = b.subjects![first]!;
      const source: RuleSource = {
        toString: () => `${describeBinding(b, namespace)} of ${b.roleRef.kind} ${JSON.stringify(b.roleRef.name)} to ${describeSubject(subject, namespace)}`,
      };
      for (const rule of resolved.rules) if (!visit(source, rule, undefined)) return false;
    }
    return true;
  }

  private entryOf(binding: Binding, namespace: string): Entry {
    const entry: Entry = { binding, matches: new Map(), keyedErrors: new Map(), errors: [] };
    const where = describeBinding(binding, namespace);
    const addError = (key: string, msg: string) => {
      const list = entry.keyedErrors.get(key) ?? [];
      list.push(msg);
      entry.keyedErrors.set(key, list);
    };
    (binding.subjects ?? []).forEach((s, i) => {
      let key: string | undefined;
      switch (s.kind) {
        case 'User':
        case 'Group':
          key = s.kind === 'User' ? userKey(s.name) : groupKey(s.name);
          // The API reference says a namespaced User or Group is an error for the authorizer to
          // report; it grants nothing rather than being read as the bare name.
          if (s.namespace) {
            addError(key, `${where}: ${s.kind} subject ${JSON.stringify(s.name)} must not have a namespace (found ${JSON.stringify(s.namespace)})`);
            return;
          }
          break;
        case 'ServiceAccount': {
          const ns = s.namespace || namespace;
          if (!ns) return; // upstream: a service account without any namespace names no one
          key = userKey(serviceAccountUsername(ns, s.name));
          break;
        }
        default:
          entry.errors.push(`${where}: unsupported subject kind: ${JSON.stringify(s.kind)}`);
          return;
      }
      if (!entry.matches.has(key)) entry.matches.set(key, i);
    });
    return entry;
  }
}
