import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allGroupVersions } from '../../api/index.js';
import { Table } from '../../api/meta/v1/table.js';
import { fixtures, serverStatusFixtures } from '../../test/integration/fixtures.js';
import { Scheme, type ResourceInfo } from '../runtime/scheme.js';
import { SchemaValidator } from '../runtime/schema-validator.js';
import { toTable } from './table.js';

const scheme = new Scheme(allGroupVersions);
const schemas = new SchemaValidator();
const created = '2026-01-01T00:00:00Z';
const now = new Date('2026-01-01T03:10:42Z'); // 3h10m after creation

function infoOf(kind: string): ResourceInfo {
  const info = scheme.resources().find((r) => r.kind === kind);
  assert.ok(info, `no resource for ${kind}`);
  return info;
}

/** The fixture object of `kind` as the server stores it: server metadata, its status, defaulted. */
function stored(kind: string, change?: (obj: Record<string, any>) => void): Record<string, unknown> {
  const f = [...fixtures, ...serverStatusFixtures].find((x) => x.kind === kind);
  assert.ok(f, `no fixture for ${kind}`);
  const obj: Record<string, any> = f.make('x');
  Object.assign(obj.metadata, {
    ...(f.namespaced ? { namespace: 'default' } : {}),
    uid: '6f1c1a4e-0d2b-4a57-9b43-3a9a1f0e2c11',
    resourceVersion: '42',
    creationTimestamp: created,
  });
  if (f.status) obj.status = structuredClone(f.status);
  change?.(obj);
  const info = infoOf(kind);
  info.defaulter?.(obj);
  const check = schemas.check(info.schema, obj);
  assert.deepEqual([...check.decodeErrors, ...check.fieldErrors.map((e) => e.field)], [], `${kind} fixture is not valid`);
  return obj;
}

interface Expected {
  columns: string[];
  /** Priorities where any column is not 0. */
  priorities?: number[];
  cells: unknown[];
  change?: (obj: Record<string, any>) => void;
}

const defaults = (name = 'x'): Expected => ({ columns: ['Name', 'Created At'], cells: [name, created] });

const expected: Record<string, Expected> = {
  Namespace: { columns: ['Name', 'Status', 'Age'], cells: ['x', 'Active', '3h10m'] },
  Pod: {
    columns: ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates'],
    priorities: [0, 0, 0, 0, 0, 1, 1, 1, 1],
    cells: ['x', '0/1', 'Terminating', '0', '3h10m', '10.1.0.7', 'node-1', '<none>', '<none>'],
    change: (o) => { o.spec.nodeName = 'node-1'; o.metadata.deletionTimestamp = '2026-01-01T00:00:00Z'; },
  },
  ConfigMap: {
    columns: ['Name', 'Data', 'Age'], cells: ['x', 3, '3h10m'],
    change: (o) => { o.data.b = '2'; o.binaryData = { bin: 'AAE=' }; },
  },
  Secret: { columns: ['Name', 'Type', 'Data', 'Age'], cells: ['x', 'Opaque', 1, '3h10m'] },
  ServiceAccount: {
    columns: ['Name', 'Secrets', 'Age'], cells: ['x', 2, '3h10m'],
    change: (o) => { o.secrets = [{ name: 'x-token' }, { name: 'x-dockercfg' }]; },
  },
  LimitRange: defaults(),
  ResourceQuota: {
    columns: ['Name', 'Age', 'Request', 'Limit'],
    cells: ['x', '3h10m', 'pods: 3/10, requests.cpu: 500m/4', 'limits.cpu: 1/2, limits.memory: 0/2Gi'],
    change: (o) => {
      o.spec.hard = { pods: '10', 'requests.cpu': '4', 'limits.memory': '2Gi', 'limits.cpu': '2' };
      o.status = { hard: { ...o.spec.hard }, used: { pods: '3', 'requests.cpu': '500m', 'limits.cpu': '1' } };
    },
  },
  Endpoints: { columns: ['Name', 'Endpoints', 'Age'], cells: ['x', '10.1.0.1:80', '3h10m'] },
  Node: {
    columns: ['Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime'],
    priorities: [0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
    cells: ['x', 'Ready,SchedulingDisabled', 'control-plane,worker', '3h10m', 'v1.31.0', '192.168.0.10', '<none>', 'Debian GNU/Linux 12', '6.1.0', 'containerd://1.7.0'],
    change: (o) => {
      o.spec.unschedulable = true;
      o.metadata.labels = { 'node-role.kubernetes.io/worker': '', 'node-role.orch.io/control-plane': '', 'kubernetes.io/role': 'worker' };
    },
  },
  Service: {
    columns: ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector'],
    priorities: [0, 0, 0, 0, 0, 0, 1],
    cells: ['x', 'LoadBalancer', '10.0.0.7', '192.0.2.1,198.51.100.9', '80:30080/TCP,53:30053/UDP', '3h10m', 'app=web,tier=front'],
    change: (o) => {
      o.spec = { ...o.spec, type: 'LoadBalancer', clusterIP: '10.0.0.7', clusterIPs: ['10.0.0.7'], externalIPs: ['198.51.100.9'], selector: { tier: 'front', app: 'web' },
        ports: [{ name: 'http', port: 80, nodePort: 30080 }, { name: 'dns', port: 53, protocol: 'UDP', nodePort: 30053 }] };
    },
  },
  Event: {
    columns: ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name'],
    priorities: [0, 0, 0, 0, 1, 1, 0, 1, 1, 1],
    cells: ['70m', 'Normal', 'Started', 'pod/web-0', '', 'kubelet, node-1', 'Started container web', '3h10m', 4, 'x'],
  },
  PersistentVolumeClaim: {
    columns: ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode'],
    priorities: [0, 0, 0, 0, 0, 0, 0, 0, 1],
    cells: ['x', 'Bound', 'pv-1', '10Gi', 'RWO,RWOP', 'fast', '<unset>', '3h10m', 'Filesystem'],
    change: (o) => { o.spec.volumeName = 'pv-1'; o.status = { phase: 'Bound', accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'], capacity: { storage: '10Gi' } }; },
  },
  PersistentVolume: {
    columns: ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode'],
    priorities: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    cells: ['x', '5Gi', 'RWO,ROX', 'Retain', 'Bound', 'default/data', 'manual', '<unset>', '', '3h10m', 'Filesystem'],
    change: (o) => { o.spec.claimRef = { namespace: 'default', name: 'data' }; o.status = { phase: 'Bound' }; },
  },
  StatefulSet: {
    columns: ['Name', 'Ready', 'Age', 'Containers', 'Images'],
    priorities: [0, 0, 0, 1, 1],
    cells: ['x', '1/3', '3h10m', 'web,sidecar', 'registry.example/nginx:1.25,registry.example/log:2'],
    change: (o) => {
      o.spec.replicas = 3;
      o.spec.template.spec.containers.push({ name: 'sidecar', image: 'registry.example/log:2' });
    },
  },
  Deployment: {
    columns: ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector'],
    priorities: [0, 0, 0, 0, 0, 1, 1, 1],
    cells: ['x', '1/3', 2, 1, '3h10m', 'app', 'registry.example/app:1', 'app=x'],
    change: (o) => { o.spec.replicas = 3; },
  },
  ReplicaSet: {
    columns: ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector'],
    priorities: [0, 0, 0, 0, 0, 1, 1, 1],
    cells: ['x', 3, 2, 1, '3h10m', 'app', 'registry.example/app:1', 'app=x'],
    change: (o) => { o.spec.replicas = 3; },
  },
  ReplicationController: {
    columns: ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector'],
    priorities: [0, 0, 0, 0, 0, 1, 1, 1],
    cells: ['x', 3, 2, 1, '3h10m', 'app', 'registry.example/app:1', 'app=x'],
    change: (o) => { o.spec.replicas = 3; },
  },
  DaemonSet: {
    columns: ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers', 'Images', 'Selector'],
    priorities: [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1],
    cells: ['x', 3, 3, 2, 3, 2, 'disk=ssd,zone=a', '3h10m', 'app', 'registry.example/app:1', 'app=x'],
    change: (o) => { o.spec.template.spec.nodeSelector = { zone: 'a', disk: 'ssd' }; },
  },
  Job: {
    columns: ['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers', 'Images', 'Selector'],
    priorities: [0, 0, 0, 0, 0, 1, 1, 1],
    cells: ['x', 'Running', '0/1', '3h10m', '3h10m', 'main', 'registry.example/batch:1', 'batch.orch.io/controller-uid=u-1'],
    change: (o) => {
      o.spec.selector = { matchLabels: { 'batch.orch.io/controller-uid': 'u-1' } };
      o.spec.template.metadata = { labels: { 'batch.orch.io/controller-uid': 'u-1' } };
    },
  },
  CronJob: {
    columns: ['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers', 'Images', 'Selector'],
    priorities: [0, 0, 0, 0, 0, 0, 0, 1, 1, 1],
    cells: ['x', '*/5 * * * *', '<none>', 'False', 0, '10m', '3h10m', 'main', 'registry.example/batch:1', '<none>'],
  },
  ControllerRevision: {
    columns: ['Name', 'Controller', 'Revision', 'Age'],
    cells: ['x', 'statefulset.apps/web', 1, '3h10m'],
    change: (o) => {
      o.metadata.ownerReferences = [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: 'u-0' },
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u-1', controller: true },
      ];
    },
  },
  HorizontalPodAutoscaler: {
    columns: ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    cells: ['x', 'Deployment/web', 'cpu: 75%/60%', '2', 10, 2, '3h10m'],
  },
  ClusterRole: defaults(),
  ClusterRoleBinding: {
    columns: ['Name', 'Role', 'Age', 'Users', 'Groups', 'ServiceAccounts'],
    priorities: [0, 0, 0, 1, 1, 1],
    cells: ['x', 'ClusterRole/view', '3h10m', 'jane, joe', 'devs', 'default/builder'],
    change: (o) => { o.subjects.push({ kind: 'Group', name: 'devs' }, { kind: 'User', name: 'joe' }); },
  },
  Role: defaults(),
  RoleBinding: {
    columns: ['Name', 'Role', 'Age', 'Users', 'Groups', 'ServiceAccounts'],
    priorities: [0, 0, 0, 1, 1, 1],
    cells: ['x', 'Role/reader', '3h10m', 'jane', '', ''],
  },
  CSIDriver: {
    columns: ['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age'],
    cells: ['x', true, false, false, '<unset>', false, 'Persistent', '3h10m'],
  },
  IngressClass: {
    columns: ['Name', 'Controller', 'Parameters', 'Age'],
    cells: ['x', 'example.com/ingress-controller', 'IngressParameters.k8s.example.com/external', '3h10m'],
    change: (o) => { o.spec.parameters = { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external' }; },
  },
  Ingress: { columns: ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'], cells: ['x', '<none>', 'web.example.com', '192.0.2.1', '80', '3h10m'] },
  NetworkPolicy: { columns: ['Name', 'Pod-Selector', 'Age'], cells: ['x', 'app=db', '3h10m'] },
  StorageClass: {
    columns: ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age'],
    cells: ['x', 'csi.example.com', 'Delete', 'Immediate', false, '3h10m'],
  },
  PriorityClass: { columns: ['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy'], cells: ['x', 1000, false, '3h10m', 'PreemptLowerPriority'] },
  CertificateSigningRequest: {
    columns: ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition'],
    cells: ['x', '3h10m', 'example.com/fixture-signer', 'jane', '60m', 'Approved,Issued'],
    change: (o) => {
      o.spec.username = 'jane';
      o.status = { conditions: [{ type: 'Approved', status: 'True' }], certificate: Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64') };
    },
  },
  Lease: { columns: ['Name', 'Holder', 'Age'], cells: ['x', 'node-1', '3h10m'] },
  RuntimeClass: { columns: ['Name', 'Handler', 'Age'], cells: ['x', 'runsc', '3h10m'] },
  EndpointSlice: { columns: ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'], cells: ['x', 'IPv4', '8080', '10.1.2.3', '3h10m'] },
  ValidatingWebhookConfiguration: { columns: ['Name', 'Webhooks', 'Age'], cells: ['x', 2, '3h10m'], change: (o) => { o.webhooks.push({ ...o.webhooks[0], name: 'b.example.com' }); } },
  MutatingWebhookConfiguration: { columns: ['Name', 'Webhooks', 'Age'], cells: ['x', 0, '3h10m'], change: (o) => { delete o.webhooks; } },
  ValidatingAdmissionPolicy: { columns: ['Name', 'Validations', 'ParamKind', 'Age'], cells: ['x', 1, 'v1/ConfigMap', '3h10m'] },
  ValidatingAdmissionPolicyBinding: {
    columns: ['Name', 'PolicyName', 'ParamRef', 'Age'], cells: ['x', 'fixture-unbound-policy', '&LabelSelector{MatchLabels:map[string]string{env: prod,},MatchExpressions:[]LabelSelectorRequirement{},}', '3h10m'],
    change: (o) => { o.spec.paramRef = { selector: { matchLabels: { env: 'prod' } }, parameterNotFoundAction: 'Deny' }; },
  },
  APIService: { columns: ['Name', 'Service', 'Available', 'Age'], cells: ['x', 'orch-system/metrics-server', 'False (MissingEndpoints)', '3h10m'] },
  PodDisruptionBudget: {
    columns: ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
    cells: ['x', '1', 'N/A', 1, '3h10m'],
  },
};

test('every served kind prints its columns and cells for a realistic object', () => {
  // Reviews are never read back, so they have no table; a CustomResourceDefinition's name is tied
  // to its spec, so it has no fixture of the shared kind (its own test is below).
  const kinds = scheme.resources().filter((r) => !r.virtual && r.kind !== 'CustomResourceDefinition').map((r) => r.kind);
  assert.deepEqual(kinds.filter((k) => !(k in expected)), [], 'kinds without expectations');
  for (const kind of kinds) {
    const want = expected[kind]!;
    const table = toTable(infoOf(kind), [stored(kind, want.change)], { includeObject: 'None', now });
    assert.deepEqual(table.columnDefinitions.map((c) => c.name), want.columns, `${kind} columns`);
    assert.deepEqual(table.columnDefinitions.map((c) => c.priority), want.priorities ?? want.columns.map(() => 0), `${kind} priorities`);
    // The Name column carries format name; it comes first except for Event, whose printer puts it last (priority 1).
    const named = table.columnDefinitions.filter((c) => c.format === 'name');
    assert.deepEqual(named.map((c) => c.name), ['Name'], `${kind} name column format`);
    assert.ok(kind === 'Event' || table.columnDefinitions[0]!.format === 'name', `${kind} first column format`);
    assert.ok(table.columnDefinitions.every((c) => c.format === '' || c === named[0]), `${kind} other formats`);
    assert.ok(table.columnDefinitions.every((c) => c.description !== ''), `${kind} descriptions`);
    assert.deepEqual(table.rows.map((r) => r.cells), [want.cells], `${kind} cells`);
    const check = schemas.check(Table, structuredClone(table));
    assert.deepEqual([...check.decodeErrors, ...check.fieldErrors.map((e) => `${e.field}: ${e.detail ?? ''}`)], [], `${kind} table shape`);
  }
});

test('column types follow upstream: counts as integers only where upstream declares integer, CSIDriver flags as boolean', () => {
  const types = (kind: string) => toTable(infoOf(kind), [], { includeObject: 'None', now }).columnDefinitions.map((c) => c.type);
  assert.deepEqual(types('PodDisruptionBudget'), ['string', 'string', 'string', 'integer', 'string']);
  assert.deepEqual(types('CSIDriver'), ['string', 'boolean', 'boolean', 'boolean', 'string', 'boolean', 'string', 'string']);
  assert.deepEqual(types('Secret'), ['string', 'string', 'string', 'string']);
  assert.deepEqual(types('LimitRange'), ['string', 'date']);
  assert.deepEqual(types('StorageClass'), ['string', 'string', 'string', 'string', 'string', 'string']);
  assert.deepEqual(types('PriorityClass'), ['string', 'integer', 'boolean', 'string', 'string']);
  assert.deepEqual(types('ValidatingWebhookConfiguration'), ['string', 'integer', 'string']);
});

test('cells for unset and alternative values', () => {
  const cells = (kind: string, change: (o: Record<string, any>) => void, at = now) =>
    toTable(infoOf(kind), [stored(kind, change)], { includeObject: 'None', now: at }).rows[0]!.cells;

  assert.deepEqual(cells('PodDisruptionBudget', (o) => { o.spec = { maxUnavailable: '25%', selector: o.spec.selector }; delete o.status; }),
    ['x', 'N/A', '25%', 0, '3h10m']);
  assert.deepEqual(cells('StatefulSet', (o) => { delete o.status; }), ['x', '0/1', '3h10m', 'web', 'registry.example/nginx:1.25']);
  assert.deepEqual(cells('Deployment', (o) => { delete o.status; o.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Exists' }] }; }),
    ['x', '0/1', 0, 0, '3h10m', 'app', 'registry.example/app:1', 'app']);
  assert.deepEqual(cells('ReplicaSet', (o) => { delete o.status; }), ['x', 1, 0, 0, '3h10m', 'app', 'registry.example/app:1', 'app=x']);
  assert.deepEqual(cells('ControllerRevision', (o) => { o.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u', controller: true }]; }),
    ['x', 'pod/p', 1, '3h10m']);
  assert.deepEqual(cells('ControllerRevision', () => undefined), ['x', '<none>', 1, '3h10m']);
  assert.deepEqual(cells('ReplicationController', (o) => { delete o.status; o.spec.selector = { tier: 'b', app: 'x' }; o.spec.template.metadata.labels.tier = 'b'; }),
    ['x', 1, 0, 0, '3h10m', 'app', 'registry.example/app:1', 'app=x,tier=b']);
  assert.deepEqual(cells('DaemonSet', (o) => { delete o.status; }), ['x', 0, 0, 0, 0, 0, '<none>', '3h10m', 'app', 'registry.example/app:1', 'app=x']);
  const job = (status: Record<string, unknown>, spec: Record<string, unknown> = {}) => cells('Job', (o) => { o.status = status; Object.assign(o.spec, spec); }).slice(1, 4);
  const cond = (type: string) => ({ conditions: [{ type, status: 'True' }] });
  assert.deepEqual(job({ ...cond('Complete'), succeeded: 1, startTime: '2026-01-01T00:00:00Z', completionTime: '2026-01-01T00:02:05Z' }), ['Complete', '1/1', '2m5s']);
  assert.deepEqual(job(cond('Failed')), ['Failed', '0/1', '']);
  assert.deepEqual(job(cond('Suspended')), ['Suspended', '0/1', '']);
  assert.deepEqual(job({ conditions: [{ type: 'Complete', status: 'False' }], succeeded: 2 }, { completions: undefined, parallelism: 3 }), ['Running', '2/1 of 3', '']);
  assert.deepEqual(job({ succeeded: 2 }, { completions: 5 }), ['Running', '2/5', '']);
  assert.deepEqual(cells('CronJob', (o) => { o.spec.timeZone = 'Etc/UTC'; o.spec.suspend = true; o.status = { active: [{ name: 'a' }, { name: 'b' }] }; }).slice(2, 6),
    ['Etc/UTC', 'True', 2, '<none>']);
  assert.deepEqual(cells('Ingress', (o) => {
    o.spec.ingressClassName = 'nginx';
    o.spec.rules = ['a.example', '', 'b.example', 'c.example', 'd.example'].map((host) => ({ host }));
    o.spec.tls = [{ hosts: ['a.example'] }];
    o.status = { loadBalancer: { ingress: [{ ip: '192.0.2.9' }, { hostname: 'lb.example' }, { ip: '192.0.2.1' }, { ip: '192.0.2.1' }] } };
  }), ['x', 'nginx', 'a.example,b.example,c.example + 2 more...', '192.0.2.1,192.0.2.9,lb.example', '80, 443', '3h10m']);
  assert.deepEqual(cells('Ingress', (o) => { o.spec.rules = [{ http: o.spec.rules[0].http }]; delete o.status; }).slice(2, 4), ['*', '']);
  assert.deepEqual(cells('IngressClass', () => undefined)[2], '<none>');
  assert.deepEqual(cells('ResourceQuota', (o) => { delete o.status; }), ['x', '3h10m', '', '']);
  assert.deepEqual(cells('NetworkPolicy', (o) => { o.spec.podSelector = {}; }), ['x', '<none>', '3h10m']);
  assert.deepEqual(cells('NetworkPolicy', (o) => {
    o.spec.podSelector = { matchLabels: { app: 'db' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }] };
  }), ['x', 'app=db,env in (dev,prod)', '3h10m']);
  assert.deepEqual(cells('CSIDriver', (o) => {
    o.spec = { attachRequired: false, podInfoOnMount: true, storageCapacity: true, requiresRepublish: true,
      tokenRequests: [{ audience: 'vault' }, { audience: 'gcp' }], volumeLifecycleModes: ['Persistent', 'Ephemeral'] };
  }), ['x', false, true, true, 'vault,gcp', true, 'Persistent,Ephemeral', '3h10m']);
  assert.deepEqual(cells('Secret', (o) => { o.type = 'orch.io/tls'; o.data = { 'tls.crt': 'YQ==', 'tls.key': 'Yg==' }; }),
    ['x', 'orch.io/tls', 2, '3h10m']);
  assert.deepEqual(cells('ConfigMap', (o) => { delete o.data; }), ['x', 0, '3h10m']);
  assert.deepEqual(cells('StorageClass', (o) => {
    o.metadata.annotations = { 'storageclass.orch.io/is-default-class': 'true' };
    o.reclaimPolicy = 'Retain'; o.volumeBindingMode = 'WaitForFirstConsumer'; o.allowVolumeExpansion = true;
  }), ['x (default)', 'csi.example.com', 'Retain', 'WaitForFirstConsumer', true, '3h10m']);
  assert.deepEqual(cells('StorageClass', (o) => { o.metadata.annotations = { 'storageclass.beta.orch.io/is-default-class': 'true' }; })[0], 'x (default)');
  assert.deepEqual(cells('StorageClass', (o) => { o.metadata.annotations = { 'storageclass.orch.io/is-default-class': 'yes' }; })[0], 'x');
  assert.deepEqual(cells('PriorityClass', (o) => { o.globalDefault = true; o.preemptionPolicy = 'Never'; }), ['x', 1000, true, '3h10m', 'Never']);
  assert.deepEqual(cells('Lease', (o) => { delete o.spec.holderIdentity; }), ['x', '', '3h10m']);
  // Upstream's CSR condition summary: Denied wins over Approved, then Failed and Issued are appended.
  const csr = (status: Record<string, unknown> | undefined, spec: Record<string, unknown> = {}) =>
    cells('CertificateSigningRequest', (o) => { if (status) o.status = status; else delete o.status; Object.assign(o.spec, spec); }).slice(2);
  assert.deepEqual(csr(undefined, { signerName: '', expirationSeconds: undefined }), ['<none>', '', '<none>', 'Pending']);
  assert.deepEqual(csr({ conditions: [{ type: 'Denied', status: 'True' }, { type: 'Approved', status: 'True' }] }).slice(3), ['Denied']);
  assert.deepEqual(csr({ conditions: [{ type: 'Failed', status: 'True' }] }, { expirationSeconds: 86400 }).slice(2), ['24h', 'Pending,Failed']);
  assert.deepEqual(csr({ conditions: [{ type: 'Approved', status: 'True' }, { type: 'Failed', status: 'True' }] }).slice(3), ['Approved,Failed']);
  assert.deepEqual(cells('Namespace', (o) => { o.metadata.creationTimestamp = '2025-12-30T00:00:00Z'; }), ['x', 'Active', '2d3h']);
  assert.deepEqual(cells('Namespace', (o) => { delete o.metadata.creationTimestamp; }), ['x', 'Active', '<unknown>']);
});

test('includeObject None leaves rows without an object', () => {
  const table = toTable(infoOf('ConfigMap'), [stored('ConfigMap')], { includeObject: 'None', now });
  assert.equal('object' in table.rows[0]!, false);
});

test('includeObject Metadata embeds PartialObjectMetadata with the whole metadata', () => {
  const obj = stored('ConfigMap');
  const table = toTable(infoOf('ConfigMap'), [obj], { includeObject: 'Metadata', now });
  assert.deepEqual(table.rows[0]!.object, {
    kind: 'PartialObjectMetadata',
    apiVersion: 'meta.orch.io/v1',
    metadata: obj.metadata,
  });
  assert.equal((table.rows[0]!.object as Record<string, unknown>).data, undefined);
});

test('includeObject Object embeds the full object with apiVersion and kind', () => {
  const obj = stored('StatefulSet');
  delete obj.apiVersion;
  delete obj.kind;
  const table = toTable(infoOf('StatefulSet'), [obj], { includeObject: 'Object', now });
  const embedded = table.rows[0]!.object as Record<string, unknown>;
  assert.deepEqual(Object.keys(embedded).slice(0, 2), ['apiVersion', 'kind']);
  assert.deepEqual(embedded, { apiVersion: 'apps/v1', kind: 'StatefulSet', ...obj });
  const core = toTable(infoOf('Secret'), [stored('Secret')], { includeObject: 'Object', now }).rows[0]!.object as Record<string, unknown>;
  assert.equal(core.apiVersion, 'v1');
  assert.equal(core.kind, 'Secret');
});

test('list metadata becomes the Table metadata; rows keep the order of the objects', () => {
  const objects = ['b', 'a', 'c'].map((name) => {
    const o = stored('ConfigMap');
    (o.metadata as Record<string, unknown>).name = name;
    return o;
  });
  const table = toTable(infoOf('ConfigMap'), objects, {
    includeObject: 'Metadata',
    now,
    listMeta: { resourceVersion: '1234', continue: 'eyJ2IjoibWV0YS5vcmNoLmlvL3YxIn0', remainingItemCount: 7, selfLink: '/ignored' },
  });
  assert.equal(table.kind, 'Table');
  assert.equal(table.apiVersion, 'meta.orch.io/v1');
  assert.deepEqual(table.metadata, { resourceVersion: '1234', continue: 'eyJ2IjoibWV0YS5vcmNoLmlvL3YxIn0', remainingItemCount: 7 });
  assert.deepEqual(table.rows.map((r) => r.cells[0]), ['b', 'a', 'c']);

  const last = toTable(infoOf('ConfigMap'), [], { includeObject: 'None', listMeta: { resourceVersion: '9', continue: '' } });
  assert.deepEqual(last.metadata, { resourceVersion: '9' });
  assert.deepEqual(last.rows, []);
  assert.equal(last.columnDefinitions.length, 3);
  assert.deepEqual(toTable(infoOf('ConfigMap'), [], { includeObject: 'None' }).metadata, {});
});

test('withColumnDefinitions false sends rows without column definitions', () => {
  const table = toTable(infoOf('StatefulSet'), [stored('StatefulSet')], { includeObject: 'None', now, withColumnDefinitions: false });
  assert.deepEqual(table.columnDefinitions, []);
  assert.equal(table.rows[0]!.cells.length, 5);
});

test('column definitions serialize every field, format included when empty', () => {
  const json = JSON.parse(JSON.stringify(toTable(infoOf('Namespace'), [], { includeObject: 'None', now })));
  assert.deepEqual(Object.keys(json), ['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
  assert.deepEqual(json.columnDefinitions[1], {
    name: 'Status', type: 'string', format: '', description: json.columnDefinitions[1].description, priority: 0,
  });
});

test('a CustomResourceDefinition prints its name and creation time, as upstream', () => {
  const crd = { apiVersion: 'apiextensions.orch.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com', creationTimestamp: created }, spec: {} };
  const table = toTable(infoOf('CustomResourceDefinition'), [crd as unknown as Parameters<typeof toTable>[1][number]], { includeObject: 'None', now });
  assert.deepEqual(table.columnDefinitions.map((c) => c.name), ['Name', 'Created At']);
  assert.deepEqual(table.rows[0]!.cells, ['widgets.example.com', created]);
});
