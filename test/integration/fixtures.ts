// One valid object of every served kind, with the paths it is served at.

export interface KindFixture {
  kind: string;
  apiVersion: string;
  resource: string;
  namespaced: boolean;
  /** Base path of the group/version, e.g. /apis/apps/v1. */
  gv: string;
  hasStatus: boolean;
  /** DELETE answers with the object rather than a Status. */
  returnsObject: boolean;
  /** Deletion waits for finalizers the server itself adds (a Namespace terminates until finalized). */
  terminates?: boolean;
  make(name: string): Record<string, unknown>;
  /** A merge patch that changes something visible, and how to read the change back. */
  patch: Record<string, unknown>;
  patched(obj: Record<string, any>): unknown;
  /** A status a client (a controller) may set through /status. */
  status?: Record<string, unknown>;
}

/** A PEM PKCS#10 request (EC P-256, CN=fixture-user, O=example), base64 as spec.request carries it. */
export const exampleCSRBase64 = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIbE1JR0xBZ0VBTUNreEVEQU9CZ05WQkFvVEIyVjRZVzF3YkdVeEZUQVRCZ05WQkFNVERHWnBlSFIxY21VdApkWE5sY2pCWk1CTUdCeXFHU000OUFnRUdDQ3FHU000OUF3RUhBMElBQk1oZGRpWTJCM2FNQi93TDNmVElmajBIClJPOG9UUmFURFBCUHNKclowSTU2cnFZTFlxZmJueUlYa3VIay9qK3JlM2YrVEVmTW9UT3diU09SNGFDYzIweWcKQURBS0JnZ3Foa2pPUFFRREFnTkpBREJHQWlFQXR5TUQzR3ZNV21EZnBtK1dxNEYwSVlhektYZklITFhDdVNLZApaWEFtT09VQ0lRQ0ppL3drazY4MEU2Q01ialFtR3RQb3pGRWM5Z1UxVVN0dWp3ZTRzSEhkUEE9PQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K';

export const statefulSetTemplate = (name: string) => ({
  metadata: { labels: { app: name } },
  spec: {
    containers: [{
      name: 'web',
      image: 'registry.example/nginx:1.25',
      ports: [{ name: 'http', containerPort: 80 }],
      volumeMounts: [{ name: 'data', mountPath: '/usr/share/nginx/html' }],
      readinessProbe: { httpGet: { path: '/', port: 'http' } },
      resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
    }],
  },
});

/** The pod template of the Deployment and ReplicaSet fixtures. */
export const workloadTemplate = (name: string) => ({
  metadata: { labels: { app: name } },
  spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] },
});

/** A webhook of the webhook configuration fixtures that no request ever reaches. */
const fixtureWebhook = (timeoutSeconds: number) => ({
  name: 'fixture.hooks.example.com',
  clientConfig: { url: 'https://127.0.0.1:1/fixture' },
  rules: [{ operations: ['CREATE'], apiGroups: ['fixtures.example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
  failurePolicy: 'Ignore', sideEffects: 'None', timeoutSeconds, admissionReviewVersions: ['v1'],
});

// events.orch.io/v1 Event is not listed: it is stored as core events (the same objects under the
// same keys), which the generic loops, naming objects by resource, would trip over. Its discovery
// entry, protobuf, Table and conversions are tested in volumes-and-events.test.ts.
export const fixtures: KindFixture[] = [
  {
    kind: 'ConfigMap', apiVersion: 'v1', resource: 'configmaps', namespaced: true, gv: '/api/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { fixture: 'yes' } }, data: { a: '1' } }),
    patch: { data: { b: '2' } }, patched: (o) => o.data.b,
  },
  {
    kind: 'Secret', apiVersion: 'v1', resource: 'secrets', namespaced: true, gv: '/api/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, labels: { fixture: 'yes' } }, data: { password: Buffer.from('s3cret').toString('base64') } }),
    patch: { data: { user: Buffer.from('admin').toString('base64') } }, patched: (o) => o.data.user,
  },
  {
    kind: 'ServiceAccount', apiVersion: 'v1', resource: 'serviceaccounts', namespaced: true, gv: '/api/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, labels: { fixture: 'yes' } } }),
    patch: { automountServiceAccountToken: false }, patched: (o) => o.automountServiceAccountToken,
  },
  {
    kind: 'Pod', apiVersion: 'v1', resource: 'pods', namespaced: true, gv: '/api/v1', hasStatus: true, returnsObject: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { fixture: 'yes' } }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] } }),
    patch: { metadata: { annotations: { note: 'patched' } } }, patched: (o) => o.metadata.annotations.note,
    status: { phase: 'Running', podIP: '10.1.0.7', podIPs: [{ ip: '10.1.0.7' }], qosClass: 'BestEffort' },
  },
  {
    kind: 'LimitRange', apiVersion: 'v1', resource: 'limitranges', namespaced: true, gv: '/api/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name, labels: { fixture: 'yes' } }, spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }] } }),
    patch: { metadata: { annotations: { note: 'patched' } } }, patched: (o) => o.metadata.annotations.note,
  },
  {
    kind: 'ResourceQuota', apiVersion: 'v1', resource: 'resourcequotas', namespaced: true, gv: '/api/v1', hasStatus: true, returnsObject: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, labels: { fixture: 'yes' } }, spec: { hard: { pods: '10', 'requests.cpu': '4' } } }),
    patch: { spec: { hard: { pods: '20' } } }, patched: (o) => o.spec.hard.pods,
    status: { hard: { pods: '10' }, used: { pods: '3' } },
  },
  {
    kind: 'Endpoints', apiVersion: 'v1', resource: 'endpoints', namespaced: true, gv: '/api/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name, labels: { fixture: 'yes' } },
      subsets: [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ name: 'http', port: 80 }] }] }),
    patch: { subsets: [{ addresses: [{ ip: '10.1.0.2' }], ports: [{ name: 'http', port: 8080 }] }] }, patched: (o) => o.subsets[0].ports[0].port,
  },
  {
    kind: 'Node', apiVersion: 'v1', resource: 'nodes', namespaced: false, gv: '/api/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { fixture: 'yes' } }, spec: { podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'] } }),
    patch: { spec: { unschedulable: true } }, patched: (o) => o.spec.unschedulable,
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' }, allocatable: { cpu: '3800m', memory: '7Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
      addresses: [{ type: 'InternalIP', address: '192.168.0.10' }, { type: 'Hostname', address: 'node-1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: { machineID: 'm1', systemUUID: 's1', bootID: 'b1', kernelVersion: '6.1.0', osImage: 'Debian GNU/Linux 12', containerRuntimeVersion: 'containerd://1.7.0',
        kubeletVersion: 'v1.31.0', kubeProxyVersion: '', operatingSystem: 'linux', architecture: 'amd64' },
    },
  },
  {
    kind: 'Service', apiVersion: 'v1', resource: 'services', namespaced: true, gv: '/api/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, labels: { fixture: 'yes' } },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] } }),
    patch: { spec: { selector: { app: 'web2' } } }, patched: (o) => o.spec.selector.app,
    status: { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP' }] } },
  },
  {
    kind: 'Event', apiVersion: 'v1', resource: 'events', namespaced: true, gv: '/api/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'Event', metadata: { name, labels: { fixture: 'yes' } },
      // A new-style event (eventTime set): its object's namespace need not be the namespace it is created in.
      involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'default' }, reason: 'Started', message: 'Started container web', type: 'Normal',
      source: { component: 'kubelet', host: 'node-1' }, firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T02:00:00Z', count: 4,
      eventTime: '2026-01-01T00:00:00.000001Z', action: 'Starting', reportingComponent: 'orch.io/kubelet', reportingInstance: 'node-1' }),
    patch: { count: 5 }, patched: (o) => o.count,
  },
  {
    kind: 'ReplicationController', apiVersion: 'v1', resource: 'replicationcontrollers', namespaced: true, gv: '/api/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'v1', kind: 'ReplicationController', metadata: { name, labels: { fixture: 'yes' } },
      spec: { selector: { app: name }, template: workloadTemplate(name) },
    }),
    patch: { spec: { replicas: 3 } }, patched: (o) => o.spec.replicas,
    status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 },
  },
  {
    kind: 'PersistentVolumeClaim', apiVersion: 'v1', resource: 'persistentvolumeclaims', namespaced: true, gv: '/api/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, labels: { fixture: 'yes' } },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'fast' } }),
    patch: { metadata: { annotations: { note: 'patched' } } }, patched: (o) => o.metadata.annotations?.note,
    status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } },
  },
  {
    kind: 'PersistentVolume', apiVersion: 'v1', resource: 'persistentvolumes', namespaced: false, gv: '/api/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, labels: { fixture: 'yes' } },
      spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], hostPath: { path: '/data/pv' }, storageClassName: 'manual' } }),
    patch: { spec: { mountOptions: ['ro'] } }, patched: (o) => o.spec.mountOptions?.[0],
    status: { phase: 'Available', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' },
  },
  {
    kind: 'Namespace', apiVersion: 'v1', resource: 'namespaces', namespaced: false, gv: '/api/v1', hasStatus: true, returnsObject: true, terminates: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { fixture: 'yes' } } }),
    patch: { metadata: { labels: { team: 'blue' } } }, patched: (o) => o.metadata.labels.team,
    status: { phase: 'Active', conditions: [{ type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  },
  {
    kind: 'StatefulSet', apiVersion: 'apps/v1', resource: 'statefulsets', namespaced: true, gv: '/apis/apps/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, labels: { fixture: 'yes' } },
      spec: {
        serviceName: name,
        selector: { matchLabels: { app: name } },
        template: statefulSetTemplate(name),
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    }),
    patch: { spec: { replicas: 3 } }, patched: (o) => o.spec.replicas,
    status: { replicas: 2, readyReplicas: 1, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 1, observedGeneration: 1 },
  },
  {
    kind: 'Deployment', apiVersion: 'apps/v1', resource: 'deployments', namespaced: true, gv: '/apis/apps/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { fixture: 'yes' } },
      spec: { selector: { matchLabels: { app: name } }, template: workloadTemplate(name) },
    }),
    patch: { spec: { replicas: 3 } }, patched: (o) => o.spec.replicas,
    status: { replicas: 2, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 1, unavailableReplicas: 1, observedGeneration: 1 },
  },
  {
    kind: 'ReplicaSet', apiVersion: 'apps/v1', resource: 'replicasets', namespaced: true, gv: '/apis/apps/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, labels: { fixture: 'yes' } },
      spec: { selector: { matchLabels: { app: name } }, template: workloadTemplate(name) },
    }),
    patch: { spec: { replicas: 3 } }, patched: (o) => o.spec.replicas,
    status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 },
  },
  {
    kind: 'DaemonSet', apiVersion: 'apps/v1', resource: 'daemonsets', namespaced: true, gv: '/apis/apps/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, labels: { fixture: 'yes' } },
      spec: { selector: { matchLabels: { app: name } }, template: workloadTemplate(name) },
    }),
    patch: { spec: { minReadySeconds: 5 } }, patched: (o) => o.spec.minReadySeconds,
    status: { currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2, numberUnavailable: 1, observedGeneration: 1 },
  },
  {
    kind: 'Job', apiVersion: 'batch/v1', resource: 'jobs', namespaced: true, gv: '/apis/batch/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name, labels: { fixture: 'yes' } },
      spec: { template: { spec: { containers: [{ name: 'main', image: 'registry.example/batch:1' }], restartPolicy: 'Never' } } },
    }),
    patch: { spec: { parallelism: 2 } }, patched: (o) => o.spec.parallelism,
    status: { startTime: '2026-01-01T00:00:00Z', active: 1, ready: 0, terminating: 0 },
  },
  {
    kind: 'CronJob', apiVersion: 'batch/v1', resource: 'cronjobs', namespaced: true, gv: '/apis/batch/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name, labels: { fixture: 'yes' } },
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: { spec: { template: { spec: { containers: [{ name: 'main', image: 'registry.example/batch:1' }], restartPolicy: 'OnFailure' } } } },
      },
    }),
    patch: { spec: { schedule: '@hourly' } }, patched: (o) => o.spec.schedule,
    status: { lastScheduleTime: '2026-01-01T03:00:00Z' },
  },
  {
    // autoscaling/v1 is not listed: it is served from these objects, converted (autoscaling.test.ts).
    kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2', resource: 'horizontalpodautoscalers', namespaced: true, gv: '/apis/autoscaling/v2', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name, labels: { fixture: 'yes' } },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
      },
    }),
    patch: { spec: { maxReplicas: 12 } }, patched: (o) => o.spec.maxReplicas,
    status: {
      currentReplicas: 2, desiredReplicas: 3,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 75, averageValue: '150m' } } }],
      conditions: [{ type: 'AbleToScale', status: 'True', reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 3', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    },
  },
  {
    kind: 'ControllerRevision', apiVersion: 'apps/v1', resource: 'controllerrevisions', namespaced: true, gv: '/apis/apps/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({
      apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name, labels: { fixture: 'yes' } },
      data: { spec: { template: { metadata: { labels: { app: name } } } } },
      revision: 1,
    }),
    patch: { revision: 2 }, patched: (o) => o.revision,
  },
  {
    kind: 'ClusterRole', apiVersion: 'rbac.authorization.orch.io/v1', resource: 'clusterroles', namespaced: false, gv: '/apis/rbac.authorization.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({ apiVersion: 'rbac.authorization.orch.io/v1', kind: 'ClusterRole', metadata: { name, labels: { fixture: 'yes' } }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] }),
    patch: { rules: [{ apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['*'] }] }, patched: (o) => o.rules[0].apiGroups[0],
  },
  {
    kind: 'ClusterRoleBinding', apiVersion: 'rbac.authorization.orch.io/v1', resource: 'clusterrolebindings', namespaced: false, gv: '/apis/rbac.authorization.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({
      apiVersion: 'rbac.authorization.orch.io/v1', kind: 'ClusterRoleBinding', metadata: { name, labels: { fixture: 'yes' } },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'jane' }, { kind: 'ServiceAccount', name: 'builder', namespace: 'default' }],
    }),
    patch: { subjects: [{ kind: 'Group', name: 'devs' }] }, patched: (o) => o.subjects[0].apiGroup,
  },
  {
    kind: 'Role', apiVersion: 'rbac.authorization.orch.io/v1', resource: 'roles', namespaced: true, gv: '/apis/rbac.authorization.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({ apiVersion: 'rbac.authorization.orch.io/v1', kind: 'Role', metadata: { name, labels: { fixture: 'yes' } }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] }),
    patch: { metadata: { annotations: { note: 'patched' } } }, patched: (o) => o.metadata.annotations.note,
  },
  {
    kind: 'RoleBinding', apiVersion: 'rbac.authorization.orch.io/v1', resource: 'rolebindings', namespaced: true, gv: '/apis/rbac.authorization.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({
      apiVersion: 'rbac.authorization.orch.io/v1', kind: 'RoleBinding', metadata: { name, labels: { fixture: 'yes' } },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'User', name: 'jane' }],
    }),
    patch: { subjects: [{ kind: 'User', name: 'joe' }] }, patched: (o) => o.subjects[0].name,
  },
  {
    kind: 'CSIDriver', apiVersion: 'storage.orch.io/v1', resource: 'csidrivers', namespaced: false, gv: '/apis/storage.orch.io/v1', hasStatus: false, returnsObject: true,
    make: (name) => ({ apiVersion: 'storage.orch.io/v1', kind: 'CSIDriver', metadata: { name, labels: { fixture: 'yes' } }, spec: { attachRequired: true } }),
    patch: { spec: { requiresRepublish: true } }, patched: (o) => o.spec.requiresRepublish,
  },
  {
    kind: 'StorageClass', apiVersion: 'storage.orch.io/v1', resource: 'storageclasses', namespaced: false, gv: '/apis/storage.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({ apiVersion: 'storage.orch.io/v1', kind: 'StorageClass', metadata: { name, labels: { fixture: 'yes' } }, provisioner: 'csi.example.com', parameters: { type: 'ssd' } }),
    patch: { allowVolumeExpansion: true }, patched: (o) => o.allowVolumeExpansion,
  },
  {
    kind: 'IngressClass', apiVersion: 'networking.orch.io/v1', resource: 'ingressclasses', namespaced: false, gv: '/apis/networking.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({
      apiVersion: 'networking.orch.io/v1', kind: 'IngressClass', metadata: { name, labels: { fixture: 'yes' } },
      spec: { controller: 'example.com/ingress-controller' },
    }),
    patch: { spec: { parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external' } } }, patched: (o) => o.spec.parameters.name,
  },
  {
    kind: 'Ingress', apiVersion: 'networking.orch.io/v1', resource: 'ingresses', namespaced: true, gv: '/apis/networking.orch.io/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'networking.orch.io/v1', kind: 'Ingress', metadata: { name, labels: { fixture: 'yes' } },
      spec: { rules: [{ host: 'web.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] },
    }),
    patch: { spec: { ingressClassName: 'nginx' } }, patched: (o) => o.spec.ingressClassName,
    status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } },
  },
  {
    kind: 'NetworkPolicy', apiVersion: 'networking.orch.io/v1', resource: 'networkpolicies', namespaced: true, gv: '/apis/networking.orch.io/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'networking.orch.io/v1', kind: 'NetworkPolicy', metadata: { name, labels: { fixture: 'yes' } },
      spec: {
        podSelector: { matchLabels: { app: 'db' } },
        ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.1.0/24'] } }, { podSelector: { matchLabels: { role: 'api' } } }], ports: [{ port: 5432 }] }],
      },
    }),
    patch: { spec: { podSelector: { matchLabels: { app: 'cache' } } } }, patched: (o) => o.spec.podSelector.matchLabels.app,
    status: { conditions: [{ type: 'Enforced', status: 'True', reason: 'Programmed', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  },
  {
    kind: 'PodDisruptionBudget', apiVersion: 'policy/v1', resource: 'poddisruptionbudgets', namespaced: true, gv: '/apis/policy/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, labels: { fixture: 'yes' } }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } }),
    patch: { spec: { minAvailable: '50%' } }, patched: (o) => o.spec.minAvailable,
    status: { currentHealthy: 2, desiredHealthy: 1, disruptionsAllowed: 1, expectedPods: 2, observedGeneration: 1 },
  },
  {
    kind: 'PriorityClass', apiVersion: 'scheduling.orch.io/v1', resource: 'priorityclasses', namespaced: false, gv: '/apis/scheduling.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({ apiVersion: 'scheduling.orch.io/v1', kind: 'PriorityClass', metadata: { name, labels: { fixture: 'yes' } }, value: 1000, description: 'for important pods' }),
    patch: { description: 'patched' }, patched: (o) => o.description,
  },
  {
    // A real PKCS#10 request (EC P-256, CN=fixture-user, O=example): the server verifies its signature.
    kind: 'CertificateSigningRequest', apiVersion: 'certificates.orch.io/v1', resource: 'certificatesigningrequests', namespaced: false,
    gv: '/apis/certificates.orch.io/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'certificates.orch.io/v1', kind: 'CertificateSigningRequest', metadata: { name, labels: { fixture: 'yes' } },
      spec: { request: exampleCSRBase64, signerName: 'example.com/fixture-signer', usages: ['digital signature', 'client auth'], expirationSeconds: 3600 },
    }),
    // Only metadata changes through the main resource.
    patch: { metadata: { annotations: { patched: 'yes' } } }, patched: (o) => o.metadata.annotations?.patched,
    status: { conditions: [{ type: 'Failed', status: 'True', reason: 'SignerFailed', message: 'fixture', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  },
  {
    kind: 'Lease', apiVersion: 'coordination.orch.io/v1', resource: 'leases', namespaced: true, gv: '/apis/coordination.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({
      apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name, labels: { fixture: 'yes' } },
      spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2026-01-01T00:00:00.000000Z' },
    }),
    patch: { spec: { holderIdentity: 'node-2' } }, patched: (o) => o.spec.holderIdentity,
  },
  {
    kind: 'EndpointSlice', apiVersion: 'discovery.orch.io/v1', resource: 'endpointslices', namespaced: true, gv: '/apis/discovery.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({
      apiVersion: 'discovery.orch.io/v1', kind: 'EndpointSlice', metadata: { name, labels: { fixture: 'yes' } }, addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.2.3'], conditions: { ready: true }, nodeName: 'node-1' }],
      ports: [{ name: 'http', protocol: 'TCP', port: 8080 }],
    }),
    patch: { ports: [{ name: 'http', protocol: 'TCP', port: 9090 }] }, patched: (o) => o.ports[0].port,
  },
  {
    kind: 'RuntimeClass', apiVersion: 'node.orch.io/v1', resource: 'runtimeclasses', namespaced: false, gv: '/apis/node.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({
      apiVersion: 'node.orch.io/v1', kind: 'RuntimeClass', metadata: { name, labels: { fixture: 'yes' } }, handler: 'runsc',
      overhead: { podFixed: { cpu: '250m' } },
    }),
    patch: { scheduling: { nodeSelector: { sandbox: 'gvisor' } } }, patched: (o) => o.scheduling.nodeSelector.sandbox,
  },
  // The webhooks match only a group no server serves, and failures are ignored, so these
  // configurations never stand in the way of the other kinds' requests once webhooks are called.
  ...(['Validating', 'Mutating'] as const).map((k): KindFixture => ({
    kind: `${k}WebhookConfiguration`, apiVersion: 'admissionregistration.orch.io/v1', resource: `${k.toLowerCase()}webhookconfigurations`, namespaced: false,
    gv: '/apis/admissionregistration.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({
      apiVersion: 'admissionregistration.orch.io/v1', kind: `${k}WebhookConfiguration`, metadata: { name, labels: { fixture: 'yes' } },
      webhooks: [fixtureWebhook(10)],
    }),
    patch: { webhooks: [fixtureWebhook(7)] }, patched: (o) => o.webhooks[0].timeoutSeconds,
  })),
  {
    // Binds a policy no fixture creates, so it never applies.
    kind: 'ValidatingAdmissionPolicyBinding', apiVersion: 'admissionregistration.orch.io/v1', resource: 'validatingadmissionpolicybindings', namespaced: false,
    gv: '/apis/admissionregistration.orch.io/v1', hasStatus: false, returnsObject: false,
    make: (name) => ({
      apiVersion: 'admissionregistration.orch.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name, labels: { fixture: 'yes' } },
      spec: { policyName: 'fixture-unbound-policy', validationActions: ['Deny'] },
    }),
    patch: { spec: { validationActions: ['Warn', 'Audit'] } }, patched: (o) => o.spec.validationActions[1],
  },
];

/**
 * Kinds whose status the server writes right after each change of the spec (a policy's type
 * checking), which the generic loops, comparing an object with its next read, would trip over.
 * Their requests are tested in their own files; this object serves the Table and codec checks.
 */
export const serverStatusFixtures: KindFixture[] = [
  {
    kind: 'ValidatingAdmissionPolicy', apiVersion: 'admissionregistration.orch.io/v1', resource: 'validatingadmissionpolicies', namespaced: false,
    gv: '/apis/admissionregistration.orch.io/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'admissionregistration.orch.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name, labels: { fixture: 'yes' } },
      spec: {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['fixtures.example.com'], apiVersions: ['v1'], resources: ['widgets'] }] },
        validations: [{ expression: 'object.spec.size <= int(params.data.max)' }],
        failurePolicy: 'Ignore',
      },
    }),
    patch: { spec: { failurePolicy: 'Fail' } }, patched: (o) => o.spec.failurePolicy,
    status: { observedGeneration: 1, typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'fixture' }] } },
  },
  {
    // Its name must be <version>.<group>, and the availability controller writes its status.
    kind: 'APIService', apiVersion: 'apiregistration.orch.io/v1', resource: 'apiservices', namespaced: false,
    gv: '/apis/apiregistration.orch.io/v1', hasStatus: true, returnsObject: false,
    make: (name) => ({
      apiVersion: 'apiregistration.orch.io/v1', kind: 'APIService', metadata: { name, labels: { fixture: 'yes' } },
      spec: {
        service: { namespace: 'orch-system', name: 'metrics-server', port: 443 }, group: 'metrics.orch.io', version: 'v1beta1',
        insecureSkipTLSVerify: true, groupPriorityMinimum: 100, versionPriority: 100,
      },
    }),
    patch: { spec: { versionPriority: 50 } }, patched: (o) => o.spec.versionPriority,
    status: { conditions: [{ type: 'Available', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'MissingEndpoints', message: 'endpoints for service/metrics-server in "orch-system" have no addresses with port name "https"' }] },
  },
];

/** The collection path of a fixture's kind, in `ns` for namespaced kinds. */
export function collectionPath(f: KindFixture, ns = 'default'): string {
  return f.namespaced ? `${f.gv}/namespaces/${ns}/${f.resource}` : `${f.gv}/${f.resource}`;
}

export function itemPath(f: KindFixture, name: string, ns = 'default'): string {
  return `${collectionPath(f, ns)}/${name}`;
}
