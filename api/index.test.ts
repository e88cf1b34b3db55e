import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allGroupVersions } from './index.js';

test('group versions are listed core first, in discovery order', () => {
  assert.deepEqual(allGroupVersions.map((gv) => `${gv.group}/${gv.version}`), [
    '/v1', 'apiregistration.orch.io/v1', 'apps/v1', 'events.orch.io/v1', 'authentication.orch.io/v1', 'authentication.orch.io/v1beta1', 'authorization.orch.io/v1', 'autoscaling/v2', 'autoscaling/v1', 'batch/v1', 'certificates.orch.io/v1', 'rbac.authorization.orch.io/v1', 'storage.orch.io/v1', 'networking.orch.io/v1', 'policy/v1',
    'admissionregistration.orch.io/v1', 'apiextensions.orch.io/v1', 'scheduling.orch.io/v1', 'coordination.orch.io/v1', 'node.orch.io/v1', 'discovery.orch.io/v1',
  ]);
});

test('kinds are registered with their resources, scopes, short names and sub-resources', () => {
  const rows = allGroupVersions.flatMap((gv) => gv.kinds.map((k) =>
    `${gv.group}/${k.kind} ${k.resource} ${k.namespaced ? 'ns' : 'cluster'} [${(k.shortNames ?? []).join(',')}] [${(k.subresources ?? []).join(',')}]`));
  assert.deepEqual(rows, [
    '/Pod pods ns [po] [status,binding,eviction,ephemeralcontainers,exec,attach,log,portforward,proxy]',
    '/Binding bindings ns [] []',
    '/Namespace namespaces cluster [ns] [status,finalize]',
    '/ConfigMap configmaps ns [cm] []',
    '/Secret secrets ns [] []',
    '/ServiceAccount serviceaccounts ns [sa] [token]',
    '/LimitRange limitranges ns [limits] []',
    '/ResourceQuota resourcequotas ns [quota] [status]',
    '/Endpoints endpoints ns [ep] []',
    '/Node nodes cluster [no] [status,proxy]',
    '/Service services ns [svc] [status,proxy]',
    '/Event events ns [ev] []',
    '/PersistentVolumeClaim persistentvolumeclaims ns [pvc] [status]',
    '/PersistentVolume persistentvolumes cluster [pv] [status]',
    '/ReplicationController replicationcontrollers ns [rc] [status,scale]',
    'apiregistration.orch.io/APIService apiservices cluster [] [status]',
    'apps/StatefulSet statefulsets ns [sts] [status,scale]',
    'apps/Deployment deployments ns [deploy] [status,scale]',
    'apps/ReplicaSet replicasets ns [rs] [status,scale]',
    'apps/DaemonSet daemonsets ns [ds] [status]',
    'apps/ControllerRevision controllerrevisions ns [] []',
    'events.orch.io/Event events ns [ev] []',
    'authentication.orch.io/TokenReview tokenreviews cluster [] []',
    'authentication.orch.io/SelfSubjectReview selfsubjectreviews cluster [] []',
    'authentication.orch.io/TokenReview tokenreviews cluster [] []',
    'authentication.orch.io/SelfSubjectReview selfsubjectreviews cluster [] []',
    'authorization.orch.io/LocalSubjectAccessReview localsubjectaccessreviews ns [] []',
    'authorization.orch.io/SelfSubjectAccessReview selfsubjectaccessreviews cluster [] []',
    'authorization.orch.io/SelfSubjectRulesReview selfsubjectrulesreviews cluster [] []',
    'authorization.orch.io/SubjectAccessReview subjectaccessreviews cluster [] []',
    'autoscaling/HorizontalPodAutoscaler horizontalpodautoscalers ns [hpa] [status]',
    'autoscaling/HorizontalPodAutoscaler horizontalpodautoscalers ns [hpa] [status]',
    'batch/CronJob cronjobs ns [cj] [status]',
    'batch/Job jobs ns [] [status]',
    'certificates.orch.io/CertificateSigningRequest certificatesigningrequests cluster [csr] [status,approval]',
    'rbac.authorization.orch.io/ClusterRole clusterroles cluster [] []',
    'rbac.authorization.orch.io/ClusterRoleBinding clusterrolebindings cluster [] []',
    'rbac.authorization.orch.io/Role roles ns [] []',
    'rbac.authorization.orch.io/RoleBinding rolebindings ns [] []',
    'storage.orch.io/CSIDriver csidrivers cluster [] []',
    'storage.orch.io/StorageClass storageclasses cluster [sc] []',
    'networking.orch.io/IngressClass ingressclasses cluster [] []',
    'networking.orch.io/Ingress ingresses ns [ing] [status]',
    'networking.orch.io/NetworkPolicy networkpolicies ns [netpol] [status]',
    'policy/PodDisruptionBudget poddisruptionbudgets ns [pdb] [status]',
    'admissionregistration.orch.io/MutatingWebhookConfiguration mutatingwebhookconfigurations cluster [] []',
    'admissionregistration.orch.io/ValidatingAdmissionPolicy validatingadmissionpolicies cluster [] [status]',
    'admissionregistration.orch.io/ValidatingAdmissionPolicyBinding validatingadmissionpolicybindings cluster [] []',
    'admissionregistration.orch.io/ValidatingWebhookConfiguration validatingwebhookconfigurations cluster [] []',
    'apiextensions.orch.io/CustomResourceDefinition customresourcedefinitions cluster [crd,crds] [status]',
    'scheduling.orch.io/PriorityClass priorityclasses cluster [pc] []',
    'coordination.orch.io/Lease leases ns [] []',
    'node.orch.io/RuntimeClass runtimeclasses cluster [] []',
    'discovery.orch.io/EndpointSlice endpointslices ns [] []',
  ]);
});

type Schema = Record<string, unknown>;

/** Every object schema reachable from `s`, with the path it was found at. */
function* objects(s: Schema, path: string, seen = new Set<Schema>()): Generator<[string, Schema]> {
  if (seen.has(s)) return;
  seen.add(s);
  if (s.properties) {
    yield [path, s];
    for (const [k, v] of Object.entries(s.properties as Record<string, Schema>)) yield* objects(v, `${path}.${k}`, seen);
  }
  if (s.items) yield* objects(s.items as Schema, `${path}[]`, seen);
  for (const v of Object.values((s.patternProperties ?? {}) as Record<string, Schema>)) yield* objects(v, `${path}{}`, seen);
  for (const v of (s.anyOf ?? []) as Schema[]) yield* objects(v, path, seen);
}

test('every property carries a distinct protobuf field number', () => {
  for (const gv of allGroupVersions) {
    for (const k of gv.kinds) {
      for (const [path, obj] of objects(k.schema as unknown as Schema, k.kind)) {
        // Inline-embedded structs number their fields inside their own sub-message.
        const numbers = new Map<string, string>();
        for (const [name, prop] of Object.entries(obj.properties as Record<string, Schema>)) {
          // apiVersion and kind of a top-level shape travel in the protobuf envelope.
          const topLevel = 'metadata' in (obj.properties as Record<string, Schema>);
          if (topLevel && (name === 'apiVersion' || name === 'kind')) continue;
          const n = prop['x-proto'];
          assert.equal(typeof n, 'number', `${path}.${name} has no x-proto`);
          const key = `${String(prop['x-orch-proto-embedded'] ?? '')}/${String(n)}`;
          assert.ok(!numbers.has(key), `${path}.${name} reuses ${key} of ${numbers.get(key)}`);
          numbers.set(key, name);
        }
      }
    }
  }
});

test('every list declares how it merges', () => {
  for (const gv of allGroupVersions) {
    for (const k of gv.kinds) {
      for (const [path, obj] of objects(k.schema as unknown as Schema, k.kind)) {
        for (const [name, prop] of Object.entries(obj.properties as Record<string, Schema>)) {
          if (prop.type === 'array') assert.ok(prop['x-orch-list-type'], `${path}.${name} has no list type`);
        }
      }
    }
  }
});
