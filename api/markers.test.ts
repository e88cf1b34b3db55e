// The merge markers of the served kinds, pinned field by field to upstream's Go type markers
// (+listType, +listMapKey, +patchStrategy, +patchMergeKey, +mapType, +structType), read from the
// schemas the way strategic merge patch and server-side apply read them. A marker that drifts
// changes what a patch or an apply does to stored objects, so each one is checked here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allGroupVersions } from './index.js';
import { fieldSchema, itemSchema, mapValueSchema } from '../pkg/runtime/schema-walk.js';
import type { SchemaNode } from '../pkg/runtime/schema-node.js';

interface Markers {
  listType?: string;
  mapKeys?: string[];
  patchStrategy?: string;
  patchMergeKey?: string;
  mapType?: string;
  structType?: string;
}

const markerKeys: [keyof Markers, string][] = [
  ['listType', 'x-orch-list-type'],
  ['mapKeys', 'x-orch-list-map-keys'],
  ['patchStrategy', 'x-orch-patch-strategy'],
  ['patchMergeKey', 'x-orch-patch-merge-key'],
  ['mapType', 'x-orch-map-type'],
  ['structType', 'x-orch-struct-type'],
];

function markersOf(schema: SchemaNode): Markers {
  const out: Record<string, unknown> = {};
  for (const [name, key] of markerKeys) {
    const value = (schema as Record<string, unknown>)[key];
    if (value !== undefined) out[name] = value;
  }
  return out as Markers;
}

/** The schema of a served kind: `group` as registered ('' for core), `kind` its name. */
function kindSchema(group: string, kind: string): SchemaNode {
  for (const gv of allGroupVersions) {
    if (gv.group !== group) continue;
    const k = gv.kinds.find((x) => x.kind === kind);
    if (k) return k.schema as unknown as SchemaNode;
  }
  throw new Error(`no kind ${group}/${kind}`);
}

/** The schema at `path` (`spec.containers[].ports`; `[]` steps into a list's items) of a kind. */
function at(group: string, kind: string, path: string): SchemaNode {
  let s: SchemaNode | undefined = kindSchema(group, kind);
  for (const step of path.split('.')) {
    const m = /^([^[\]]+)((?:\[\])*)$/.exec(step);
    assert.ok(m, `bad path step ${step}`);
    s = fieldSchema(s, m[1]!);
    for (let i = 0; i < m[2]!.length / 2; i++) s = itemSchema(s);
    assert.ok(s, `${group}/${kind} has no ${path} (at ${step})`);
  }
  return s!;
}

const mapList = (keys: string[], mergeKey = keys[0]!, strategy = 'merge'): Markers =>
  ({ listType: 'map', mapKeys: keys, patchStrategy: strategy, patchMergeKey: mergeKey });
const conditions = mapList(['type']);
const atomicList: Markers = { listType: 'atomic' };
const atomicStruct: Markers = { mapType: 'atomic' };
const none: Markers = {};

/** [group, kind, path, the markers upstream gives the field (exactly: none other may be set)]. */
type Case = [string, string, string, Markers];

const apps = 'apps';
const batch = 'batch';
const rbac = 'rbac.authorization.orch.io';
const networking = 'networking.orch.io';
const admission = 'admissionregistration.orch.io';
const storage = 'storage.orch.io';

const cases: Case[] = [
  // meta/v1 ObjectMeta, as every kind carries it.
  ['', 'Pod', 'metadata.ownerReferences', mapList(['uid'])],
  ['', 'Pod', 'metadata.ownerReferences[]', atomicStruct],
  ['', 'Pod', 'metadata.finalizers', { listType: 'set', patchStrategy: 'merge' }],
  ['', 'Pod', 'metadata.managedFields', atomicList],
  ['', 'Pod', 'metadata.labels', none],
  ['', 'Pod', 'metadata.annotations', none],
  [apps, 'Deployment', 'metadata.ownerReferences', mapList(['uid'])],
  // core/v1 Pod
  ['', 'Pod', 'spec.containers', mapList(['name'])],
  ['', 'Pod', 'spec.initContainers', mapList(['name'])],
  ['', 'Pod', 'spec.ephemeralContainers', mapList(['name'])],
  ['', 'Pod', 'spec.volumes', mapList(['name'], 'name', 'merge,retainKeys')],
  ['', 'Pod', 'spec.tolerations', atomicList],
  ['', 'Pod', 'spec.imagePullSecrets', mapList(['name'])],
  ['', 'Pod', 'spec.imagePullSecrets[]', atomicStruct],
  ['', 'Pod', 'spec.topologySpreadConstraints', mapList(['topologyKey', 'whenUnsatisfiable'], 'topologyKey')],
  ['', 'Pod', 'spec.topologySpreadConstraints[].labelSelector', atomicStruct],
  ['', 'Pod', 'spec.topologySpreadConstraints[].matchLabelKeys', atomicList],
  ['', 'Pod', 'spec.readinessGates', atomicList],
  ['', 'Pod', 'spec.hostAliases', mapList(['ip'])],
  ['', 'Pod', 'spec.schedulingGates', mapList(['name'])],
  ['', 'Pod', 'spec.resourceClaims', mapList(['name'], 'name', 'merge,retainKeys')],
  ['', 'Pod', 'spec.nodeSelector', atomicStruct],
  ['', 'Pod', 'spec.securityContext.supplementalGroups', atomicList],
  ['', 'Pod', 'spec.securityContext.sysctls', atomicList],
  ['', 'Pod', 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution', atomicStruct],
  ['', 'Pod', 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms', atomicList],
  ['', 'Pod', 'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution', atomicList],
  ['', 'Pod', 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution', atomicList],
  ['', 'Pod', 'spec.containers[].ports', mapList(['containerPort', 'protocol'], 'containerPort')],
  ['', 'Pod', 'spec.containers[].env', mapList(['name'])],
  ['', 'Pod', 'spec.containers[].env[].valueFrom.configMapKeyRef', atomicStruct],
  ['', 'Pod', 'spec.containers[].env[].valueFrom.secretKeyRef', atomicStruct],
  ['', 'Pod', 'spec.containers[].env[].valueFrom.fieldRef', atomicStruct],
  ['', 'Pod', 'spec.containers[].env[].valueFrom.resourceFieldRef', atomicStruct],
  ['', 'Pod', 'spec.containers[].envFrom', atomicList],
  ['', 'Pod', 'spec.containers[].volumeMounts', mapList(['mountPath'])],
  ['', 'Pod', 'spec.containers[].volumeDevices', mapList(['devicePath'])],
  ['', 'Pod', 'spec.containers[].command', atomicList],
  ['', 'Pod', 'spec.containers[].args', atomicList],
  ['', 'Pod', 'spec.containers[].resizePolicy', atomicList],
  ['', 'Pod', 'spec.containers[].securityContext.capabilities.add', atomicList],
  ['', 'Pod', 'spec.initContainers[].ports', mapList(['containerPort', 'protocol'], 'containerPort')],
  ['', 'Pod', 'spec.volumes[].projected.sources', atomicList],
  ['', 'Pod', 'spec.volumes[].secret.items', atomicList],
  ['', 'Pod', 'spec.volumes[].csi.nodePublishSecretRef', atomicStruct],
  ['', 'Pod', 'status.conditions', conditions],
  ['', 'Pod', 'status.podIPs', mapList(['ip'])],
  // Upstream keeps hostIPs atomic for apply while strategic merge merges it by ip.
  ['', 'Pod', 'status.hostIPs', { listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'ip' }],
  ['', 'Pod', 'status.containerStatuses', atomicList],
  ['', 'Pod', 'status.initContainerStatuses', atomicList],
  ['', 'Pod', 'status.ephemeralContainerStatuses', atomicList],
  ['', 'Pod', 'status.resourceClaimStatuses', mapList(['name'], 'name', 'merge,retainKeys')],
  // core/v1 Service, Endpoints, Node
  ['', 'Service', 'spec.ports', mapList(['port', 'protocol'], 'port')],
  ['', 'Service', 'spec.selector', atomicStruct],
  ['', 'Service', 'spec.clusterIPs', atomicList],
  ['', 'Service', 'spec.externalIPs', atomicList],
  ['', 'Service', 'spec.ipFamilies', atomicList],
  ['', 'Service', 'spec.loadBalancerSourceRanges', atomicList],
  ['', 'Service', 'status.conditions', conditions],
  ['', 'Service', 'status.loadBalancer.ingress', atomicList],
  ['', 'Endpoints', 'subsets', atomicList],
  ['', 'Endpoints', 'subsets[].addresses', atomicList],
  ['', 'Endpoints', 'subsets[].notReadyAddresses', atomicList],
  ['', 'Endpoints', 'subsets[].ports', atomicList],
  ['', 'Endpoints', 'subsets[].addresses[].targetRef', atomicStruct],
  ['', 'Endpoints', 'subsets[].ports[]', atomicStruct],
  ['', 'Node', 'spec.taints', atomicList],
  ['', 'Node', 'spec.podCIDRs', { listType: 'set', patchStrategy: 'merge' }],
  ['', 'Node', 'status.addresses', conditions],
  ['', 'Node', 'status.conditions', conditions],
  ['', 'Node', 'status.images', atomicList],
  ['', 'Node', 'status.volumesInUse', atomicList],
  ['', 'Node', 'status.volumesAttached', atomicList],
  ['', 'Node', 'status.capacity', none],
  // core/v1 storage, quota and the rest
  ['', 'PersistentVolume', 'spec.accessModes', atomicList],
  ['', 'PersistentVolume', 'spec.mountOptions', atomicList],
  // ObjectReference is an atomic struct, but upstream marks the claimRef use +structType=granular.
  ['', 'PersistentVolume', 'spec.claimRef', { mapType: 'atomic', structType: 'granular' }],
  ['', 'PersistentVolume', 'spec.nodeAffinity.required', atomicStruct],
  ['', 'PersistentVolume', 'spec.csi.nodePublishSecretRef', atomicStruct],
  ['', 'PersistentVolumeClaim', 'spec.accessModes', atomicList],
  ['', 'PersistentVolumeClaim', 'spec.selector', atomicStruct],
  ['', 'PersistentVolumeClaim', 'spec.dataSource', atomicStruct],
  ['', 'PersistentVolumeClaim', 'status.conditions', conditions],
  ['', 'PersistentVolumeClaim', 'status.allocatedResourceStatuses', { mapType: 'granular' }],
  ['', 'ResourceQuota', 'spec.scopes', atomicList],
  ['', 'ResourceQuota', 'spec.scopeSelector', atomicStruct],
  ['', 'ResourceQuota', 'spec.scopeSelector.matchExpressions', atomicList],
  ['', 'ResourceQuota', 'spec.hard', none],
  ['', 'LimitRange', 'spec.limits', atomicList],
  ['', 'Namespace', 'spec.finalizers', atomicList],
  ['', 'Namespace', 'status.conditions', conditions],
  ['', 'ServiceAccount', 'secrets', mapList(['name'])],
  ['', 'ServiceAccount', 'imagePullSecrets', atomicList],
  ['', 'ReplicationController', 'spec.selector', atomicStruct],
  ['', 'ReplicationController', 'status.conditions', conditions],
  ['', 'Event', 'involvedObject', atomicStruct],
  ['', 'Event', 'related', atomicStruct],
  ['', 'ConfigMap', 'data', none],
  ['', 'Secret', 'data', none],
  // apps/v1
  [apps, 'Deployment', 'spec.selector', atomicStruct],
  [apps, 'Deployment', 'spec.selector.matchExpressions', atomicList],
  [apps, 'Deployment', 'spec.selector.matchExpressions[].values', atomicList],
  [apps, 'Deployment', 'spec.strategy', { patchStrategy: 'retainKeys' }],
  [apps, 'Deployment', 'spec.template.spec.containers', mapList(['name'])],
  [apps, 'Deployment', 'status.conditions', conditions],
  [apps, 'StatefulSet', 'spec.selector', atomicStruct],
  [apps, 'StatefulSet', 'spec.volumeClaimTemplates', atomicList],
  [apps, 'StatefulSet', 'status.conditions', conditions],
  [apps, 'DaemonSet', 'spec.selector', atomicStruct],
  [apps, 'DaemonSet', 'status.conditions', conditions],
  [apps, 'ReplicaSet', 'spec.selector', atomicStruct],
  [apps, 'ReplicaSet', 'status.conditions', conditions],
  // batch/v1: Job conditions are merged by type for strategic merge patch but atomic for apply.
  [batch, 'Job', 'spec.selector', atomicStruct],
  [batch, 'Job', 'spec.podFailurePolicy.rules', atomicList],
  [batch, 'Job', 'spec.podFailurePolicy.rules[].onPodConditions', atomicList],
  [batch, 'Job', 'status.conditions', { listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'type' }],
  [batch, 'Job', 'status.uncountedTerminatedPods.succeeded', { listType: 'set' }],
  [batch, 'Job', 'status.uncountedTerminatedPods.failed', { listType: 'set' }],
  [batch, 'CronJob', 'status.active', atomicList],
  [batch, 'CronJob', 'spec.jobTemplate.spec.template.spec.volumes', mapList(['name'], 'name', 'merge,retainKeys')],
  // rbac/v1
  [rbac, 'ClusterRole', 'rules', atomicList],
  [rbac, 'ClusterRole', 'rules[].verbs', atomicList],
  [rbac, 'ClusterRole', 'rules[].apiGroups', atomicList],
  [rbac, 'ClusterRole', 'rules[].resources', atomicList],
  [rbac, 'ClusterRole', 'rules[].resourceNames', atomicList],
  [rbac, 'ClusterRole', 'rules[].nonResourceURLs', atomicList],
  [rbac, 'ClusterRole', 'aggregationRule.clusterRoleSelectors', atomicList],
  [rbac, 'Role', 'rules', atomicList],
  [rbac, 'RoleBinding', 'subjects', atomicList],
  [rbac, 'RoleBinding', 'subjects[]', atomicStruct],
  [rbac, 'RoleBinding', 'roleRef', atomicStruct],
  [rbac, 'ClusterRoleBinding', 'subjects', atomicList],
  [rbac, 'ClusterRoleBinding', 'roleRef', atomicStruct],
  // networking/v1
  [networking, 'NetworkPolicy', 'spec.podSelector', atomicStruct],
  [networking, 'NetworkPolicy', 'spec.ingress', atomicList],
  [networking, 'NetworkPolicy', 'spec.egress', atomicList],
  [networking, 'NetworkPolicy', 'spec.policyTypes', atomicList],
  [networking, 'NetworkPolicy', 'spec.ingress[].from', atomicList],
  [networking, 'NetworkPolicy', 'spec.ingress[].ports', atomicList],
  [networking, 'NetworkPolicy', 'spec.egress[].to', atomicList],
  [networking, 'NetworkPolicy', 'spec.egress[].to[].namespaceSelector', atomicStruct],
  [networking, 'Ingress', 'spec.rules', atomicList],
  [networking, 'Ingress', 'spec.rules[].http.paths', atomicList],
  [networking, 'Ingress', 'spec.tls', atomicList],
  [networking, 'Ingress', 'spec.tls[].hosts', atomicList],
  [networking, 'Ingress', 'status.loadBalancer.ingress', atomicList],
  // admissionregistration/v1
  [admission, 'ValidatingWebhookConfiguration', 'webhooks', mapList(['name'])],
  [admission, 'ValidatingWebhookConfiguration', 'webhooks[].rules', atomicList],
  [admission, 'ValidatingWebhookConfiguration', 'webhooks[].rules[].operations', atomicList],
  [admission, 'ValidatingWebhookConfiguration', 'webhooks[].rules[].apiGroups', atomicList],
  [admission, 'ValidatingWebhookConfiguration', 'webhooks[].admissionReviewVersions', atomicList],
  [admission, 'ValidatingWebhookConfiguration', 'webhooks[].matchConditions', mapList(['name'])],
  [admission, 'ValidatingWebhookConfiguration', 'webhooks[].namespaceSelector', atomicStruct],
  [admission, 'ValidatingWebhookConfiguration', 'webhooks[].objectSelector', atomicStruct],
  [admission, 'MutatingWebhookConfiguration', 'webhooks', mapList(['name'])],
  [admission, 'ValidatingAdmissionPolicy', 'spec.paramKind', atomicStruct],
  [admission, 'ValidatingAdmissionPolicy', 'spec.matchConstraints', atomicStruct],
  [admission, 'ValidatingAdmissionPolicy', 'spec.matchConstraints.resourceRules', atomicList],
  [admission, 'ValidatingAdmissionPolicy', 'spec.matchConstraints.resourceRules[]', atomicStruct],
  [admission, 'ValidatingAdmissionPolicy', 'spec.matchConstraints.resourceRules[].resourceNames', atomicList],
  [admission, 'ValidatingAdmissionPolicy', 'spec.matchConstraints.resourceRules[].operations', atomicList],
  [admission, 'ValidatingAdmissionPolicy', 'spec.matchConstraints.excludeResourceRules', atomicList],
  [admission, 'ValidatingAdmissionPolicy', 'spec.validations', atomicList],
  [admission, 'ValidatingAdmissionPolicy', 'spec.auditAnnotations', atomicList],
  [admission, 'ValidatingAdmissionPolicy', 'spec.matchConditions', mapList(['name'])],
  [admission, 'ValidatingAdmissionPolicy', 'spec.variables', mapList(['name'])],
  [admission, 'ValidatingAdmissionPolicy', 'spec.variables[]', atomicStruct],
  [admission, 'ValidatingAdmissionPolicy', 'status.typeChecking.expressionWarnings', atomicList],
  [admission, 'ValidatingAdmissionPolicy', 'status.conditions', { listType: 'map', mapKeys: ['type'] }],
  [admission, 'ValidatingAdmissionPolicyBinding', 'spec.paramRef', atomicStruct],
  [admission, 'ValidatingAdmissionPolicyBinding', 'spec.matchResources', atomicStruct],
  [admission, 'ValidatingAdmissionPolicyBinding', 'spec.validationActions', { listType: 'set' }],
  [admission, 'MutatingWebhookConfiguration', 'webhooks[].rules', atomicList],
  [admission, 'MutatingWebhookConfiguration', 'webhooks[].rules[].resources', atomicList],
  [admission, 'MutatingWebhookConfiguration', 'webhooks[].matchConditions', mapList(['name'])],
  // the other groups
  ['policy', 'PodDisruptionBudget', 'spec.selector', { mapType: 'atomic', patchStrategy: 'replace' }],
  ['policy', 'PodDisruptionBudget', 'status.conditions', conditions],
  ['events.orch.io', 'Event', 'regarding', atomicStruct],
  ['events.orch.io', 'Event', 'related', atomicStruct],
  [storage, 'StorageClass', 'mountOptions', atomicList],
  [storage, 'StorageClass', 'allowedTopologies', atomicList],
  [storage, 'StorageClass', 'allowedTopologies[].matchLabelExpressions', atomicList],
  [storage, 'CSIDriver', 'spec.volumeLifecycleModes', { listType: 'set' }],
  [storage, 'CSIDriver', 'spec.tokenRequests', atomicList],
  ['authentication.orch.io', 'TokenReview', 'spec.audiences', atomicList],
  ['authorization.orch.io', 'SubjectAccessReview', 'spec.groups', atomicList],
  ['authorization.orch.io', 'SelfSubjectRulesReview', 'status.resourceRules', atomicList],
  ['node.orch.io', 'RuntimeClass', 'scheduling.tolerations', atomicList],
  ['node.orch.io', 'RuntimeClass', 'scheduling.nodeSelector', atomicStruct],
];

test('the merge markers of every pinned field are upstream\'s, and no others', () => {
  const wrong: string[] = [];
  for (const [group, kind, path, want] of cases) {
    const got = markersOf(at(group, kind, path));
    try {
      assert.deepStrictEqual(got, want);
    } catch {
      wrong.push(`${group || 'core'}/${kind} ${path}: ${JSON.stringify(got)}, upstream ${JSON.stringify(want)}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('PriorityClass and Lease carry no merge markers at all (upstream has none on them)', () => {
  for (const [group, kind] of [['scheduling.orch.io', 'PriorityClass'], ['coordination.orch.io', 'Lease']] as const) {
    const found: string[] = [];
    for (const [path, s] of nodes(kindSchema(group, kind), '')) {
      if (path.startsWith('.metadata')) continue;
      if (Object.keys(markersOf(s)).length > 0) found.push(path);
    }
    assert.deepEqual(found, [], kind);
  }
});

/** Every node of a schema with its path, each object once. */
function nodes(schema: SchemaNode, path: string, seen = new Set<SchemaNode>()): [string, SchemaNode][] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const out: [string, SchemaNode][] = [[path, schema]];
  for (const [k, s] of Object.entries(schema.properties ?? {})) out.push(...nodes(s, `${path}.${k}`, seen));
  const items = itemSchema(schema);
  if (items) out.push(...nodes(items, `${path}[]`, seen));
  const value = mapValueSchema(schema);
  if (value) out.push(...nodes(value, `${path}{}`, seen));
  for (const s of schema.anyOf ?? []) out.push(...nodes(s, path, seen));
  return out;
}

test('every marker of every served kind is well formed', () => {
  const bad: string[] = [];
  for (const gv of allGroupVersions) {
    for (const k of gv.kinds) {
      const schemas = [k.schema, ...Object.values(k.subresourceKinds ?? {}).map((s) => s.schema)];
      for (const root of schemas) {
        for (const [path, s] of nodes(root as unknown as SchemaNode, `${gv.group || 'core'}/${k.kind}`)) {
          const m = markersOf(s);
          const isList = s.type === 'array';
          const items = itemSchema(s);
          const objectItems = items?.type === 'object' && items.properties !== undefined;
          const say = (what: string) => bad.push(`${path}: ${what}`);
          if (m.listType !== undefined && (!isList || !['atomic', 'set', 'map'].includes(m.listType))) say(`list type ${m.listType}`);
          if (m.mapType !== undefined && (s.type !== 'object' || !['atomic', 'granular'].includes(m.mapType))) say(`map type ${m.mapType}`);
          if (m.structType !== undefined && (s.type !== 'object' || !['atomic', 'granular'].includes(m.structType))) say(`struct type ${m.structType}`);
          if (m.listType === 'set' && objectItems) say('a set of objects');
          if ((m.mapKeys !== undefined) !== (m.listType === 'map')) say('list map keys without list type map, or the reverse');
          for (const key of m.mapKeys ?? []) if (!objectItems || !items.properties![key]) say(`map key ${key} is not a field of the items`);
          if (m.patchMergeKey !== undefined) {
            if (!m.patchStrategy?.split(',').includes('merge')) say('a merge key without the merge strategy');
            if (!objectItems || !items.properties![m.patchMergeKey]) say(`merge key ${m.patchMergeKey} is not a field of the items`);
            if (m.listType === 'map' && !m.mapKeys!.includes(m.patchMergeKey)) say('the merge key is not one of the list map keys');
          }
          if (isList && m.patchStrategy?.split(',').includes('merge') && objectItems && m.patchMergeKey === undefined) say('a merged list of objects without a merge key');
        }
      }
    }
  }
  assert.deepEqual(bad, []);
});
