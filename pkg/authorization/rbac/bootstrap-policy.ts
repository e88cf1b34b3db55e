// The roles and bindings the API server keeps in place at start (upstream's bootstrappolicy:
// policy.go, controller_policy.go, namespace_policy.go, as kube-apiserver 1.30 renders them), with
// every k8s.io group, kubernetes.io key and kube-system/kube-public namespace replaced by ours.
// Data only; reconcile.ts decides what to write.
import type { ApiDomain } from '../../../api/domain.js';
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import type { ClusterRoleBinding } from '../../../api/rbac/v1/cluster-role-binding.js';
import type { PolicyRule } from '../../../api/rbac/v1/policy-rule.js';
import type { Role } from '../../../api/rbac/v1/role.js';
import type { RoleBinding } from '../../../api/rbac/v1/role-binding.js';
import type { Subject } from '../../../api/rbac/v1/subject.js';
import { AnonymousUser, AuthenticatedGroup, MastersGroup, UnauthenticatedGroup } from '../../runtime/user.js';
import { rbacGroup } from '../../../api/rbac/v1/register.js';

export interface BootstrapPolicy {
  clusterRoles: ClusterRole[];
  clusterRoleBindings: ClusterRoleBinding[];
  roles: Role[];
  roleBindings: RoleBinding[];
}

export interface BootstrapOptions {
  /** Upstream's kube-system: where the controllers' service accounts live. */
  systemNamespace?: string;
  /** Upstream's kube-public: readable by anyone, holding the cluster-info ConfigMap. */
  publicNamespace?: string;
}

/** The Role and RoleBinding letting system:anonymous get cluster-info (kubeadm's kubeadm:bootstrap-signer-clusterinfo). */
export const clusterInfoReaderName = 'system:bootstrap-signer-clusterinfo';

/** The ConfigMap in the system namespace where the API server publishes how it authenticates (upstream's name). */
export const extensionAuthenticationConfigMapName = 'extension-apiserver-authentication';
/** The Role that reads it, which extension API servers are bound to. */
export const extensionAuthenticationReaderName = 'extension-apiserver-authentication-reader';

const Read = ['get', 'list', 'watch'];
const ReadWrite = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const Write = ['create', 'update', 'patch', 'delete', 'deletecollection'];

/** The annotation by which an operator stops reconciliation of one object (value "false"). */
export const autoupdateAnnotation = (d: ApiDomain) => d.key('autoupdate', 'rbac.authorization');
/** The label every bootstrap object carries. */
export const bootstrappingLabel = (d: ApiDomain) => d.key('bootstrapping');
/** aggregate-to-admin|edit|view: the labels the aggregated roles select. */
export const aggregateLabel = (d: ApiDomain, to: 'admin' | 'edit' | 'view') => `${rbacGroup(d)}/aggregate-to-${to}`;

const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  ({ verbs: [...verbs], apiGroups: [...apiGroups], resources: [...resources], ...(resourceNames ? { resourceNames: [...resourceNames] } : {}) });
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs: [...verbs], nonResourceURLs: [...nonResourceURLs] });

/**
 * What every node agent may do (upstream's NodeRules, 1.30): the rules of the system:node
 * ClusterRole, and the static rules of the Node authorizer for the requests its graph does not
 * decide. The NodeRestriction admission plug-in narrows the writes to the node's own objects.
 */
export function nodeRules(d: ApiDomain): PolicyRule[] {
  const g = (prefix: string) => d.group(prefix);
  return [
    rule(['create'], [g('authentication')], ['tokenreviews']),
    rule(['create'], [g('authorization')], ['localsubjectaccessreviews', 'subjectaccessreviews']),
    rule(Read, [''], ['services']),
    rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['patch', 'update'], [''], ['nodes']),
    rule(['create', 'patch', 'update'], [''], ['events']),
    rule(Read, [''], ['pods']),
    rule(['create', 'delete'], [''], ['pods']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(['create'], [''], ['pods/eviction']),
    rule(Read, [''], ['configmaps', 'secrets']),
    rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], [''], ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], [g('certificates')], ['certificatesigningrequests']),
    rule(['create', 'delete', 'get', 'patch', 'update'], [g('coordination')], ['leases']),
    rule(['get'], [g('storage')], ['volumeattachments']),
    rule(['create'], [''], ['serviceaccounts/token']),
    rule(['get', 'patch', 'update'], [''], ['persistentvolumeclaims/status']),
    rule(Read, [g('storage')], ['csidrivers']),
    rule(['create', 'delete', 'get', 'patch', 'update'], [g('storage')], ['csinodes']),
    rule(Read, [g('node')], ['runtimeclasses']),
  ];
}

export function bootstrapPolicy(d: ApiDomain, opts: BootstrapOptions = {}): BootstrapPolicy {
  const systemNs = opts.systemNamespace ?? 'orch-system';
  const publicNs = opts.publicNamespace ?? 'orch-public';
  const g = (prefix: string) => d.group(prefix);
  const rbac = rbacGroup(d);
  const authn = g('authentication');
  const authz = g('authorization');
  const certs = g('certificates');
  const coordination = g('coordination');
  const events = g('events');
  const discovery = g('discovery');
  const networking = g('networking');
  const storage = g('storage');
  const eventsRule = rule(['create', 'update', 'patch'], ['', events], ['events']);
  const signer = (name: string) => d.key(name);
  const meta = (name: string, extraLabels: Record<string, string> = {}) => ({
    name,
    labels: { [bootstrappingLabel(d)]: 'rbac-defaults', ...extraLabels },
    annotations: { [autoupdateAnnotation(d)]: 'true' },
  });
  const cr = (name: string, rules: PolicyRule[], labels?: Record<string, string>): ClusterRole => ({ metadata: meta(name, labels), rules });
  const aggregated = (name: string, to: 'admin' | 'edit' | 'view', labels?: Record<string, string>): ClusterRole => ({
    metadata: meta(name, labels),
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [aggregateLabel(d, to)]: 'true' } }] },
  });
  const user = (name: string): Subject => ({ kind: 'User', apiGroup: rbac, name });
  const group = (name: string): Subject => ({ kind: 'Group', apiGroup: rbac, name });
  const sa = (name: string, namespace = systemNs): Subject => ({ kind: 'ServiceAccount', name, namespace });
  const crb = (role: string, subjects: Subject[], name = role): ClusterRoleBinding => ({
    metadata: meta(name), roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: role }, subjects,
  });

  const clusterRoles: ClusterRole[] = [
    cr('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    cr('system:discovery', [urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'])]),
    cr('system:monitoring', [urls(['get'], ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'])]),
    cr('system:basic-user', [
      rule(['create'], [authz], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], [authn], ['selfsubjectreviews']),
    ]),
    cr('system:public-info-viewer', [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])]),
    aggregated('admin', 'admin'),
    aggregated('edit', 'edit', { [aggregateLabel(d, 'admin')]: 'true' }),
    aggregated('view', 'view', { [aggregateLabel(d, 'edit')]: 'true' }),
    cr('system:aggregate-to-admin', [
      rule(['create'], [authz], ['localsubjectaccessreviews']),
      rule(ReadWrite, [rbac], ['rolebindings', 'roles']),
    ], { [aggregateLabel(d, 'admin')]: 'true' }),
    cr('system:aggregate-to-edit', [
      rule(Read, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(Write, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [''], ['pods/eviction']),
      rule(Write, [''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale',
        'secrets', 'serviceaccounts', 'services', 'services/proxy']),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(Write, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale',
        'statefulsets', 'statefulsets/scale']),
      rule(Write, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(Write, ['batch'], ['cronjobs', 'jobs']),
      rule(Write, ['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies',
        'replicasets', 'replicasets/scale', 'replicationcontrollers/scale']),
      rule(Write, ['policy'], ['poddisruptionbudgets']),
      rule(Write, [networking], ['ingresses', 'networkpolicies']),
      rule(ReadWrite, [coordination], ['leases']),
    ], { [aggregateLabel(d, 'edit')]: 'true' }),
    cr('system:aggregate-to-view', [
      rule(Read, [''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers',
        'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
      rule(Read, [''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status',
        'resourcequotas', 'resourcequotas/status']),
      rule(Read, [''], ['namespaces']),
      rule(Read, [discovery], ['endpointslices']),
      rule(Read, ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status',
        'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
      rule(Read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(Read, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(Read, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses',
        'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale']),
      rule(Read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(Read, [networking], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ], { [aggregateLabel(d, 'view')]: 'true' }),
    cr('system:auth-delegator', [
      rule(['create'], [authn], ['tokenreviews']),
      rule(['create'], [authz], ['subjectaccessreviews']),
    ]),
    cr('system:node', nodeRules(d)),
    cr('system:node-proxier', [
      rule(['list', 'watch'], [''], ['endpoints', 'services']),
      rule(Read, [''], ['nodes']),
      eventsRule,
      rule(['list', 'watch'], [discovery], ['endpointslices']),
    ]),
    cr('system:node-bootstrapper', [rule(['create', 'get', 'list', 'watch'], [certs], ['certificatesigningrequests'])]),
    cr('system:kube-controller-manager', [
      eventsRule,
      rule(['create'], [coordination], ['leases']),
      // Upstream's kube-controller-manager lease is ours orch-controller-manager.
      rule(['get', 'update'], [coordination], ['leases'], ['orch-controller-manager']),
      rule(['create'], [''], ['secrets', 'serviceaccounts']),
      rule(['delete'], [''], ['secrets']),
      rule(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
      rule(['update'], [''], ['secrets', 'serviceaccounts']),
      rule(['create'], [authn], ['tokenreviews']),
      rule(['create'], [authz], ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [''], ['serviceaccounts/token']),
    ]),
    cr('system:kube-scheduler', [
      eventsRule,
      rule(['create'], [coordination], ['leases']),
      rule(['get', 'update'], [coordination], ['leases'], ['kube-scheduler']),
      rule(Read, [''], ['nodes']),
      rule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
      rule(['create'], [''], ['bindings', 'pods/binding']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(Read, [''], ['replicationcontrollers', 'services']),
      rule(Read, ['apps', 'extensions'], ['replicasets']),
      rule(Read, ['apps'], ['statefulsets']),
      rule(Read, ['policy'], ['poddisruptionbudgets']),
      rule(Read, [''], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], [authn], ['tokenreviews']),
      rule(['create'], [authz], ['subjectaccessreviews']),
      rule(Read, [storage], ['csinodes']),
      rule(Read, [''], ['namespaces']),
      rule(Read, [storage], ['csidrivers']),
      rule(Read, [storage], ['csistoragecapacities']),
    ]),
    cr(`system:${certs}:certificatesigningrequests:nodeclient`, [rule(['create'], [certs], ['certificatesigningrequests/nodeclient'])]),
    cr(`system:${certs}:certificatesigningrequests:selfnodeclient`, [rule(['create'], [certs], ['certificatesigningrequests/selfnodeclient'])]),
    ...['kube-apiserver-client', 'kube-apiserver-client-kubelet', 'kubelet-serving', 'legacy-unknown'].map((s) =>
      cr(`system:${certs}:${s}-approver`, [rule(['approve'], [certs], ['signers'], [signer(s)])])),
    // The controllers' roles (controller_policy.go), each bound to the controller's service account.
    ...controllerRoles(),
  ];

  function controllerRoles(): ClusterRole[] {
    const c = (name: string, rules: PolicyRule[]) => cr(`system:controller:${name}`, rules);
    return [
      c('certificate-controller', [
        rule(['delete', 'get', 'list', 'watch'], [certs], ['certificatesigningrequests']),
        rule(['update'], [certs], ['certificatesigningrequests/approval', 'certificatesigningrequests/status']),
        rule(['approve'], [certs], ['signers'], [signer('kube-apiserver-client-kubelet')]),
        rule(['sign'], [certs], ['signers'], ['kube-apiserver-client', 'kube-apiserver-client-kubelet', 'kubelet-serving', 'legacy-unknown'].map(signer)),
        rule(['create'], [authz], ['subjectaccessreviews']),
        eventsRule,
      ]),
      c('clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'patch', 'update', 'watch'], [rbac], ['clusterroles'])]),
      c('cronjob-controller', [
        rule(['get', 'list', 'update', 'watch'], ['batch'], ['cronjobs']),
        rule(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['batch'], ['jobs']),
        rule(['update'], ['batch'], ['cronjobs/status']),
        rule(['update'], ['batch'], ['cronjobs/finalizers']),
        rule(['delete', 'list', 'watch'], [''], ['pods']),
        eventsRule,
      ]),
      c('daemon-set-controller', [
        rule(Read, ['apps', 'extensions'], ['daemonsets']),
        rule(['update'], ['apps', 'extensions'], ['daemonsets/status']),
        rule(['update'], ['apps', 'extensions'], ['daemonsets/finalizers']),
        rule(['list', 'watch'], [''], ['nodes']),
        rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
        rule(['create'], [''], ['pods/binding']),
        rule(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['apps'], ['controllerrevisions']),
        eventsRule,
      ]),
      c('deployment-controller', [
        rule(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['deployments']),
        rule(['update'], ['apps', 'extensions'], ['deployments/status']),
        rule(['update'], ['apps', 'extensions'], ['deployments/finalizers']),
        rule(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['apps', 'extensions'], ['replicasets']),
        rule(['get', 'list', 'update', 'watch'], [''], ['pods']),
        eventsRule,
      ]),
      c('disruption-controller', [
        rule(Read, ['apps', 'extensions'], ['deployments']),
        rule(Read, ['apps', 'extensions'], ['replicasets']),
        rule(Read, [''], ['replicationcontrollers']),
        rule(Read, ['policy'], ['poddisruptionbudgets']),
        rule(Read, ['apps'], ['statefulsets']),
        rule(['update'], ['policy'], ['poddisruptionbudgets/status']),
        rule(['patch', 'update'], [''], ['pods/status']),
        rule(['get'], ['*'], ['*/scale']),
        eventsRule,
      ]),
      c('endpoint-controller', [
        rule(Read, [''], ['pods', 'services']),
        rule(['create', 'delete', 'get', 'list', 'update'], [''], ['endpoints']),
        rule(['create'], [''], ['endpoints/restricted']),
        eventsRule,
      ]),
      // Both slice controllers set blockOwnerDeletion on the owner (services/finalizers, endpoints/finalizers).
      c('endpointslice-controller', [
        rule(Read, [''], ['nodes', 'pods', 'services']),
        rule(['update'], [''], ['services/finalizers']),
        rule(['create', 'delete', 'get', 'list', 'update'], [discovery], ['endpointslices']),
        eventsRule,
      ]),
      c('endpointslicemirroring-controller', [
        rule(Read, [''], ['endpoints', 'services']),
        rule(['update'], [''], ['services/finalizers']),
        rule(['update'], [''], ['endpoints/finalizers']),
        rule(['create', 'delete', 'get', 'list', 'update'], [discovery], ['endpointslices']),
        eventsRule,
      ]),
      c('generic-garbage-collector', [rule(['delete', 'get', 'list', 'patch', 'update', 'watch'], ['*'], ['*']), eventsRule]),
      c('horizontal-pod-autoscaler', [
        rule(Read, ['autoscaling'], ['horizontalpodautoscalers']),
        rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
        rule(['get', 'update'], ['*'], ['*/scale']),
        rule(['list'], [''], ['pods']),
        // The resource, custom and external metrics APIs.
        rule(['list'], [g('metrics')], ['pods']),
        rule(['get', 'list'], [g('custom.metrics')], ['*']),
        rule(['get', 'list'], [g('external.metrics')], ['*']),
        eventsRule,
      ]),
      c('job-controller', [
        rule(['get', 'list', 'patch', 'update', 'watch'], ['batch'], ['jobs']),
        rule(['update'], ['batch'], ['jobs/status']),
        rule(['update'], ['batch'], ['jobs/finalizers']),
        rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
        eventsRule,
      ]),
      c('namespace-controller', [
        rule(['delete', 'get', 'list', 'watch'], [''], ['namespaces']),
        rule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
        rule(['delete', 'deletecollection', 'get', 'list', 'watch'], ['*'], ['*']),
      ]),
      // The taint eviction controller runs with this role too, as upstream's does.
      c('node-controller', [
        rule(['delete', 'get', 'list', 'patch', 'update', 'watch'], [''], ['nodes']),
        rule(['patch', 'update'], [''], ['nodes/status']),
        rule(['patch', 'update'], [''], ['pods/status']),
        rule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
        eventsRule,
      ]),
      c('persistent-volume-binder', [
        rule(['create', 'delete', 'get', 'list', 'update', 'watch'], [''], ['persistentvolumes']),
        rule(['update'], [''], ['persistentvolumes/status']),
        rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
        rule(['update'], [''], ['persistentvolumeclaims/status']),
        rule(['create', 'delete', 'get', 'list', 'watch'], [''], ['pods']),
        // Upstream keeps the rules of its glusterfs, openstack and recycler plug-ins.
        rule(Read, [storage], ['storageclasses']),
        rule(['create', 'delete', 'get', 'update'], [''], ['endpoints']),
        rule(['create', 'delete', 'get'], [''], ['services']),
        rule(['get'], [''], ['secrets']),
        rule(['get', 'list'], [''], ['nodes']),
        rule(['watch'], [''], ['events']),
        eventsRule,
      ]),
      c('pod-garbage-collector', [
        rule(['delete', 'list', 'watch'], [''], ['pods']),
        rule(Read, [''], ['nodes']),
        rule(['patch'], [''], ['pods/status']),
      ]),
      c('pv-protection-controller', [rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumes']), eventsRule]),
      c('pvc-protection-controller', [
        rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
        rule(Read, [''], ['pods']),
        eventsRule,
      ]),
      c('replicaset-controller', [
        rule(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['replicasets']),
        rule(['update'], ['apps', 'extensions'], ['replicasets/status']),
        rule(['update'], ['apps', 'extensions'], ['replicasets/finalizers']),
        rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
        eventsRule,
      ]),
      c('replication-controller', [
        // 1.0 controllers needed get and update, so upstream keeps them.
        rule(['get', 'list', 'update', 'watch'], [''], ['replicationcontrollers']),
        rule(['update'], [''], ['replicationcontrollers/status']),
        rule(['update'], [''], ['replicationcontrollers/finalizers']),
        rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
        eventsRule,
      ]),
      c('resourcequota-controller', [rule(['list', 'watch'], ['*'], ['*']), rule(['update'], [''], ['resourcequotas/status']), eventsRule]),
      c('root-ca-cert-publisher', [rule(['create', 'update'], [''], ['configmaps']), eventsRule]),
      c('service-account-controller', [rule(['create'], [''], ['serviceaccounts']), eventsRule]),
      c('statefulset-controller', [
        rule(['list', 'watch'], [''], ['pods']),
        rule(Read, ['apps'], ['statefulsets']),
        rule(['update'], ['apps'], ['statefulsets/status']),
        rule(['update'], ['apps'], ['statefulsets/finalizers']),
        rule(['create', 'delete', 'get', 'patch', 'update'], [''], ['pods']),
        rule(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['apps'], ['controllerrevisions']),
        rule(['create', 'get', 'list', 'watch'], [''], ['persistentvolumeclaims']),
        rule(['delete', 'update'], [''], ['persistentvolumeclaims']),
        rule(['update'], [''], ['pods/finalizers']),
        eventsRule,
      ]),
      c('ttl-after-finished-controller', [rule(['delete', 'get', 'list', 'watch'], ['batch'], ['jobs']), eventsRule]),
      c('ttl-controller', [rule(['list', 'patch', 'update', 'watch'], [''], ['nodes']), eventsRule]),
    ];
  }

  // Controller service accounts are named after the role, less the system:controller: prefix
  // (upstream's generic-garbage-collector runs as generic-garbage-collector, and so on): with
  // --use-service-account-credentials each controller acts as its account. Without the flag every
  // controller runs as the manager's own user, so that user is bound to each controller's role too.
  const controllerBindings = clusterRoles
    .filter((r) => r.metadata!.name!.startsWith('system:controller:'))
    .map((r) => crb(r.metadata!.name!, [sa(r.metadata!.name!.slice('system:controller:'.length)), user('system:kube-controller-manager')]));

  const clusterRoleBindings: ClusterRoleBinding[] = [
    crb('cluster-admin', [group(MastersGroup)]),
    crb('system:monitoring', [group('system:monitoring')]),
    crb('system:discovery', [group(AuthenticatedGroup)]),
    crb('system:basic-user', [group(AuthenticatedGroup)]),
    crb('system:public-info-viewer', [group(AuthenticatedGroup), group(UnauthenticatedGroup)]),
    crb('system:node-proxier', [user('system:kube-proxy')]),
    crb('system:kube-controller-manager', [user('system:kube-controller-manager')]),
    crb('system:kube-scheduler', [user('system:kube-scheduler')]),
    // Upstream keeps this binding without subjects: nodes are authorized by the Node authorizer.
    crb('system:node', []),
    ...controllerBindings,
  ];

  const role = (namespace: string, name: string, rules: PolicyRule[]): Role => ({ metadata: { ...meta(name), namespace }, rules });
  const rb = (namespace: string, name: string, roleName: string, subjects: Subject[]): RoleBinding => ({
    metadata: { ...meta(name), namespace }, roleRef: { apiGroup: rbac, kind: 'Role', name: roleName }, subjects,
  });
  const leaderLocking = [rule(['create', 'get', 'list', 'update', 'watch'], [coordination], ['leases'])];
  const roles: Role[] = [
    role(publicNs, 'system:controller:bootstrap-signer', [
      rule(Read, [''], ['configmaps']),
      rule(['update'], [''], ['configmaps'], ['cluster-info']),
      eventsRule,
    ]),
    // Not in kube-apiserver's policy upstream but kubeadm's Role and RoleBinding
    // `kubeadm:bootstrap-signer-clusterinfo` (for user system:anonymous), kept here under our own
    // name since our API server publishes cluster-info itself: anyone may read the signed
    // cluster-info ConfigMap to bootstrap trust, and nothing else in the public namespace.
    role(publicNs, clusterInfoReaderName, [rule(['get'], [''], ['configmaps'], ['cluster-info'])]),
    // Extension API servers read the front-proxy's CA and header names (upstream's name).
    role(systemNs, extensionAuthenticationReaderName, [rule(Read, [''], ['configmaps'], [extensionAuthenticationConfigMapName])]),
    role(systemNs, 'system::leader-locking-kube-controller-manager', leaderLocking),
    role(systemNs, 'system::leader-locking-kube-scheduler', leaderLocking),
    role(systemNs, 'system:controller:bootstrap-signer', [rule(Read, [''], ['secrets'])]),
    role(systemNs, 'system:controller:token-cleaner', [rule(['delete', 'get', 'list', 'watch'], [''], ['secrets']), eventsRule]),
  ];
  const roleBindings: RoleBinding[] = [
    rb(publicNs, 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [sa('bootstrap-signer')]),
    rb(publicNs, clusterInfoReaderName, clusterInfoReaderName, [user(AnonymousUser)]),
    rb(systemNs, `system::${extensionAuthenticationReaderName}`, extensionAuthenticationReaderName,
      [user('system:kube-controller-manager'), user('system:kube-scheduler')]),
    rb(systemNs, 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager',
      [user('system:kube-controller-manager'), sa('kube-controller-manager'), sa('leader-election-controller')]),
    rb(systemNs, 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [user('system:kube-scheduler'), sa('kube-scheduler')]),
    rb(systemNs, 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [sa('bootstrap-signer')]),
    rb(systemNs, 'system:controller:token-cleaner', 'system:controller:token-cleaner', [sa('token-cleaner')]),
  ];
  return { clusterRoles, clusterRoleBindings, roles, roleBindings };
}
