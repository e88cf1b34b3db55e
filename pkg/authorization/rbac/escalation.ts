// Privilege escalation prevention for writes of roles and bindings (upstream's policybased
// storages in pkg/registry/rbac): nobody may grant, by writing a role or a binding, a permission
// they do not hold themselves, unless explicitly allowed to `escalate` that role or to `bind`
// the role referenced. Pure functions over the index and an authorizer callback; the registry
// calls them before writing and turns the thrown StatusError into the response.
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import type { PolicyRule } from '../../../api/rbac/v1/policy-rule.js';
import type { RoleRef } from '../../../api/rbac/v1/role-ref.js';
import { newForbidden, newNotFound, StatusError } from '../../runtime/errors.js';
import { MastersGroup } from '../../runtime/user.js';
import { aggregateMessage, type RbacIndex } from './index.js';
import { compactRules, compactString, covers, goQuotedList, type RbacAttributes, type RbacUser } from './rules.js';

/** Asks the configured authorizer chain; true only for an explicit allow. */
export type AuthorizeFn = (attributes: RbacAttributes & { apiVersion?: string }) => boolean | Promise<boolean>;

/** Everything, resource and non-resource: what setting an aggregationRule requires. */
const fullAuthority: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** system:masters is trusted (the server's loopback identity is one), as upstream's EscalationAllowed. */
export function escalationAllowed(user: RbacUser): boolean {
  return user.groups.includes(MastersGroup);
}

/**
 * Why `user` may not grant `rules` in `namespace` ('' cluster-wide): upstream's
 * ConfirmNoEscalation message listing each missing permission, or undefined when every one is held.
 */
export function confirmNoEscalation(index: RbacIndex, user: RbacUser, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const { rules: owned, errors } = index.rulesFor(user, namespace);
  const result = covers(owned, rules);
  if (result.covers) return undefined;
  const missing = [...new Set(compactRules(result.uncovered).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.name)} (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${missing.join('\n')}`;
  if (errors.length > 0) msg += `; resolution errors: [${aggregateMessage(errors)}]`;
  return msg;
}

/**
 * Whether an update changes only what the garbage collector writes (owner references and
 * finalizers), which never needs the escalation check (upstream's IsOnlyMutatingGCFields).
 */
export function isOnlyMutatingGCFields(obj: { metadata?: object }, old: { metadata?: object } | undefined): boolean {
  if (!old) return false;
  const copy = structuredClone(obj) as { metadata?: Record<string, unknown> };
  const oldMeta = (old.metadata ?? {}) as Record<string, unknown>;
  copy.metadata = { ...(copy.metadata ?? {}) };
  for (const k of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields']) {
    if (oldMeta[k] === undefined) delete copy.metadata[k];
    else copy.metadata[k] = oldMeta[k];
  }
  return semanticEqual(copy, old);
}

/** Deep equality where absent, null, empty lists and empty maps are the same, as Go's semantic equality. */
function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    return true;
  }
  return a === b;
}

const hasAggregationRule = (r: { aggregationRule?: ClusterRole['aggregationRule'] } | undefined) =>
  (r?.aggregationRule?.clusterRoleSelectors ?? []).length > 0;

export interface RoleWrite {
  index: RbacIndex;
  authorize: AuthorizeFn;
  user: RbacUser;
  /** rbac.authorization.<domain>. */
  apiGroup: string;
  resource: 'roles' | 'clusterroles';
  /** The request's namespace ('' for ClusterRoles). */
  namespace: string;
  /** The object to write (a Role or ClusterRole). */
  object: { metadata?: { name?: string }; rules?: PolicyRule[]; aggregationRule?: ClusterRole['aggregationRule'] };
  /** The stored object, on update. */
  old?: { metadata?: object; aggregationRule?: ClusterRole['aggregationRule'] };
}

/** Throws 403 when writing this Role or ClusterRole would grant permissions its writer lacks. */
export async function checkRoleWrite(w: RoleWrite): Promise<void> {
  if (escalationAllowed(w.user)) return;
  const name = w.object.metadata?.name ?? '';
  // The explicit grant is asked first, as upstream: holding `escalate` skips every other check.
  const mayEscalate = await w.authorize({
    user: w.user, verb: 'escalate', apiGroup: w.apiGroup, apiVersion: '*', resource: w.resource,
    name, namespace: w.namespace, isResourceRequest: true,
  });
  if (mayEscalate) return;
  if (w.old && isOnlyMutatingGCFields(w.object, w.old)) return;
  const gr = { group: w.apiGroup, resource: w.resource };
  const why = confirmNoEscalation(w.index, w.user, w.namespace, w.object.rules ?? []);
  if (why) throw newForbidden(gr, name, why);
  if (w.resource === 'clusterroles' && (hasAggregationRule(w.object) || hasAggregationRule(w.old))) {
    // An aggregation rule can gather anything, so only someone holding everything may set or change it.
    if (confirmNoEscalation(w.index, w.user, w.namespace, fullAuthority)) {
      throw newForbidden(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  }
}

export interface BindingWrite {
  index: RbacIndex;
  authorize: AuthorizeFn;
  user: RbacUser;
  apiGroup: string;
  resource: 'rolebindings' | 'clusterrolebindings';
  /** The binding's namespace ('' for ClusterRoleBindings). */
  namespace: string;
  object: { metadata?: { name?: string }; roleRef: RoleRef };
  old?: { metadata?: object };
}

/**
 * Throws 403 when this binding would grant a role its writer may not `bind` and whose permissions
 * the writer does not all hold in the binding's namespace (cluster-wide for ClusterRoleBindings),
 * and 404 when the role referenced does not exist for such a writer.
 */
export async function checkBindingWrite(w: BindingWrite): Promise<void> {
  if (escalationAllowed(w.user)) return;
  if (w.old && isOnlyMutatingGCFields(w.object, w.old)) return;
  const name = w.object.metadata?.name ?? '';
  const ref = w.object.roleRef;
  if (ref.kind === 'ClusterRole' || ref.kind === 'Role') {
    // bind is asked in the binding's namespace, so a namespace admin may be delegated the right
    // to bind a particular ClusterRole there only.
    const mayBind = await w.authorize({
      user: w.user, verb: 'bind', apiGroup: ref.apiGroup, resource: ref.kind === 'ClusterRole' ? 'clusterroles' : 'roles',
      name: ref.name, namespace: w.namespace, isResourceRequest: true,
    });
    if (mayBind) return;
  }
  const resolved = w.index.roleReferenceRules(ref, w.namespace);
  if ('failure' in resolved) {
    const f = resolved.failure;
    if (f.reason === 'NotFound') throw newNotFound({ group: w.apiGroup, resource: f.resource }, f.name);
    throw new StatusError(500, 'InternalError', f.message);
  }
  const why = confirmNoEscalation(w.index, w.user, w.namespace, resolved.rules);
  if (why) throw newForbidden({ group: w.apiGroup, resource: w.resource }, name, why);
}
