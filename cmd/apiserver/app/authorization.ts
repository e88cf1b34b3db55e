// Builds authorization from the flags (--authorization-mode and the webhook flags): system:masters
// first, then each mode in order (AlwaysAllow, AlwaysDeny, RBAC, Node, Webhook). RBAC decides from
// an in-memory index of roles and bindings that in-process caches keep current, and the bootstrap
// policy is reconciled into the store once the server runs. Node decides from a graph of what each
// node's pods refer to, fed by the shared pod and PersistentVolume caches.
import type { ApiDomain } from '../../../api/domain.js';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { rbacGroup } from '../../../api/rbac/v1/register.js';
import { buildAuthorizationChain, completeAuthorizationOptions, ModeNode, ModeRBAC, ModeWebhook, type AuthorizationOptions, type ModeAuthorizer } from '../../../pkg/authorization/modes.js';
import { NodeAuthorizer } from '../../../pkg/authorization/node/authorizer.js';
import { Graph } from '../../../pkg/authorization/node/graph.js';
import { GraphPopulator } from '../../../pkg/authorization/node/graph-populator.js';
import type { Authorizer, RuleResolver } from '../../../pkg/authorization/authorizer.js';
import { RbacAuthorizer } from '../../../pkg/authorization/rbac/authorizer.js';
import { checkBindingWrite as checkRoleBindingWrite, checkRoleWrite, type AuthorizeFn, type BindingWrite, type RoleWrite } from '../../../pkg/authorization/rbac/escalation.js';
import type { WriteCheck } from '../../../pkg/endpoints/write-admission.js';
import type { ResourceInfo } from '../../../pkg/runtime/scheme.js';
import { bootstrapPolicy, autoupdateAnnotation, nodeRules } from '../../../pkg/authorization/rbac/bootstrap-policy.js';
import { RbacIndex, type RbacKind } from '../../../pkg/authorization/rbac/index.js';
import { aggregateAll, reconcileBinding, reconcileRole, type ReconcileResult } from '../../../pkg/authorization/rbac/reconcile.js';
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import { webhookAuthorizerFromOptions } from '../../../pkg/authorization/webhook/authorizer.js';
import type { Logger } from '../../../pkg/log/logger.js';
import type { AnswerCacheFactory } from '../../../pkg/util/cache/answer-cache.js';
import { ObjectCache } from '../../../pkg/registry/generic/object-cache.js';
import type { Store } from '../../../pkg/registry/generic/store.js';
import type { StoredObject } from '../../../pkg/storage/interface.js';
import { admissionRegistrationGroup } from '../../../api/admissionregistration/v1/register.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../api/admissionregistration/v1/validating-admission-policy.js';
import { checkBindingWrite, checkPolicyWrite, type PolicyAuthorizationDeps } from '../../../pkg/registry/admissionregistration/policy-authorization.js';
import type { SharedCaches } from './caches.js';

export interface Authorization {
  authorizer: Authorizer;
  ruleResolver: RuleResolver;
  /** The RBAC index when RBAC is a mode (escalation checks read it). */
  rbac?: RbacIndex;
  /** The checks writes of a resource must pass: RBAC's escalation prevention for roles and bindings. */
  writeChecks(resource: ResourceInfo): WriteCheck | undefined;
  /** Writes the bootstrap policy (RBAC only); a post-start step. */
  reconcileBootstrapPolicy(): Promise<void>;
  stop(): Promise<void>;
}

export interface AuthorizationDeps {
  domain: ApiDomain;
  /** Stores by `<group>/<resource>`. */
  stores: ReadonlyMap<string, Store>;
  /** The shared pod and PersistentVolume caches the Node authorizer's graph is fed from. */
  caches: SharedCaches;
  /** Where the Webhook mode keeps its answers (with --workers, the cache every thread shares). */
  answerCaches: AnswerCacheFactory;
  logger: Logger;
}

const rbacResources: [RbacKind, string][] = [['Role', 'roles'], ['ClusterRole', 'clusterroles'], ['RoleBinding', 'rolebindings'], ['ClusterRoleBinding', 'clusterrolebindings']];

export async function buildAuthorization(options: AuthorizationOptions, deps: AuthorizationDeps): Promise<Authorization> {
  const o = completeAuthorizationOptions(options);
  const { domain, logger } = deps;
  const group = rbacGroup(domain);
  const caches: ObjectCache[] = [];
  let rbac: RbacIndex | undefined;
  if (o.modes.includes(ModeRBAC)) {
    const index = new RbacIndex(group);
    for (const [kind, resource] of rbacResources) {
      const store = deps.stores.get(`${group}/${resource}`);
      if (!store) throw new Error(`--authorization-mode=RBAC needs ${resource}.${group}, which --runtime-config turned off`);
      const onChange = index.handler(kind);
      const cache = new ObjectCache(store, {
        onChange: (type, obj) => onChange(type, obj),
        onError: (err) => logger.warn('an RBAC cache lost its watch; it resumes', { resource, err: err instanceof Error ? err.message : String(err) }),
      });
      caches.push(cache);
      await cache.start();
    }
    rbac = index;
  }
  const constructors: Record<string, () => ModeAuthorizer> = {};
  if (rbac) {
    const rbacAuthorizer = new RbacAuthorizer(rbac);
    constructors[ModeRBAC] = () => ({
      authorize: async (a) => rbacAuthorizer.authorize({ ...a, user: a.user ?? { name: '', groups: [], extra: {} } }),
      rulesFor: async (user, namespace) => rbacAuthorizer.rulesFor(user ?? { name: '', groups: [], extra: {} }, namespace),
    });
  }
  if (o.modes.includes(ModeNode)) {
    const graph = await nodeGraph(deps);
    const authorizer = new NodeAuthorizer({
      graph, rules: nodeRules(domain), coordinationGroup: domain.group('coordination'), storageGroup: domain.group('storage'), logger,
    });
    constructors[ModeNode] = () => authorizer;
  }
  if (o.modes.includes(ModeWebhook)) constructors[ModeWebhook] = () => webhookAuthorizerFromOptions(o, domain, deps.answerCaches);
  const chain = buildAuthorizationChain(o.modes, constructors);
  logger.info('authorization configured', { modes: o.modes.join(',') });
  // `escalate` and `bind` are asked of the whole chain, as upstream's policy-based RBAC storage does.
  const authorize: AuthorizeFn = async (a) => (await chain.authorizer.authorize({
    user: { name: a.user.name, groups: [...a.user.groups], extra: {} }, verb: a.verb, namespace: a.namespace ?? '', apiGroup: a.apiGroup ?? '',
    apiVersion: a.apiVersion ?? '*', resource: a.resource ?? '', subresource: a.subresource ?? '', name: a.name ?? '', isResourceRequest: a.isResourceRequest, path: a.path ?? '',
  })).decision === 'allow';
  const nobody = { name: '', groups: [] };
  const policyDeps = policyAuthorizationDeps(domain, deps.stores, chain.authorizer);
  return {
    authorizer: chain.authorizer,
    ruleResolver: chain.ruleResolver,
    ...(rbac ? { rbac } : {}),
    writeChecks: (info) => {
      if (info.group === policyDeps.group) return policyWriteCheck(policyDeps, info.resource);
      if (!rbac || info.group !== group) return undefined;
      const index = rbac;
      switch (info.resource) {
        case 'roles':
        case 'clusterroles': {
          const resource = info.resource;
          return async ({ user, namespace, obj, old }) => checkRoleWrite({
            index, authorize, user: user ?? nobody, apiGroup: group, resource, namespace, object: obj as RoleWrite['object'], ...(old ? { old } : {}),
          });
        }
        case 'rolebindings':
        case 'clusterrolebindings': {
          const resource = info.resource;
          return async ({ user, namespace, obj, old }) => checkRoleBindingWrite({
            index, authorize, user: user ?? nobody, apiGroup: group, resource, namespace, object: obj as BindingWrite['object'], ...(old ? { old } : {}),
          });
        }
        default:
          return undefined;
      }
    },
    reconcileBootstrapPolicy: async () => {
      if (rbac) await reconcilePolicy(domain, deps.stores, logger);
    },
    stop: async () => {
      await Promise.all(caches.map((c) => c.stop()));
    },
  };
}

/** What the checks of writes of policies and bindings read: the authorizer chain, the served kinds, the stored policies. */
function policyAuthorizationDeps(domain: ApiDomain, stores: ReadonlyMap<string, Store>, authorizer: Authorizer): PolicyAuthorizationDeps {
  const group = admissionRegistrationGroup(domain);
  return {
    group,
    authorize: async (user, c) => (await authorizer.authorize({
      user, verb: c.verb, namespace: c.namespace, apiGroup: c.apiGroup, apiVersion: c.apiVersion, resource: c.resource,
      subresource: '', name: c.name, isResourceRequest: true, path: '',
    })).decision === 'allow',
    resourceFor: (g, _version, kind) => [...stores.values()].find((s) => s.info.group === g && s.info.kind === kind && !s.info.virtual)?.info.resource,
    policy: async (name) => {
      try {
        return (await stores.get(`${group}/validatingadmissionpolicies`)?.get('', name)) as unknown as ValidatingAdmissionPolicy | undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** The parameter checks of writes of policies and bindings (undefined for other resources of the group). */
function policyWriteCheck(deps: PolicyAuthorizationDeps, resource: string): WriteCheck | undefined {
  const nobody = { name: '', groups: [], extra: {} };
  // The store hands over objects decoded and validated as their kind, which makes the casts sound.
  if (resource === 'validatingadmissionpolicies') {
    return ({ user, obj, old }) => checkPolicyWrite(deps, user ?? nobody, obj as unknown as ValidatingAdmissionPolicy, old as unknown as ValidatingAdmissionPolicy | null);
  }
  if (resource === 'validatingadmissionpolicybindings') {
    return ({ user, obj, old }) => checkBindingWrite(deps, user ?? nobody, obj as unknown as ValidatingAdmissionPolicyBinding, old as unknown as ValidatingAdmissionPolicyBinding | null);
  }
  return undefined;
}

/** The Node authorizer's graph, once it holds every pod and PersistentVolume the caches listed. */
async function nodeGraph({ caches, domain }: AuthorizationDeps): Promise<Graph> {
  const graph = new Graph();
  const populator = new GraphPopulator(graph, domain);
  const pods = caches.get('', 'pods');
  const pvs = caches.get('', 'persistentvolumes');
  if (!pods || !pvs) throw new Error('--authorization-mode=Node needs pods and persistentvolumes, which --runtime-config turned off');
  // The caches hold objects decoded and validated as their kind, which is what makes the casts sound.
  pods.subscribe((type, obj, old) => populator.pod(type, obj as unknown as Pod, old as unknown as Pod | undefined));
  pvs.subscribe((type, obj) => populator.persistentVolume(type, obj as unknown as PersistentVolume));
  await Promise.all([caches.synced('', 'pods'), caches.synced('', 'persistentvolumes')]);
  return graph;
}

/**
 * Writes upstream's bootstrap roles and bindings: missing ones are created, missing rules and
 * subjects added, extra ones kept, nothing touched where `rbac.authorization.<domain>/autoupdate`
 * is "false"; aggregated ClusterRoles get their rules from the roles their selectors pick.
 */
async function reconcilePolicy(domain: ApiDomain, stores: ReadonlyMap<string, Store>, logger: Logger): Promise<void> {
  const group = rbacGroup(domain);
  const policy = bootstrapPolicy(domain);
  const key = autoupdateAnnotation(domain);
  const storeOf = (resource: string) => stores.get(`${group}/${resource}`)!;
  await reconcileEach(storeOf('clusterroles'), policy.clusterRoles, reconcileRole, key, logger);
  await reconcileEach(storeOf('clusterrolebindings'), policy.clusterRoleBindings, reconcileBinding, key, logger);
  await reconcileEach(storeOf('roles'), policy.roles, reconcileRole, key, logger);
  await reconcileEach(storeOf('rolebindings'), policy.roleBindings, reconcileBinding, key, logger);
  // Aggregation at start; the controller manager keeps it current afterwards.
  const clusterRoles = storeOf('clusterroles');
  const all = (await clusterRoles.list('', {})).items as unknown as ClusterRole[];
  for (const updated of aggregateAll(all)) {
    await clusterRoles.update('', updated.metadata!.name!, async (current) => ({ ...current!, rules: updated.rules }));
  }
  logger.info('bootstrap RBAC policy reconciled', { clusterRoles: policy.clusterRoles.length, clusterRoleBindings: policy.clusterRoleBindings.length });
}

interface Named {
  metadata?: { name?: string; namespace?: string };
}

/** Creates, updates or re-creates each expected object of one store as `reconcile` decides. */
async function reconcileEach<T extends Named>(
  store: Store, expected: readonly T[], reconcile: (e: T, x: T | undefined, key: string) => ReconcileResult<T>, key: string, logger: Logger,
): Promise<void> {
  for (const e of expected) {
    // Other API servers (other --workers processes) reconcile the same objects at the same time:
    // losing a race (created or deleted meanwhile) means reading the object again, not failing.
    for (let attempt = 1; ; attempt++) {
      try {
        await reconcileOne(store, e, reconcile, key, logger);
        break;
      } catch (err) {
        const code = (err as { code?: number }).code;
        if ((code !== 409 && code !== 404) || attempt >= 5) throw err;
      }
    }
  }
}

async function reconcileOne<T extends Named>(store: Store, e: T, reconcile: (e: T, x: T | undefined, key: string) => ReconcileResult<T>, key: string, logger: Logger): Promise<void> {
  // The store holds objects decoded and validated as its kind, which is what makes the casts sound.
  const toStored = (o: T) => o as unknown as StoredObject;
  const resource = store.info.resource;
  const ns = e.metadata?.namespace ?? '';
  const name = e.metadata?.name ?? '';
  const existing = await store.get(ns, name).then((o) => o as unknown as T, (err: unknown) => ((err as { code?: number }).code === 404 ? undefined : Promise.reject(err)));
  const r = reconcile(e, existing, key);
  switch (r.operation) {
    case 'create':
      await store.create(ns, toStored(r.object));
      logger.v(2).info('created bootstrap RBAC object', { resource, namespace: ns, name });
      break;
    case 'update':
      await store.update(ns, name, async () => toStored(r.object));
      logger.info('updated bootstrap RBAC object', { resource, namespace: ns, name });
      break;
    case 'recreate':
      await store.delete(ns, name);
      await store.create(ns, toStored(r.object));
      logger.info('recreated bootstrap RBAC object (its roleRef changed)', { resource, namespace: ns, name });
      break;
    case 'none':
      break;
  }
}
