// Realistic objects of every served kind, exercising every construct the protobuf codec maps:
// scalars, enums, int32/int64 (negative and beyond 32 bits), maps of strings, bytes, quantities
// and times, lists of scalars and messages, embedded structs, IntOrString, Quantity, Time,
// FieldsV1. Shared by the protobuf tests.

const managedFields = [
  {
    manager: 'kubectl-client-side-apply',
    operation: 'Update',
    apiVersion: 'v1',
    time: '2026-01-02T03:04:05Z',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:data': {} },
  },
  { manager: 'controller', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {}, subresource: 'status' },
];

/** ObjectMeta with every field set. */
export function fullMetadata(name: string, namespace?: string): Record<string, unknown> {
  return {
    name,
    generateName: `${name}-`,
    ...(namespace ? { namespace } : {}),
    selfLink: `/api/v1/things/${name}`,
    uid: '6f1c2a9e-4d7b-4b8e-9c1d-2f3a4b5c6d7e',
    resourceVersion: '123456',
    generation: 7,
    creationTimestamp: '2026-01-02T03:04:05Z',
    deletionTimestamp: '2026-02-03T04:05:06Z',
    deletionGracePeriodSeconds: 30,
    labels: { app: name, 'app.orch.io/tier': 'backend', empty: '' },
    annotations: { 'orch.io/description': 'a "quoted" annotation\nwith a newline', 'ünïcødé': '✓' },
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'owner', uid: '11111111-2222-3333-4444-555555555555', controller: true, blockOwnerDeletion: false },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: '66666666-7777-8888-9999-000000000000' },
    ],
    finalizers: ['orch.io/pvc-protection', 'example.com/cleanup'],
    managedFields,
  };
}

const probeHTTP = {
  httpGet: { path: '/healthz', port: 8080, host: '10.0.0.1', scheme: 'HTTPS', httpHeaders: [{ name: 'X-Probe', value: 'yes' }] },
  initialDelaySeconds: 5,
  timeoutSeconds: 2,
  periodSeconds: 10,
  successThreshold: 1,
  failureThreshold: 3,
  terminationGracePeriodSeconds: 45,
};

const container = {
  name: 'web',
  image: 'registry.example/nginx:1.25',
  command: ['/bin/sh', '-c'],
  args: ['exec nginx -g "daemon off;"'],
  workingDir: '/srv',
  ports: [
    { name: 'http', containerPort: 80, protocol: 'TCP' },
    { name: 'dns', hostPort: 5353, containerPort: 53, protocol: 'UDP', hostIP: '0.0.0.0' },
  ],
  envFrom: [
    { prefix: 'CFG_', configMapRef: { name: 'settings', optional: true } },
    { secretRef: { name: 'creds' } },
  ],
  env: [
    { name: 'PLAIN', value: 'value' },
    { name: 'EMPTY', value: '' },
    { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
    { name: 'MEM', valueFrom: { resourceFieldRef: { containerName: 'web', resource: 'limits.memory', divisor: '1Mi' } } },
    { name: 'CM', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode', optional: false } } },
    { name: 'SECRET', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
    { name: 'FILE', valueFrom: { fileKeyRef: { volumeName: 'config', path: 'app.env', key: 'TOKEN', optional: true } } },
  ],
  resources: {
    limits: { cpu: '2', memory: '512Mi', 'example.com/gpu': 1 },
    requests: { cpu: '250m', memory: '128Mi' },
    claims: [{ name: 'gpu-claim', request: 'first' }],
  },
  resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'RestartContainer' }],
  volumeMounts: [
    { name: 'config', mountPath: '/etc/config', readOnly: true, recursiveReadOnly: 'IfPossible' },
    { name: 'data', mountPath: '/data', subPath: 'web', mountPropagation: 'HostToContainer' },
    { name: 'scratch', mountPath: '/scratch', subPathExpr: '$(POD_NAME)' },
  ],
  volumeDevices: [{ name: 'block', devicePath: '/dev/xvda' }],
  livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 15 },
  readinessProbe: probeHTTP,
  startupProbe: { tcpSocket: { port: 'http', host: 'localhost' }, failureThreshold: 30 },
  lifecycle: {
    postStart: { exec: { command: ['/bin/touch', '/tmp/started'] } },
    preStop: { sleep: { seconds: 5 } },
    stopSignal: 'SIGTERM',
  },
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'FallbackToLogsOnError',
  imagePullPolicy: 'IfNotPresent',
  securityContext: {
    capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
    privileged: false,
    seLinuxOptions: { user: 'system_u', role: 'system_r', type: 'container_t', level: 's0:c1,c2' },
    windowsOptions: { gmsaCredentialSpecName: 'spec', gmsaCredentialSpec: '{}', runAsUserName: 'ContainerUser', hostProcess: false },
    runAsUser: 1000,
    runAsGroup: 3000,
    runAsNonRoot: true,
    readOnlyRootFilesystem: true,
    allowPrivilegeEscalation: false,
    procMount: 'Default',
    seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/web.json' },
    appArmorProfile: { type: 'RuntimeDefault' },
    ulimits: [{ name: 'nofile', hard: 1048576, soft: -1 }],
  },
  stdin: false,
  stdinOnce: false,
  tty: false,
};

const podSpec = {
  volumes: [
    { name: 'config', configMap: { name: 'settings', items: [{ key: 'app.conf', path: 'app.conf', mode: 0o400 }], defaultMode: 420, optional: true } },
    { name: 'creds', secret: { secretName: 'creds', defaultMode: 256, optional: false } },
    { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
    { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
    { name: 'data', persistentVolumeClaim: { claimName: 'data', readOnly: true } },
    { name: 'nfs', nfs: { server: 'nfs.example', path: '/exports', readOnly: true } },
    { name: 'csi', csi: { driver: 'csi.example.com', readOnly: true, fsType: 'ext4', volumeAttributes: { size: 'small' }, nodePublishSecretRef: { name: 'csi-secret' } } },
    {
      name: 'projected',
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { audience: 'api', expirationSeconds: 3600, path: 'token' } },
          { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }, { path: 'cpu', resourceFieldRef: { containerName: 'web', resource: 'requests.cpu', divisor: '1m' }, mode: 0o444 }] } },
          { configMap: { name: 'ca', items: [{ key: 'ca.crt', path: 'ca.crt' }], optional: true } },
          { secret: { name: 'tls' } },
          { clusterTrustBundle: { signerName: 'example.com/signer', labelSelector: { matchLabels: { trust: 'yes' } }, optional: true, path: 'bundle.pem' } },
          { podCertificate: { signerName: 'example.com/pods', keyType: 'ED25519', maxExpirationSeconds: 86400, credentialBundlePath: 'creds.pem', userAnnotations: { team: 'web' } } },
        ],
      },
    },
    {
      name: 'ephemeral',
      ephemeral: {
        volumeClaimTemplate: {
          metadata: { labels: { type: 'scratch' } },
          spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
        },
      },
    },
    { name: 'image', image: { reference: 'registry.example/data:1', pullPolicy: 'Always' } },
    { name: 'block', awsElasticBlockStore: { volumeID: 'vol-1', fsType: 'ext4', partition: 1, readOnly: false } },
    { name: 'iscsi', iscsi: { targetPortal: '10.0.0.2:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0, portals: ['10.0.0.3:3260'], chapAuthSession: true, secretRef: { name: 'chap' } } },
    { name: 'downward', downwardAPI: { items: [{ path: 'name', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } }], defaultMode: 420 } },
  ],
  initContainers: [
    { name: 'init', image: 'busybox', command: ['sh', '-c', 'true'], restartPolicy: 'Always', restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42, 0, -1] } }] },
  ],
  containers: [container, { name: 'sidecar', image: 'busybox', resources: {} }],
  ephemeralContainers: [{ name: 'debugger', image: 'busybox', stdin: true, tty: true, targetContainerName: 'web' }],
  restartPolicy: 'Always',
  terminationGracePeriodSeconds: 30,
  activeDeadlineSeconds: 3600,
  dnsPolicy: 'ClusterFirst',
  nodeSelector: { 'orch.io/os': 'linux' },
  serviceAccountName: 'web',
  serviceAccount: 'web',
  automountServiceAccountToken: false,
  nodeName: 'node-1',
  hostNetwork: false,
  hostPID: false,
  hostIPC: false,
  shareProcessNamespace: true,
  securityContext: {
    seLinuxOptions: { level: 's0:c123,c456' },
    runAsUser: 1000,
    runAsGroup: 3000,
    runAsNonRoot: true,
    supplementalGroups: [4000, 5_000_000_000],
    supplementalGroupsPolicy: 'Strict',
    fsGroup: 2000,
    sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65535' }],
    fsGroupChangePolicy: 'OnRootMismatch',
    seccompProfile: { type: 'RuntimeDefault' },
    seLinuxChangePolicy: 'MountOption',
  },
  imagePullSecrets: [{ name: 'registry-creds' }],
  hostname: 'web-0',
  subdomain: 'web',
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }], matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-9'] }] }],
      },
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } }],
    },
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'zone', namespaces: ['default'], matchLabelKeys: ['pod-template-hash'] }],
    },
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [{
        weight: 100,
        podAffinityTerm: {
          labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
          namespaceSelector: {},
          topologyKey: 'orch.io/hostname',
          mismatchLabelKeys: ['tenant'],
        },
      }],
    },
  },
  schedulerName: 'default-scheduler',
  tolerations: [
    { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' },
  ],
  hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local', 'bar.local'] }],
  priorityClassName: 'high',
  priority: 1000,
  dnsConfig: { nameservers: ['1.1.1.1'], searches: ['ns1.svc.cluster.local'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] },
  readinessGates: [{ conditionType: 'example.com/ready' }],
  runtimeClassName: 'gvisor',
  enableServiceLinks: false,
  preemptionPolicy: 'PreemptLowerPriority',
  overhead: { cpu: '100m', memory: 32 },
  topologySpreadConstraints: [{
    maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } },
    minDomains: 2, nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore', matchLabelKeys: ['pod-template-hash'],
  }],
  setHostnameAsFQDN: false,
  os: { name: 'linux' },
  hostUsers: false,
  schedulingGates: [{ name: 'example.com/wait' }],
  resourceClaims: [{ name: 'gpu-claim', resourceClaimTemplateName: 'gpu-template' }, { name: 'other', resourceClaimName: 'existing' }],
  resources: { limits: { cpu: '4' }, requests: { cpu: '1' } },
  hostnameOverride: 'web-zero',
  workloadRef: { name: 'training', podGroup: 'workers', podGroupReplicaKey: '0' },
};

const pvc = {
  metadata: { name: 'data', labels: { app: 'web' }, annotations: { 'volume.orch.io/storage-class': 'fast' } },
  spec: {
    accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
    selector: { matchLabels: { tier: 'gold' }, matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['c'] }] },
    resources: { limits: { storage: '20Gi' }, requests: { storage: '10Gi' } },
    volumeName: 'pv-1',
    storageClassName: 'fast',
    volumeMode: 'Filesystem',
    dataSource: { apiGroup: 'snapshot.storage.orch.io', kind: 'VolumeSnapshot', name: 'snap' },
    dataSourceRef: { apiGroup: 'snapshot.storage.orch.io', kind: 'VolumeSnapshot', name: 'snap', namespace: 'backup' },
    volumeAttributesClassName: 'silver',
  },
  status: {
    phase: 'Bound',
    accessModes: ['ReadWriteOnce'],
    capacity: { storage: '10Gi' },
    conditions: [{ type: 'Resizing', status: 'True', lastProbeTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:01Z', reason: 'Expanding', message: 'resizing' }],
    allocatedResources: { storage: '10Gi' },
    allocatedResourceStatuses: { storage: 'ControllerResizeInProgress' },
    currentVolumeAttributesClassName: 'bronze',
    modifyVolumeStatus: { targetVolumeAttributesClassName: 'silver', status: 'InProgress' },
  },
};

/** A StatefulSet using nearly every field of the pod template, claims, strategy and status. */
export function fullStatefulSet(): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: fullMetadata('web', 'default'),
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' }, annotations: { 'orch.io/restartedAt': '2026-01-01T00:00:00Z' } }, spec: podSpec },
      volumeClaimTemplates: [pvc],
      serviceName: 'web',
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '50%' } },
      revisionHistoryLimit: 10,
      minReadySeconds: 0,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
      ordinals: { start: 1 },
    },
    status: {
      observedGeneration: 7,
      replicas: 3,
      readyReplicas: 2,
      currentReplicas: 3,
      updatedReplicas: 1,
      currentRevision: 'web-6d4cf56db6',
      updateRevision: 'web-7c9b8f6d5',
      collisionCount: 0,
      conditions: [{ type: 'Available', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Rolling', message: 'rolling update' }],
      availableReplicas: 2,
    },
  };
}

/** A pod template of a Deployment or ReplicaSet, quantities as strings. */
function workloadTemplate(app: string): Record<string, unknown> {
  return {
    metadata: { labels: { app, tier: 'backend', 'pod-template-hash': '5d8f7c9b6' } },
    spec: {
      containers: [{ name: app, image: `registry.example/${app}:2`, ports: [{ containerPort: 8080, protocol: 'TCP' }], resources: { requests: { cpu: '250m', memory: '128Mi' } } }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
    },
  };
}

/** One object per kind of the scheme, by kind. */
export function objectsByKind(): Record<string, Record<string, unknown>> {
  return {
    Namespace: {
      apiVersion: 'v1', kind: 'Namespace', metadata: fullMetadata('team-a'),
      spec: { finalizers: ['orch.io'] },
      status: {
        phase: 'Terminating',
        conditions: [{ type: 'NamespaceDeletionDiscoveryFailure', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' }],
      },
    },
    Pod: {
      apiVersion: 'v1', kind: 'Pod', metadata: fullMetadata('web-0', 'default'),
      spec: { ...(workloadTemplate('web').spec as Record<string, unknown>), nodeName: 'node-1', enableServiceLinks: true },
      status: {
        phase: 'Running', qosClass: 'Burstable', hostIP: '10.0.0.1', hostIPs: [{ ip: '10.0.0.1' }], podIP: '10.1.0.7', podIPs: [{ ip: '10.1.0.7' }, { ip: 'fd00::7' }],
        startTime: '2026-01-01T00:00:00Z', observedGeneration: 2,
        conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:05Z' }],
        containerStatuses: [{
          name: 'web', ready: true, restartCount: 2, image: 'registry.example/web:2', imageID: 'registry.example/web@sha256:abc', containerID: 'containerd://1234', started: true,
          state: { running: { startedAt: '2026-01-01T00:00:03Z' } },
          lastState: { terminated: { exitCode: 137, signal: 9, reason: 'OOMKilled', startedAt: '2026-01-01T00:00:01Z', finishedAt: '2026-01-01T00:00:02Z', containerID: 'containerd://1233' } },
          user: { linux: { uid: 1000, gid: 1000, supplementalGroups: [4, 5] } },
          volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true, recursiveReadOnly: 'Disabled' }],
          allocatedResources: { cpu: '250m' },
          allocatedResourcesStatus: [{ name: 'example.com/gpu', resources: [{ resourceID: 'gpu-0', health: 'Healthy' }] }],
        }],
        resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'web-0-gpu' }],
      },
    },
    Binding: {
      apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web-0', namespace: 'default', creationTimestamp: null },
      target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' },
    },
    ConfigMap: {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: fullMetadata('settings', 'default'),
      immutable: true,
      data: { 'app.conf': 'mode=fast\n', empty: '', 'ünïcødé': '✓' },
      binaryData: { 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]).toString('base64'), none: '' },
    },
    Secret: {
      apiVersion: 'v1', kind: 'Secret', metadata: fullMetadata('creds', 'default'),
      immutable: false,
      data: { password: Buffer.from('s3cret').toString('base64'), binary: Buffer.from([0, 1, 2, 253, 254, 255]).toString('base64') },
      stringData: { user: 'admin' },
      type: 'orch.io/basic-auth',
    },
    ServiceAccount: {
      apiVersion: 'v1', kind: 'ServiceAccount', metadata: fullMetadata('builder', 'default'),
      secrets: [{ kind: 'Secret', namespace: 'default', name: 'builder-token', uid: 'u-1', apiVersion: 'v1', resourceVersion: '5', fieldPath: 'data' }],
      imagePullSecrets: [{ name: 'registry' }],
      automountServiceAccountToken: false,
    },
    LimitRange: {
      apiVersion: 'v1', kind: 'LimitRange', metadata: fullMetadata('limits', 'default'),
      spec: {
        limits: [
          { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '10m' }, default: { cpu: '500m' }, defaultRequest: { cpu: '100m' }, maxLimitRequestRatio: { cpu: '10' } },
          { type: 'PersistentVolumeClaim', max: { storage: '50Gi' }, min: { storage: '1Gi' } },
        ],
      },
    },
    ResourceQuota: {
      apiVersion: 'v1', kind: 'ResourceQuota', metadata: fullMetadata('quota', 'default'),
      spec: {
        hard: { pods: '10', 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.cpu': '1.5', 'count/configmaps': '100' },
        scopes: ['NotTerminating', 'NotBestEffort'],
        scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high', 'medium'] }, { scopeName: 'Terminating', operator: 'Exists' }] },
      },
      status: { hard: { pods: '10', 'requests.cpu': '4' }, used: { pods: '3', 'requests.cpu': '1500m' } },
    },
    Endpoints: {
      apiVersion: 'v1', kind: 'Endpoints', metadata: fullMetadata('web', 'default'),
      subsets: [
        {
          addresses: [
            { ip: '10.1.2.3', hostname: 'web-0', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: '11111111-2222-3333-4444-555555555555', resourceVersion: '7' } },
            { ip: '2001:db8::5', nodeName: '' },
          ],
          notReadyAddresses: [{ ip: '10.1.2.4' }],
          ports: [
            { name: 'http', port: 80, protocol: 'TCP', appProtocol: 'http' },
            { name: 'dns', port: 53, protocol: 'UDP', appProtocol: '' },
          ],
        },
        { notReadyAddresses: [{ ip: '10.1.3.1' }] },
      ],
    },
    Node: {
      apiVersion: 'v1', kind: 'Node', metadata: fullMetadata('node-1'),
      spec: {
        podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24', 'fd00:1::/64'], providerID: 'aws:///eu-west-1a/i-1', unschedulable: true,
        taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }, { key: 'node.orch.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:00Z' }],
        configSource: { configMap: { namespace: 'orch-system', name: 'kubelet', kubeletConfigKey: 'kubelet' } }, externalID: 'legacy',
      },
      status: {
        capacity: { cpu: '4', memory: '8Gi' }, allocatable: { cpu: '3800m', memory: '7Gi' }, phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'KubeletReady', message: 'ready' }],
        addresses: [{ type: 'InternalIP', address: '192.168.0.10' }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: { machineID: 'm', systemUUID: 's', bootID: 'b', kernelVersion: '6.1.0', osImage: 'Debian', containerRuntimeVersion: 'containerd://1.7.0',
          kubeletVersion: 'v1.31.0', kubeProxyVersion: 'v1.31.0', operatingSystem: 'linux', architecture: 'amd64', swap: { capacity: 1024 } },
        images: [{ names: ['registry.example/nginx:1.25'], sizeBytes: 1000000 }],
        volumesInUse: ['csi/vol-1'], volumesAttached: [{ name: 'csi/vol-1', devicePath: '/dev/sdb' }],
        config: { active: { configMap: { namespace: 'orch-system', name: 'kubelet', uid: 'u', resourceVersion: '1', kubeletConfigKey: 'kubelet' } }, error: 'none' },
        runtimeHandlers: [{ name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: false } }],
        features: { supplementalGroupsPolicy: true }, declaredFeatures: ['Foo'],
      },
    },
    Service: {
      apiVersion: 'v1', kind: 'Service', metadata: fullMetadata('web', 'default'),
      spec: {
        ports: [{ name: 'http', protocol: 'TCP', appProtocol: 'http', port: 80, targetPort: 'http', nodePort: 30080 }, { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353, nodePort: 30053 }],
        selector: { app: 'web' }, clusterIP: '10.0.0.7', clusterIPs: ['10.0.0.7'], type: 'LoadBalancer', externalIPs: ['198.51.100.9'],
        sessionAffinity: 'ClientIP', loadBalancerIP: '192.0.2.1', loadBalancerSourceRanges: ['10.0.0.0/8'], externalTrafficPolicy: 'Local',
        healthCheckNodePort: 30099, publishNotReadyAddresses: true, sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } },
        ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', allocateLoadBalancerNodePorts: true, loadBalancerClass: 'example.com/lb',
        internalTrafficPolicy: 'Local', trafficDistribution: 'PreferClose',
      },
      status: {
        loadBalancer: { ingress: [{ ip: '192.0.2.1', hostname: 'lb.example.com', ipMode: 'Proxy', ports: [{ port: 80, protocol: 'TCP', error: 'Pending' }] }] },
        conditions: [{ type: 'Ready', status: 'True', observedGeneration: 2, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Provisioned', message: 'ok' }],
      },
    },
    Event: {
      apiVersion: 'v1', kind: 'Event', metadata: fullMetadata('web-0.17a3', 'default'),
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: '11111111-2222-3333-4444-555555555555', apiVersion: 'v1', resourceVersion: '9', fieldPath: 'spec.containers{web}' },
      reason: 'BackOff', message: 'Back-off restarting failed container', source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T01:00:00Z', count: 7, type: 'Warning',
      eventTime: '2026-01-01T00:00:00.123456Z', series: { count: 6, lastObservedTime: '2026-01-01T01:00:00.654321Z' },
      action: 'Restarting', related: { kind: 'Node', name: 'node-1' }, reportingComponent: 'orch.io/kubelet', reportingInstance: 'node-1',
    },
    // Keyed by group/kind where a kind name is served by more than one group.
    'events.orch.io/Event': {
      apiVersion: 'events.orch.io/v1', kind: 'Event', metadata: fullMetadata('web-0.17a4', 'default'),
      eventTime: '2026-01-01T00:00:00.123456Z', series: { count: 6, lastObservedTime: '2026-01-01T01:00:00.654321Z' },
      reportingController: 'orch.io/kubelet', reportingInstance: 'node-1', action: 'Restarting', reason: 'BackOff',
      regarding: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: '11111111-2222-3333-4444-555555555555', apiVersion: 'v1', resourceVersion: '9', fieldPath: 'spec.containers{web}' },
      related: { kind: 'Node', name: 'node-1' }, note: 'Back-off restarting failed container', type: 'Warning',
      deprecatedSource: { component: 'kubelet', host: 'node-1' }, deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T01:00:00Z', deprecatedCount: 7,
    },
    PersistentVolumeClaim: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...pvc, metadata: fullMetadata('data', 'default') },
    PersistentVolume: {
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: fullMetadata('pv-1'),
      spec: {
        capacity: { storage: '10Gi' },
        csi: {
          driver: 'csi.example.com', volumeHandle: 'vol-123', readOnly: true, fsType: 'ext4', volumeAttributes: { tier: 'gold' },
          controllerPublishSecretRef: { name: 'cp', namespace: 'orch-system' }, nodeStageSecretRef: { name: 'ns', namespace: 'orch-system' },
          nodePublishSecretRef: { name: 'np', namespace: 'orch-system' }, controllerExpandSecretRef: { name: 'ce', namespace: 'orch-system' },
          nodeExpandSecretRef: { name: 'ne', namespace: 'orch-system' },
        },
        accessModes: ['ReadWriteOnce'],
        claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: '11111111-2222-3333-4444-555555555555', apiVersion: 'v1', resourceVersion: '7' },
        persistentVolumeReclaimPolicy: 'Delete', storageClassName: 'fast', mountOptions: ['ro', 'soft'], volumeMode: 'Block',
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] } },
        volumeAttributesClassName: 'silver',
      },
      status: { phase: 'Bound', message: 'bound to default/data', reason: 'Bound', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' },
    },
    StatefulSet: fullStatefulSet(),
    Deployment: {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: fullMetadata('api', 'default'),
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'api' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['backend'] }] },
        template: workloadTemplate('api'),
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '50%' } },
        minReadySeconds: 5,
        revisionHistoryLimit: 3,
        paused: true,
        progressDeadlineSeconds: 120,
      },
      status: {
        observedGeneration: 4, replicas: 3, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 1, unavailableReplicas: 2,
        conditions: [
          { type: 'Progressing', status: 'True', lastUpdateTime: '2026-01-01T00:00:02Z', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ReplicaSetUpdated', message: 'progressing' },
          { type: 'Available', status: 'False', lastUpdateTime: '2026-01-01T00:00:03Z', lastTransitionTime: '2026-01-01T00:00:01Z', reason: 'MinimumReplicasUnavailable', message: 'not enough' },
        ],
        collisionCount: 0,
      },
    },
    ReplicaSet: {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: fullMetadata('api-5d8f7c9b6', 'default'),
      spec: { replicas: 3, minReadySeconds: 5, selector: { matchLabels: { app: 'api', 'pod-template-hash': '5d8f7c9b6' } }, template: workloadTemplate('api') },
      status: {
        replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 1, observedGeneration: 2,
        conditions: [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'FailedCreate', message: 'quota exceeded' }],
      },
    },
    DaemonSet: {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: fullMetadata('agent', 'default'),
      spec: {
        selector: { matchLabels: { app: 'agent' } }, template: workloadTemplate('agent'),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '10%' } }, minReadySeconds: 5, revisionHistoryLimit: 0,
      },
      status: {
        currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 2, observedGeneration: 2,
        updatedNumberScheduled: 1, numberAvailable: 2, numberUnavailable: 1, collisionCount: 0,
        conditions: [{ type: 'Progressing', status: 'Unknown', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Rolling', message: 'rolling' }],
      },
    },
    ReplicationController: {
      apiVersion: 'v1', kind: 'ReplicationController', metadata: fullMetadata('legacy', 'default'),
      spec: { replicas: 0, minReadySeconds: 5, selector: { app: 'legacy', tier: 'backend' }, template: workloadTemplate('legacy') },
      status: {
        replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 1, observedGeneration: 2,
        conditions: [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'FailedCreate', message: 'quota exceeded' }],
      },
    },
    Job: {
      apiVersion: 'batch/v1', kind: 'Job', metadata: fullMetadata('batch-1', 'default'),
      spec: {
        parallelism: 2, completions: 4, activeDeadlineSeconds: 3600,
        podFailurePolicy: { rules: [
          { action: 'FailIndex', onExitCodes: { containerName: 'main', operator: 'In', values: [1, 42] } },
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        ] },
        successPolicy: { rules: [{ succeededIndexes: '0-2', succeededCount: 2 }] },
        backoffLimit: 0, backoffLimitPerIndex: 1, maxFailedIndexes: 2,
        selector: { matchLabels: { 'batch.orch.io/controller-uid': 'u-1' } }, manualSelector: false,
        template: {
          metadata: { labels: { 'batch.orch.io/controller-uid': 'u-1', 'job-name': 'batch-1' } },
          spec: { containers: [{ name: 'main', image: 'registry.example/batch:1' }], restartPolicy: 'Never', terminationGracePeriodSeconds: 30 },
        },
        ttlSecondsAfterFinished: 0, completionMode: 'Indexed', suspend: false, podReplacementPolicy: 'Failed', managedBy: 'orch.io/job-controller',
      },
      status: {
        conditions: [{ type: 'Complete', status: 'True', lastProbeTime: '2026-01-01T00:01:00Z', lastTransitionTime: '2026-01-01T00:01:00Z', reason: 'CompletionsReached', message: 'done' }],
        startTime: '2026-01-01T00:00:00Z', completionTime: '2026-01-01T00:01:00Z', active: 1, succeeded: 3, failed: 1, terminating: 0,
        completedIndexes: '0-2', failedIndexes: '3', uncountedTerminatedPods: { succeeded: ['p-1'], failed: ['p-2'] }, ready: 0,
      },
    },
    CronJob: {
      apiVersion: 'batch/v1', kind: 'CronJob', metadata: fullMetadata('nightly', 'default'),
      spec: {
        schedule: '0 3 * * 1-5', timeZone: 'Europe/Paris', startingDeadlineSeconds: 0, concurrencyPolicy: 'Forbid', suspend: true,
        jobTemplate: {
          metadata: { labels: { job: 'nightly' }, creationTimestamp: null },
          spec: { backoffLimit: 2, template: { metadata: { labels: { job: 'nightly' } }, spec: { containers: [{ name: 'main', image: 'registry.example/batch:1' }], restartPolicy: 'OnFailure' } } },
        },
        successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 2,
      },
      status: {
        active: [{ kind: 'Job', namespace: 'default', name: 'nightly-29000000', uid: 'u-2', apiVersion: 'batch/v1', resourceVersion: '7' }],
        lastScheduleTime: '2026-01-01T03:00:00Z', lastSuccessfulTime: '2026-01-01T03:05:00Z',
      },
    },
    IngressClass: {
      apiVersion: 'networking.orch.io/v1', kind: 'IngressClass', metadata: fullMetadata('nginx'),
      spec: { controller: 'example.com/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external', scope: 'Namespace', namespace: 'ingress' } },
    },
    Ingress: {
      apiVersion: 'networking.orch.io/v1', kind: 'Ingress', metadata: fullMetadata('web', 'default'),
      spec: {
        ingressClassName: 'nginx',
        defaultBackend: { resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'static' } },
        tls: [{ hosts: ['web.example.com', '*.api.example.com'], secretName: 'web-tls' }],
        rules: [
          { host: 'web.example.com', http: { paths: [
            { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } },
            { path: '/api', pathType: 'Exact', backend: { service: { name: 'api', port: { name: 'http' } } } },
          ] } },
          { host: '*.api.example.com' },
        ],
      },
      status: { loadBalancer: { ingress: [{ ip: '192.0.2.1', ports: [{ port: 443, protocol: 'TCP', error: 'Pending' }] }, { hostname: 'lb.example.com' }] } },
    },
    ControllerRevision: {
      apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: fullMetadata('web-6d4cf56db6', 'default'),
      data: { spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } } }, $patch: 'replace' },
      revision: 9007199254740991,
    },
    ClusterRole: {
      apiVersion: 'rbac.authorization.orch.io/v1', kind: 'ClusterRole', metadata: fullMetadata('view'),
      rules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: ['', 'apps'], resources: ['configmaps', 'statefulsets'], resourceNames: ['one'] },
        { verbs: ['get'], nonResourceURLs: ['/healthz', '/version'] },
      ],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.orch.io/aggregate-to-view': 'true' } }, { matchExpressions: [{ key: 'x', operator: 'Exists' }] }] },
    },
    ClusterRoleBinding: {
      apiVersion: 'rbac.authorization.orch.io/v1', kind: 'ClusterRoleBinding', metadata: fullMetadata('view-binding'),
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'jane' },
        { kind: 'ServiceAccount', apiGroup: '', name: 'builder', namespace: 'default' },
        { kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'system:authenticated' },
      ],
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
    },
    Role: {
      apiVersion: 'rbac.authorization.orch.io/v1', kind: 'Role', metadata: fullMetadata('reader', 'default'),
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }],
    },
    RoleBinding: {
      apiVersion: 'rbac.authorization.orch.io/v1', kind: 'RoleBinding', metadata: fullMetadata('reader-binding', 'default'),
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'jane' }],
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'reader' },
    },
    CSIDriver: {
      apiVersion: 'storage.orch.io/v1', kind: 'CSIDriver', metadata: fullMetadata('csi.example.com'),
      spec: {
        attachRequired: false,
        podInfoOnMount: true,
        volumeLifecycleModes: ['Persistent', 'Ephemeral'],
        storageCapacity: true,
        fsGroupPolicy: 'File',
        tokenRequests: [{ audience: 'vault', expirationSeconds: 600 }, { audience: 'gcp' }],
        requiresRepublish: true,
        seLinuxMount: false,
      },
    },
    StorageClass: {
      apiVersion: 'storage.orch.io/v1', kind: 'StorageClass', metadata: fullMetadata('fast'),
      provisioner: 'csi.example.com',
      parameters: { type: 'ssd', replicas: '3' },
      reclaimPolicy: 'Retain',
      mountOptions: ['ro', 'soft'],
      allowVolumeExpansion: false,
      volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.orch.io/zone', values: ['a', 'b'] }] }, {}],
    },
    PriorityClass: {
      apiVersion: 'scheduling.orch.io/v1', kind: 'PriorityClass', metadata: fullMetadata('high'),
      value: 1000, globalDefault: false, description: 'for important pods', preemptionPolicy: 'Never',
    },
    CertificateSigningRequest: {
      apiVersion: 'certificates.orch.io/v1', kind: 'CertificateSigningRequest', metadata: fullMetadata('node-csr-abc'),
      spec: {
        request: Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\n').toString('base64'), signerName: 'orch.io/kube-apiserver-client-kubelet', expirationSeconds: 86400,
        usages: ['digital signature', 'key encipherment', 'client auth'],
        username: 'system:bootstrap:abcdef', uid: 'u-1', groups: ['system:bootstrappers', 'system:authenticated'],
        extra: { scopes: ['a', 'b'], empty: [] },
      },
      status: {
        conditions: [
          { type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'approved by the controller', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' },
          { type: 'Failed', status: 'False' },
        ],
        certificate: Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64'),
      },
    },
    RuntimeClass: {
      apiVersion: 'node.orch.io/v1', kind: 'RuntimeClass', metadata: fullMetadata('gvisor'),
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
      scheduling: {
        nodeSelector: { 'runtime.orch.io/gvisor': 'true' },
        tolerations: [{ key: 'runtime', operator: 'Equal', value: 'gvisor', effect: 'NoSchedule' }, { operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 }],
      },
    },
    ValidatingWebhookConfiguration: {
      apiVersion: 'admissionregistration.orch.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: fullMetadata('policy'),
      webhooks: [{
        name: 'pods.policy.example.com',
        clientConfig: { url: 'https://policy.example.com:8443/validate', caBundle: Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64') },
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'pods/status'], scope: 'Namespaced' }],
        failurePolicy: 'Ignore', matchPolicy: 'Exact',
        namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
        objectSelector: { matchLabels: { checked: 'yes' } },
        sideEffects: 'None', timeoutSeconds: 5, admissionReviewVersions: ['v1', 'v1beta1'],
        matchConditions: [{ name: 'not-system', expression: '!request.userInfo.username.startsWith("system:")' }],
      }],
    },
    MutatingWebhookConfiguration: {
      apiVersion: 'admissionregistration.orch.io/v1', kind: 'MutatingWebhookConfiguration', metadata: fullMetadata('defaults'),
      webhooks: [{
        name: 'defaults.example.com',
        clientConfig: { service: { namespace: 'hooks', name: 'defaulter', path: '/mutate', port: 443 } },
        rules: [{ operations: ['*'], apiGroups: ['apps'], apiVersions: ['*'], resources: ['*/*'], scope: '*' }],
        failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {},
        sideEffects: 'NoneOnDryRun', timeoutSeconds: 10, admissionReviewVersions: ['v1'], reinvocationPolicy: 'IfNeeded',
      }, {
        name: 'second.example.com', clientConfig: { url: 'https://second.example.com/' }, sideEffects: 'None', admissionReviewVersions: ['v1beta1'],
      }],
    },
    ValidatingAdmissionPolicy: {
      apiVersion: 'admissionregistration.orch.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: fullMetadata('replica-limit'),
      spec: {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: {
          namespaceSelector: { matchLabels: { env: 'prod' } }, objectSelector: {},
          resourceRules: [{ resourceNames: ['web'], operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: 'Namespaced' }],
          excludeResourceRules: [{ operations: ['*'], apiGroups: ['apps'], apiVersions: ['*'], resources: ['deployments/scale'] }],
          matchPolicy: 'Equivalent',
        },
        validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', message: 'too many', reason: 'Forbidden', messageExpression: "'at most ' + params.data.max" }],
        failurePolicy: 'Fail',
        auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
        matchConditions: [{ name: 'not-system', expression: '!request.userInfo.username.startsWith("system:")' }],
        variables: [{ name: 'replicas', expression: 'object.spec.replicas' }],
      },
      status: {
        observedGeneration: 7,
        typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'apps/v1, Kind=Deployment: ERROR: ...' }] },
        conditions: [{ type: 'Ready', status: 'True', observedGeneration: 7, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Checked', message: 'type checked' }],
      },
    },
    ValidatingAdmissionPolicyBinding: {
      apiVersion: 'admissionregistration.orch.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: fullMetadata('replica-limit-prod'),
      spec: {
        policyName: 'replica-limit',
        paramRef: { namespace: 'limits', selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold'] }] }, parameterNotFoundAction: 'Deny' },
        matchResources: { namespaceSelector: {}, objectSelector: { matchLabels: { checked: 'yes' } }, matchPolicy: 'Exact' },
        validationActions: ['Deny', 'Audit'],
      },
    },
    APIService: {
      apiVersion: 'apiregistration.orch.io/v1', kind: 'APIService', metadata: fullMetadata('v1beta1.metrics.orch.io'),
      spec: {
        service: { namespace: 'orch-system', name: 'metrics-server', port: 8443 }, group: 'metrics.orch.io', version: 'v1beta1',
        caBundle: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==', groupPriorityMinimum: 100, versionPriority: 100,
      },
      status: { conditions: [{ type: 'Available', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Passed', message: 'all checks passed' }] },
    },
    Lease: {
      apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: fullMetadata('controller', 'default'),
      spec: {
        holderIdentity: 'node-1_5f2c', leaseDurationSeconds: 15,
        acquireTime: '2026-01-01T00:00:00.123456Z', renewTime: '2026-01-01T00:00:10.000001Z', leaseTransitions: 0,
      },
    },
    EndpointSlice: {
      apiVersion: 'discovery.orch.io/v1', kind: 'EndpointSlice', metadata: fullMetadata('web-x7k2p', 'default'),
      addressType: 'IPv4',
      endpoints: [
        {
          addresses: ['10.1.2.3'],
          conditions: { ready: false, serving: true, terminating: true },
          hostname: 'web-0', nodeName: 'node-1', zone: 'zone-a',
          targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: '0d6f4a3e-1b2c-4d5e-8f90-a1b2c3d4e5f6' },
          deprecatedTopology: { 'topology.orch.io/region': 'r1' },
          hints: { forZones: [{ name: 'zone-a' }, { name: 'zone-b' }] },
        },
        { addresses: ['10.1.2.4'], conditions: {} },
      ],
      ports: [{ name: 'http', protocol: 'TCP', port: 8080, appProtocol: 'http' }, { name: '', protocol: 'UDP', port: 0 }, { name: 'any', protocol: 'SCTP' }],
    },
    NetworkPolicy: {
      apiVersion: 'networking.orch.io/v1', kind: 'NetworkPolicy', metadata: fullMetadata('db', 'default'),
      spec: {
        podSelector: { matchLabels: { app: 'db' } },
        ingress: [{
          ports: [{ protocol: 'TCP', port: 5432 }, { protocol: 'UDP', port: 'dns', endPort: 60 }],
          from: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.1.0/24'] } }, { podSelector: { matchLabels: { role: 'api' } }, namespaceSelector: { matchLabels: { team: 'a' } } }],
        }],
        egress: [{ to: [{ namespaceSelector: {} }], ports: [{ port: 53 }] }],
        policyTypes: ['Ingress', 'Egress'],
      },
      status: { conditions: [{ type: 'Enforced', status: 'True', observedGeneration: 3, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Programmed', message: '' }] },
    },
    TokenReview: {
      apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { token: 'abc.def', audiences: ['https://orch.example', 'vault'] },
      status: {
        authenticated: true,
        user: { username: 'system:serviceaccount:default:ci', uid: 'f3a9', groups: ['system:serviceaccounts', 'system:authenticated'], extra: { 'authentication.orch.io/pod-name': ['web-0'], empty: [] } },
        audiences: ['vault'],
      },
    },
    SelfSubjectReview: {
      apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview', metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
      status: { userInfo: { username: 'jane', groups: ['devs', 'system:authenticated'], extra: { scopes: ['read', 'write'] } } },
    },
    SubjectAccessReview: {
      apiVersion: 'authorization.orch.io/v1', kind: 'SubjectAccessReview', metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: {
        resourceAttributes: { namespace: 'default', verb: 'get', group: 'apps', version: 'v1', resource: 'statefulsets', subresource: 'scale', name: 'web' },
        user: 'jane', groups: ['devs', 'system:authenticated'], extra: { scopes: ['read', 'write'], empty: [] }, uid: 'u-1',
      },
      status: { allowed: false, denied: true, reason: 'no, not on Fridays', evaluationError: 'role "x" not found' },
    },
    SelfSubjectAccessReview: {
      apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectAccessReview', metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
      status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer"' },
    },
    LocalSubjectAccessReview: {
      apiVersion: 'authorization.orch.io/v1', kind: 'LocalSubjectAccessReview', metadata: { namespace: 'team-a', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { resourceAttributes: { namespace: 'team-a', verb: 'list', resource: 'pods' }, groups: ['ops'] },
      status: { allowed: false },
    },
    SelfSubjectRulesReview: {
      apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectRulesReview', metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { namespace: 'team-a' },
      status: {
        resourceRules: [
          { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'], resourceNames: ['web-0'] },
          { verbs: ['create'], apiGroups: ['authorization.orch.io'], resources: ['selfsubjectaccessreviews'] },
        ],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/version/*'] }],
        incomplete: true,
        evaluationError: 'webhook: rules cannot be listed',
      },
    },
    HorizontalPodAutoscaler: {
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: fullMetadata('web', 'default'),
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
          { type: 'ContainerResource', containerResource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' }, container: 'app' } },
          { type: 'Pods', pods: { metric: { name: 'requests', selector: { matchLabels: { verb: 'GET' } } }, target: { type: 'AverageValue', averageValue: '10' } } },
          {
            type: 'Object',
            object: { describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.orch.io/v1' }, target: { type: 'Value', value: '2k' }, metric: { name: 'hits' } },
          },
          { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } },
        ],
        behavior: {
          scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] },
          scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Min', policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] },
        },
      },
      status: {
        observedGeneration: 3,
        lastScaleTime: '2026-01-01T00:00:00Z',
        currentReplicas: 3,
        desiredReplicas: 4,
        currentMetrics: [
          { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '150m', averageUtilization: 75 } } },
          { type: 'ContainerResource', containerResource: { name: 'memory', current: { averageValue: '400Mi' }, container: 'app' } },
          { type: 'Pods', pods: { metric: { name: 'requests' }, current: { averageValue: '12' } } },
          { type: 'Object', object: { metric: { name: 'hits' }, current: { value: '2500' }, describedObject: { kind: 'Ingress', name: 'main' } } },
          { type: 'External', external: { metric: { name: 'queue' }, current: { value: '90', averageValue: '30' } } },
        ],
        conditions: [{ type: 'ScalingLimited', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'TooManyReplicas', message: 'at the maximum' }],
      },
    },
    'autoscaling/v1/HorizontalPodAutoscaler': {
      apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: fullMetadata('web', 'default'),
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 },
      status: { observedGeneration: 3, lastScaleTime: '2026-01-01T00:00:00Z', currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 75 },
    },
    PodDisruptionBudget: {
      apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: fullMetadata('web-pdb', 'default'),
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } }, maxUnavailable: '25%', unhealthyPodEvictionPolicy: 'AlwaysAllow' },
      status: {
        observedGeneration: 4,
        disruptedPods: { 'web-0': '2026-01-01T00:00:00Z', 'web-1': '2026-01-01T00:00:30Z' },
        disruptionsAllowed: 0,
        currentHealthy: 2,
        desiredHealthy: 2,
        expectedPods: 3,
        conditions: [{ type: 'DisruptionAllowed', status: 'False', observedGeneration: 4, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'InsufficientPods', message: 'not enough' }],
      },
    },
  };
}
