import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../../api/domain.js';
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import { RbacAuthorizer } from './authorizer.js';
import { aggregateLabel, autoupdateAnnotation, bootstrapPolicy, bootstrappingLabel } from './bootstrap-policy.js';
import { RbacIndex } from './index.js';
import { aggregateAll, reconcileBinding, reconcileRole, type RuleOwner } from './reconcile.js';
import type { RbacAttributes } from './rules.js';

const d = defaultApiDomain;
const G = 'rbac.authorization.orch.io';

function authorizerOver(policy = bootstrapPolicy(d)) {
  const index = new RbacIndex(G);
  for (const r of aggregateAll(policy.clusterRoles)) policy.clusterRoles = policy.clusterRoles.map((c) => (c.metadata!.name === r.metadata!.name ? r : c));
  for (const r of policy.clusterRoles) index.apply('ClusterRole', 'ADDED', r);
  for (const b of policy.clusterRoleBindings) index.apply('ClusterRoleBinding', 'ADDED', b);
  for (const r of policy.roles) index.apply('Role', 'ADDED', r);
  for (const b of policy.roleBindings) index.apply('RoleBinding', 'ADDED', b);
  return { index, authz: new RbacAuthorizer(index), policy };
}

const req = (user: { name: string; groups: string[] }, verb: string, apiGroup: string, resource: string, namespace = '', name = '', subresource = ''): RbacAttributes =>
  ({ user, verb, apiGroup, resource, namespace, name, subresource, isResourceRequest: true });

test('every name is derived from the domain: nothing says k8s.io or kubernetes.io for orch.io, upstream names for k8s.io', () => {
  const text = JSON.stringify(bootstrapPolicy(d));
  assert.doesNotMatch(text, /k8s\.io|kubernetes\.io|kube-system|kube-public/);
  assert.match(text, /"certificates\.orch\.io"/);
  assert.match(text, /"orch\.io\/kube-apiserver-client-kubelet"/);
  assert.match(text, /system:certificates\.orch\.io:certificatesigningrequests:nodeclient/);
  const up = bootstrapPolicy(apiDomain('k8s.io'));
  const admin = up.clusterRoles.find((r) => r.metadata!.name === 'admin')!;
  assert.deepEqual(admin.metadata!.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
  assert.deepEqual(admin.metadata!.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults' });
  assert.deepEqual(admin.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] });
  assert.equal(autoupdateAnnotation(d), 'rbac.authorization.orch.io/autoupdate');
  assert.equal(aggregateLabel(d, 'view'), 'rbac.authorization.orch.io/aggregate-to-view');
  assert.equal(bootstrappingLabel(d), 'orch.io/bootstrapping');
});

test('names are unique and every binding resolves to a role of the policy', () => {
  const p = bootstrapPolicy(d);
  const crNames = p.clusterRoles.map((r) => r.metadata!.name!);
  assert.equal(new Set(crNames).size, crNames.length);
  assert.equal(new Set(p.clusterRoleBindings.map((b) => b.metadata!.name)).size, p.clusterRoleBindings.length);
  for (const b of p.clusterRoleBindings) assert.ok(crNames.includes(b.roleRef.name), b.roleRef.name);
  for (const b of p.roleBindings) assert.ok(p.roles.some((r) => r.metadata!.namespace === b.metadata!.namespace && r.metadata!.name === b.roleRef.name), b.metadata!.name);
  for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:node',
    'system:node-proxier', 'system:kube-controller-manager', 'system:kube-scheduler', 'system:node-bootstrapper', 'system:auth-delegator',
    'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view', 'system:controller:namespace-controller',
    'system:controller:generic-garbage-collector', 'system:controller:service-account-controller', 'system:controller:root-ca-cert-publisher',
    'system:controller:resourcequota-controller', 'system:controller:disruption-controller', 'system:controller:clusterrole-aggregation-controller',
    'system:controller:statefulset-controller', 'system:controller:deployment-controller', 'system:controller:replicaset-controller',
    'system:controller:certificate-controller', 'system:controller:endpoint-controller', 'system:controller:endpointslice-controller',
    'system:controller:endpointslicemirroring-controller', 'system:controller:replication-controller', 'system:controller:job-controller',
    'system:controller:cronjob-controller', 'system:controller:ttl-after-finished-controller', 'system:controller:daemon-set-controller',
    'system:controller:node-controller', 'system:controller:pod-garbage-collector', 'system:controller:ttl-controller', 'system:controller:persistent-volume-binder',
    'system:controller:pvc-protection-controller', 'system:controller:pv-protection-controller', 'system:controller:horizontal-pod-autoscaler']) assert.ok(crNames.includes(name), name);
});

test('the node and daemon controllers\' roles are upstream 1.30\'s', () => {
  const p = bootstrapPolicy(d);
  const rules = (name: string) => p.clusterRoles.find((r) => r.metadata!.name === `system:controller:${name}`)?.rules;
  const r = (verbs: string[], apiGroups: string[], resources: string[]) => ({ verbs, apiGroups, resources });
  const events = r(['create', 'update', 'patch'], ['', 'events.orch.io'], ['events']);
  assert.deepEqual(rules('daemon-set-controller'), [
    r(['get', 'list', 'watch'], ['apps', 'extensions'], ['daemonsets']), r(['update'], ['apps', 'extensions'], ['daemonsets/status']),
    r(['update'], ['apps', 'extensions'], ['daemonsets/finalizers']), r(['list', 'watch'], [''], ['nodes']),
    r(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']), r(['create'], [''], ['pods/binding']),
    r(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['apps'], ['controllerrevisions']), events,
  ]);
  assert.deepEqual(rules('node-controller'), [
    r(['delete', 'get', 'list', 'patch', 'update', 'watch'], [''], ['nodes']), r(['patch', 'update'], [''], ['nodes/status']),
    r(['patch', 'update'], [''], ['pods/status']), r(['delete', 'get', 'list', 'watch'], [''], ['pods']), events,
  ]);
  assert.deepEqual(rules('pod-garbage-collector'), [r(['delete', 'list', 'watch'], [''], ['pods']), r(['get', 'list', 'watch'], [''], ['nodes']), r(['patch'], [''], ['pods/status'])]);
  assert.deepEqual(rules('ttl-controller'), [r(['list', 'patch', 'update', 'watch'], [''], ['nodes']), events]);
  // Bound to their service accounts and, as every controller runs as the manager, to its user.
  const binding = p.clusterRoleBindings.find((b) => b.metadata!.name === 'system:controller:node-controller');
  assert.deepEqual(binding?.subjects?.map((x) => x.name), ['node-controller', 'system:kube-controller-manager']);
});

test('the policy grants what upstream grants', () => {
  const { authz } = authorizerOver();
  const authn = { name: 'jane', groups: ['system:authenticated'] };
  const anon = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  const allow = (a: RbacAttributes) => authz.authorize(a).decision === 'allow';
  assert.ok(allow(req(authn, 'create', 'authorization.orch.io', 'selfsubjectaccessreviews')));
  assert.ok(allow(req(authn, 'create', 'authentication.orch.io', 'selfsubjectreviews')));
  assert.ok(allow({ user: authn, verb: 'get', path: '/apis/apps/v1', isResourceRequest: false }));
  assert.ok(!allow({ user: anon, verb: 'get', path: '/apis', isResourceRequest: false }), 'discovery is for authenticated users only');
  assert.ok(allow({ user: anon, verb: 'get', path: '/version', isResourceRequest: false }));
  assert.ok(allow({ user: anon, verb: 'get', path: '/healthz', isResourceRequest: false }));
  assert.ok(allow(req(anon, 'get', '', 'configmaps', 'orch-public', 'cluster-info')));
  assert.ok(!allow(req(anon, 'list', '', 'configmaps', 'orch-public')));
  assert.ok(!allow(req(anon, 'get', '', 'configmaps', 'default', 'cluster-info')));
  const root = { name: 'root', groups: ['system:masters'] };
  assert.equal(authz.authorize(req(root, 'delete', 'x.example', 'things', 'ns')).reason,
    'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"');
  const gc = { name: 'system:serviceaccount:orch-system:generic-garbage-collector', groups: [] };
  assert.ok(allow(req(gc, 'patch', 'apps', 'replicasets', 'ns')));
  const hpa = { name: 'system:serviceaccount:orch-system:horizontal-pod-autoscaler', groups: [] };
  assert.ok(allow({ ...req(hpa, 'update', 'apps', 'deployments', 'ns', 'web'), subresource: 'scale' }));
  assert.ok(allow(req(hpa, 'list', 'metrics.orch.io', 'pods', 'ns')));
  assert.ok(!allow(req(hpa, 'update', 'apps', 'deployments', 'ns', 'web')));
  const binder = { name: 'system:serviceaccount:orch-system:persistent-volume-binder', groups: [] };
  assert.ok(allow({ ...req(binder, 'update', '', 'persistentvolumeclaims', 'ns', 'data'), subresource: 'status' }));
  assert.ok(allow(req(binder, 'delete', '', 'persistentvolumes')));
  const pvc = { name: 'system:serviceaccount:orch-system:pvc-protection-controller', groups: [] };
  assert.ok(allow(req(pvc, 'update', '', 'persistentvolumeclaims', 'ns', 'data')));
  assert.ok(!allow(req(pvc, 'update', '', 'persistentvolumes')));
  const pv = { name: 'system:serviceaccount:orch-system:pv-protection-controller', groups: [] };
  assert.ok(allow(req(pv, 'update', '', 'persistentvolumes', '', 'vol')));
  const signer = { name: 'system:serviceaccount:orch-system:bootstrap-signer', groups: [] };
  assert.ok(allow(req(signer, 'update', '', 'configmaps', 'orch-public', 'cluster-info')));
  assert.ok(allow(req(signer, 'list', '', 'secrets', 'orch-system')));
  assert.ok(!allow(req(signer, 'list', '', 'secrets', 'default')));
});

test('the bootstrap token roles are upstream 1.30\'s, and anonymous may get cluster-info alone', () => {
  const p = bootstrapPolicy(d);
  const rolesOf = (ns: string, name: string) => p.roles.find((r) => r.metadata!.namespace === ns && r.metadata!.name === name)?.rules;
  const events = { verbs: ['create', 'update', 'patch'], apiGroups: ['', 'events.orch.io'], resources: ['events'] };
  assert.deepEqual(rolesOf('orch-public', 'system:controller:bootstrap-signer'), [
    { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] },
    { verbs: ['update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'] },
    events,
  ]);
  assert.deepEqual(rolesOf('orch-system', 'system:controller:bootstrap-signer'), [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['secrets'] }]);
  assert.deepEqual(rolesOf('orch-system', 'system:controller:token-cleaner'), [{ verbs: ['delete', 'get', 'list', 'watch'], apiGroups: [''], resources: ['secrets'] }, events]);
  assert.deepEqual(rolesOf('orch-public', 'system:bootstrap-signer-clusterinfo'), [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'] }]);
  const binding = p.roleBindings.find((b) => b.metadata!.namespace === 'orch-public' && b.metadata!.name === 'system:bootstrap-signer-clusterinfo');
  assert.deepEqual(binding?.subjects, [{ kind: 'User', apiGroup: G, name: 'system:anonymous' }]);

  const { authz } = authorizerOver();
  const allow = (a: RbacAttributes) => authz.authorize(a).decision === 'allow';
  const anon = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  assert.ok(allow(req(anon, 'get', '', 'configmaps', 'orch-public', 'cluster-info')));
  for (const [verb, resource, name] of [['get', 'configmaps', 'other'], ['list', 'configmaps', ''], ['watch', 'configmaps', 'cluster-info'], ['update', 'configmaps', 'cluster-info'], ['get', 'secrets', 'cluster-info']] as const) {
    assert.ok(!allow(req(anon, verb, '', resource, 'orch-public', name)), `${verb} ${resource}/${name}`);
  }
  const cleaner = { name: 'system:serviceaccount:orch-system:token-cleaner', groups: [] };
  assert.ok(allow(req(cleaner, 'delete', '', 'secrets', 'orch-system', 'bootstrap-token-abcdef')));
  assert.ok(!allow(req(cleaner, 'delete', '', 'secrets', 'default', 'x')));
  // The manager runs every controller as its own user: its cluster roles already let it do what the two controllers do.
  const manager = { name: 'system:kube-controller-manager', groups: ['system:authenticated'] };
  assert.ok(allow(req(manager, 'update', '', 'configmaps', 'orch-public', 'cluster-info')));
  assert.ok(allow(req(manager, 'watch', '', 'configmaps', 'orch-public')));
  assert.ok(allow(req(manager, 'list', '', 'secrets', 'orch-system')));
  assert.ok(allow(req(manager, 'delete', '', 'secrets', 'orch-system', 'bootstrap-token-abcdef')));
});

test('the endpoint slice and replication controllers may do what upstream lets them, and no more', () => {
  const { authz } = authorizerOver();
  const allow = (a: RbacAttributes) => authz.authorize(a).decision === 'allow';
  const sa = (name: string) => ({ name: `system:serviceaccount:orch-system:${name}`, groups: [] });
  const slices = sa('endpointslice-controller');
  for (const verb of ['create', 'update', 'delete', 'list']) assert.ok(allow(req(slices, verb, 'discovery.orch.io', 'endpointslices', 'ns')), verb);
  assert.ok(allow(req(slices, 'watch', '', 'nodes')));
  assert.ok(allow(req(slices, 'update', '', 'services', 'ns', 'web', 'finalizers')), 'blockOwnerDeletion on its service');
  assert.ok(!allow(req(slices, 'watch', 'discovery.orch.io', 'endpointslices', 'ns')), 'upstream grants no watch here: the manager\'s informers use its own role');
  assert.ok(!allow(req(slices, 'update', '', 'services', 'ns')));
  const mirroring = sa('endpointslicemirroring-controller');
  assert.ok(allow(req(mirroring, 'watch', '', 'endpoints', 'ns')));
  assert.ok(allow(req(mirroring, 'update', '', 'endpoints', 'ns', 'ext', 'finalizers')));
  assert.ok(!allow(req(mirroring, 'list', '', 'pods', 'ns')));
  const rc = sa('replication-controller');
  assert.ok(allow(req(rc, 'update', '', 'replicationcontrollers', 'ns', 'web', 'status')));
  assert.ok(allow(req(rc, 'create', '', 'pods', 'ns')));
  assert.ok(!allow(req(rc, 'get', '', 'pods', 'ns')), 'upstream lists and watches pods but never gets one');
});

test('the batch controllers\' roles are upstream 1.30\'s, each bound to its service account and to the manager', () => {
  const p = bootstrapPolicy(d);
  const rules = (name: string) => p.clusterRoles.find((r) => r.metadata!.name === `system:controller:${name}`)?.rules;
  const events = { verbs: ['create', 'update', 'patch'], apiGroups: ['', 'events.orch.io'], resources: ['events'] };
  assert.deepEqual(rules('job-controller'), [
    { verbs: ['get', 'list', 'patch', 'update', 'watch'], apiGroups: ['batch'], resources: ['jobs'] },
    { verbs: ['update'], apiGroups: ['batch'], resources: ['jobs/status'] },
    { verbs: ['update'], apiGroups: ['batch'], resources: ['jobs/finalizers'] },
    { verbs: ['create', 'delete', 'list', 'patch', 'watch'], apiGroups: [''], resources: ['pods'] },
    events,
  ]);
  assert.deepEqual(rules('cronjob-controller'), [
    { verbs: ['get', 'list', 'update', 'watch'], apiGroups: ['batch'], resources: ['cronjobs'] },
    { verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], apiGroups: ['batch'], resources: ['jobs'] },
    { verbs: ['update'], apiGroups: ['batch'], resources: ['cronjobs/status'] },
    { verbs: ['update'], apiGroups: ['batch'], resources: ['cronjobs/finalizers'] },
    { verbs: ['delete', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
    events,
  ]);
  assert.deepEqual(rules('ttl-after-finished-controller'), [{ verbs: ['delete', 'get', 'list', 'watch'], apiGroups: ['batch'], resources: ['jobs'] }, events]);
  for (const name of ['job-controller', 'cronjob-controller', 'ttl-after-finished-controller']) {
    const b = p.clusterRoleBindings.find((x) => x.metadata!.name === `system:controller:${name}`);
    assert.deepEqual(b?.subjects, [{ kind: 'ServiceAccount', name, namespace: 'orch-system' }, { kind: 'User', apiGroup: G, name: 'system:kube-controller-manager' }]);
  }
  const { authz } = authorizerOver();
  const sa = (name: string) => ({ name: `system:serviceaccount:orch-system:${name}`, groups: [] });
  const allow = (u: { name: string; groups: string[] }, verb: string, group: string, resource: string) => authz.authorize(req(u, verb, group, resource, 'team')).decision === 'allow';
  assert.ok(allow(sa('job-controller'), 'create', '', 'pods'));
  assert.ok(allow(sa('job-controller'), 'update', 'batch', 'jobs/status'));
  assert.ok(!allow(sa('job-controller'), 'create', 'batch', 'jobs'));
  assert.ok(allow(sa('cronjob-controller'), 'create', 'batch', 'jobs'));
  assert.ok(!allow(sa('cronjob-controller'), 'create', '', 'pods'));
  assert.ok(allow(sa('ttl-after-finished-controller'), 'delete', 'batch', 'jobs'));
  assert.ok(!allow(sa('ttl-after-finished-controller'), 'update', 'batch', 'jobs'));
});

test('aggregation: view feeds edit feeds admin, by label selectors, in users\' RoleBindings', () => {
  const { index, authz, policy } = authorizerOver();
  const view = policy.clusterRoles.find((r) => r.metadata!.name === 'view')!;
  assert.ok((view.rules ?? []).length > 0);
  index.apply('RoleBinding', 'ADDED', { metadata: { namespace: 'team', name: 'v' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', apiGroup: G, name: 'v' }] });
  index.apply('RoleBinding', 'ADDED', { metadata: { namespace: 'team', name: 'e' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'User', apiGroup: G, name: 'e' }] });
  index.apply('RoleBinding', 'ADDED', { metadata: { namespace: 'team', name: 'a' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'admin' }, subjects: [{ kind: 'User', apiGroup: G, name: 'a' }] });
  const allow = (u: string, verb: string, group: string, resource: string) => authz.authorize(req({ name: u, groups: [] }, verb, group, resource, 'team')).decision === 'allow';
  assert.ok(allow('v', 'list', 'apps', 'statefulsets'));
  assert.ok(!allow('v', 'get', '', 'secrets'), 'view never reads secrets');
  assert.ok(!allow('v', 'create', '', 'pods'));
  assert.ok(allow('e', 'create', '', 'pods'));
  assert.ok(allow('e', 'list', 'apps', 'statefulsets'), 'edit includes view');
  assert.ok(!allow('e', 'create', G, 'roles'));
  assert.ok(allow('a', 'create', G, 'roles'));
  assert.ok(allow('a', 'delete', 'policy', 'poddisruptionbudgets'), 'admin includes edit');
  // a custom role labelled aggregate-to-view reaches all three
  const custom: ClusterRole = { metadata: { name: 'crontabs-view', labels: { [aggregateLabel(d, 'view')]: 'true' } },
    rules: [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['crontabs'] }] };
  const changed = aggregateAll([...policy.clusterRoles, custom]).map((r) => r.metadata!.name).sort();
  assert.deepEqual(changed, ['admin', 'edit', 'view']);
});

test('reconcileRole: create when absent, add missing rules and labels, keep extras, leave protected roles alone', () => {
  const key = autoupdateAnnotation(d);
  const expected = { metadata: { name: 'r', labels: { a: '1' }, annotations: { [key]: 'true' } }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] };
  assert.equal(reconcileRole(expected, undefined, key).operation, 'create');
  assert.equal(reconcileRole(expected, structuredClone(expected), key).operation, 'none');
  const existing = { metadata: { name: 'r', labels: { mine: 'x' }, annotations: { [key]: 'true' } }, rules: [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }] };
  const r = reconcileRole<RuleOwner>(expected, existing, key);
  assert.equal(r.operation, 'update');
  assert.deepEqual(r.object.metadata!.labels, { a: '1', mine: 'x' });
  assert.deepEqual(r.object.rules, [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
  assert.deepEqual(r.missingRules, [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
  const prot = { ...existing, metadata: { ...existing.metadata, annotations: { [key]: 'false' } } };
  const p = reconcileRole<RuleOwner>(expected, prot, key);
  assert.equal(p.operation, 'none');
  assert.equal(p.protected, true);
  assert.equal(p.object, prot);
  // an aggregated role keeps its gathered rules and gains the expected selector
  const agg = { metadata: { name: 'admin' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'true' } }] } };
  const have = { metadata: { name: 'admin' }, rules: [{ verbs: ['get'], apiGroups: ['a'], resources: ['b'] }], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { y: 'true' } }] } };
  const a = reconcileRole<RuleOwner>(agg, have, key);
  assert.equal(a.operation, 'update');
  assert.deepEqual(a.object.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { y: 'true' } }, { matchLabels: { x: 'true' } }] });
  assert.deepEqual(a.object.rules, have.rules);
});

test('reconcileBinding: add missing subjects, keep extra ones, recreate on a different roleRef, respect autoupdate=false', () => {
  const key = autoupdateAnnotation(d);
  const ref = { apiGroup: G, kind: 'ClusterRole', name: 'r' };
  const expected = { metadata: { name: 'b' }, roleRef: ref, subjects: [{ kind: 'Group', apiGroup: G, name: 'system:authenticated' }] };
  assert.equal(reconcileBinding(expected, undefined, key).operation, 'create');
  const existing = { metadata: { name: 'b' }, roleRef: ref, subjects: [{ kind: 'User', apiGroup: G, name: 'ops' }] };
  const r = reconcileBinding(expected, existing, key);
  assert.equal(r.operation, 'update');
  assert.deepEqual(r.object.subjects, [{ kind: 'User', apiGroup: G, name: 'ops' }, { kind: 'Group', apiGroup: G, name: 'system:authenticated' }]);
  assert.equal(reconcileBinding(expected, r.object, key).operation, 'none');
  assert.equal(reconcileBinding(expected, { ...existing, roleRef: { ...ref, name: 'other' } }, key).operation, 'recreate');
  const prot = { ...existing, metadata: { name: 'b', annotations: { [key]: 'false' } } };
  assert.deepEqual(reconcileBinding(expected, prot, key), { operation: 'none', object: prot, protected: true, missingSubjects: expected.subjects });
});
