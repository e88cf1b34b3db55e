// The rules of the resource reference, through the real server: each bad object is a 422
// Invalid naming the field, and nothing is stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { fixtures } from './fixtures.js';

const fixture = (kind: string) => fixtures.find((f) => f.kind === kind)!;
const clone = <T>(v: T): T => structuredClone(v);

describe('validation answers 422 Invalid with one cause per bad field', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  async function expectInvalid(path: string, body: unknown, fields: string[], method: 'POST' | 'PUT' = 'POST') {
    const r = await t.client.request(method, path, { body });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.kind, 'Status');
    assert.equal(r.body.reason, 'Invalid');
    assert.equal(r.body.code, 422);
    const causes: { field: string; reason: string; message: string }[] = r.body.details.causes;
    for (const f of fields) {
      assert.ok(causes.some((c) => c.field === f), `expected a cause for ${f}, got ${JSON.stringify(causes)}`);
    }
    for (const c of causes) assert.match(c.reason, /^FieldValue/);
    return r.body;
  }

  const sts = (name: string) => fixture('StatefulSet').make(name) as any;
  const stsPath = '/apis/apps/v1/namespaces/default/statefulsets';

  test('StatefulSet without selector, with a selector not matching the template, or a claim without mount', async () => {
    const noSelector = sts('nosel');
    delete noSelector.spec.selector;
    const body = await expectInvalid(stsPath, noSelector, ['spec.selector']);
    assert.match(body.message, /^StatefulSet\.apps "nosel" is invalid: /);

    const mismatch = sts('mismatch');
    mismatch.spec.selector = { matchLabels: { app: 'other' } };
    await expectInvalid(stsPath, mismatch, ['spec.template.metadata.labels']);

    const unmounted = sts('unmounted');
    unmounted.spec.volumeClaimTemplates.push({ metadata: { name: 'logs' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    await expectInvalid(stsPath, unmounted, ['spec.volumeClaimTemplates[1].metadata.name']);

    const negative = sts('negative');
    negative.spec.replicas = -1;
    await expectInvalid(stsPath, negative, ['spec.replicas']);

    const badPolicy = sts('badpolicy');
    badPolicy.spec.podManagementPolicy = 'Sometimes';
    await expectInvalid(stsPath, badPolicy, ['spec.podManagementPolicy']);
    assert.deepEqual((await t.client.get(stsPath)).body.items, []);
  });

  test('StatefulSet selector cannot change on update', async () => {
    const created = await t.client.post(stsPath, sts('web'));
    assert.equal(created.status, 201, created.text);
    const changed = clone(created.body);
    changed.spec.selector = { matchLabels: { app: 'web', tier: 'x' } };
    changed.spec.template.metadata.labels = { app: 'web', tier: 'x' };
    await expectInvalid(`${stsPath}/web`, changed, ['spec'], 'PUT');
  });

  test('StatefulSet defaults are applied', async () => {
    const r = await t.client.post(stsPath, sts('defaults'));
    assert.equal(r.status, 201, r.text);
    const spec = r.body.spec;
    assert.equal(spec.replicas, 1);
    assert.equal(spec.updateStrategy.type, 'RollingUpdate');
    assert.equal(spec.updateStrategy.rollingUpdate.partition, 0);
    assert.equal(spec.podManagementPolicy, 'OrderedReady');
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal('minReadySeconds' in spec, false, 'defaulted to 0, which upstream leaves out (omitempty)');
    assert.deepEqual(spec.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.equal(r.body.metadata.generation, 1);
  });

  test('CSIDriver names, defaults and immutable fields', async () => {
    const path = '/apis/storage.orch.io/v1/csidrivers';
    await expectInvalid(path, { apiVersion: 'storage.orch.io/v1', kind: 'CSIDriver', metadata: { name: 'a'.repeat(64) }, spec: {} }, ['metadata.name']);
    await expectInvalid(path, { apiVersion: 'storage.orch.io/v1', kind: 'CSIDriver', metadata: { name: 'Bad_Name' }, spec: {} }, ['metadata.name']);
    await expectInvalid(path, { apiVersion: 'storage.orch.io/v1', kind: 'CSIDriver', metadata: { name: 'nospec.example.com' } }, ['spec']);
    const created = await t.client.post(path, { apiVersion: 'storage.orch.io/v1', kind: 'CSIDriver', metadata: { name: 'hostpath.csi.example.com' }, spec: {} });
    assert.equal(created.status, 201, created.text);
    const spec = created.body.spec;
    assert.equal(spec.podInfoOnMount, false);
    assert.equal(spec.requiresRepublish, false);
    assert.equal(spec.seLinuxMount, false);
    assert.equal(spec.fsGroupPolicy, 'ReadWriteOnceWithFSType');
    assert.deepEqual(spec.volumeLifecycleModes, ['Persistent']);
    for (const [field, value] of [['attachRequired', false], ['podInfoOnMount', true], ['fsGroupPolicy', 'File'], ['volumeLifecycleModes', ['Ephemeral']]] as const) {
      const changed = clone(created.body);
      changed.spec[field] = value;
      await expectInvalid(`${path}/hostpath.csi.example.com`, changed, [`spec.${field}`], 'PUT');
    }
    const mutable = clone(created.body);
    mutable.spec.requiresRepublish = true;
    const ok = await t.client.put(`${path}/hostpath.csi.example.com`, mutable);
    assert.equal(ok.status, 200, ok.text);
  });

  test('NetworkPolicy peers, CIDRs, ports and protocols', async () => {
    const path = '/apis/networking.orch.io/v1/namespaces/default/networkpolicies';
    const np = (name: string, ingress: unknown[]) => ({ apiVersion: 'networking.orch.io/v1', kind: 'NetworkPolicy', metadata: { name }, spec: { podSelector: {}, ingress } });
    await expectInvalid(path, np('both', [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }]), ['spec.ingress[0].from[0]']);
    await expectInvalid(path, np('outside', [{ from: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['192.168.0.0/24'] } }] }]), ['spec.ingress[0].from[0].ipBlock.except[0]']);
    await expectInvalid(path, np('badcidr', [{ from: [{ ipBlock: { cidr: '10.0.0.300/8' } }] }]), ['spec.ingress[0].from[0].ipBlock.cidr']);
    await expectInvalid(path, np('named-end', [{ ports: [{ port: 'http', endPort: 90 }] }]), ['spec.ingress[0].ports[0].endPort']);
    await expectInvalid(path, np('no-port-end', [{ ports: [{ endPort: 90 }] }]), ['spec.ingress[0].ports[0].endPort']);
    await expectInvalid(path, np('low-end', [{ ports: [{ port: 100, endPort: 90 }] }]), ['spec.ingress[0].ports[0].endPort']);
    await expectInvalid(path, np('proto', [{ ports: [{ port: 80, protocol: 'ICMP' }] }]), ['spec.ingress[0].ports[0].protocol']);
    const ok = await t.client.post(path, { ...np('ok', [{ ports: [{ port: 80, endPort: 90 }] }]), spec: { podSelector: {}, ingress: [{ ports: [{ port: 80, endPort: 90 }] }], egress: [{}] } });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.spec.ingress[0].ports[0].protocol, 'TCP');
    assert.deepEqual(ok.body.spec.policyTypes, ['Ingress', 'Egress']);
    const ingressOnly = await t.client.post(path, np('ingress-only', []));
    assert.deepEqual(ingressOnly.body.spec.policyTypes, ['Ingress']);
  });

  test('PodDisruptionBudget with both minAvailable and maxUnavailable', async () => {
    const path = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    await expectInvalid(path, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'both' }, spec: { minAvailable: 1, maxUnavailable: 1 } }, ['spec']);
  });

  test('ResourceQuota scope selectors and LimitRange items', async () => {
    const rq = (name: string, expr: unknown) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard: { pods: '1' }, scopeSelector: { matchExpressions: [expr] } } });
    const path = '/api/v1/namespaces/default/resourcequotas';
    await expectInvalid(path, rq('in-empty', { scopeName: 'PriorityClass', operator: 'In', values: [] }), ['spec.scopeSelector.matchExpressions.values']);
    await expectInvalid(path, rq('exists-values', { scopeName: 'Terminating', operator: 'Exists', values: ['x'] }), ['spec.scopeSelector.matchExpressions.values']);
    await expectInvalid('/api/v1/namespaces/default/limitranges', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'notype' }, spec: { limits: [{ max: { cpu: '1' } }] } }, ['spec.limits[0].type']);
  });

  test('ClusterRoleBinding roleRef and subjects', async () => {
    const path = '/apis/rbac.authorization.orch.io/v1/clusterrolebindings';
    const crb = (name: string, extra: Record<string, unknown>) => ({ apiVersion: 'rbac.authorization.orch.io/v1', kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' }, ...extra });
    const noRef = crb('noref', {});
    delete (noRef as Record<string, unknown>).roleRef;
    await expectInvalid(path, noRef, ['roleRef']);
    await expectInvalid(path, crb('userns', { subjects: [{ kind: 'User', name: 'jane', namespace: 'default' }] }), ['subjects[0].namespace']);
    await expectInvalid(path, crb('groupns', { subjects: [{ kind: 'Group', name: 'devs', namespace: 'default' }] }), ['subjects[0].namespace']);
    await expectInvalid(path, crb('sa-nons', { subjects: [{ kind: 'ServiceAccount', name: 'builder' }] }), ['subjects[0].namespace']);
    const ok = await t.client.post(path, crb('ok', { subjects: [{ kind: 'User', name: 'jane' }, { kind: 'ServiceAccount', name: 'b', namespace: 'default' }] }));
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.subjects[0].apiGroup, 'rbac.authorization.orch.io');
    assert.equal('apiGroup' in ok.body.subjects[1], false, 'defaulted to "", which upstream leaves out (omitempty)');
    const changed = clone(ok.body);
    changed.roleRef.name = 'edit';
    await expectInvalid(`${path}/ok`, changed, ['roleRef'], 'PUT');
  });

  test('names that are not DNS subdomains are rejected', async () => {
    for (const name of ['Upper', 'under_score', '-lead', 'trail-', 'a'.repeat(254)]) {
      await expectInvalid('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }, ['metadata.name']);
    }
    await expectInvalid('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, ['metadata.name']);
  });

  test('generateName makes a name of prefix plus five characters', async () => {
    const r = await t.client.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } });
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.metadata.name, /^gen-[a-z0-9]{5}$/);
    assert.equal(r.body.metadata.generateName, 'gen-');
  });

  test('unknown fields are dropped with a warning', async () => {
    const r = await t.client.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unknown', bogus: 1 }, data: {}, extra: true });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.extra, undefined);
    assert.equal(r.body.metadata.bogus, undefined);
    const warnings = String(r.headers.warning);
    assert.match(warnings, /299 - "unknown field \\"extra\\""/);
    assert.match(warnings, /unknown field \\"metadata.bogus\\"/);
    const strict = await t.client.post('/api/v1/namespaces/default/configmaps?fieldValidation=Strict', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'strict' }, extra: true });
    assert.equal(strict.status, 400, strict.text);
  });

  test('a realistic StatefulSet manifest is accepted without warnings', async () => {
    const body = {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'postgres', labels: { app: 'postgres' } },
      spec: {
        serviceName: 'postgres', replicas: 3,
        selector: { matchLabels: { app: 'postgres' } },
        template: {
          metadata: { labels: { app: 'postgres' }, annotations: { 'prometheus.io/scrape': 'true' } },
          spec: {
            serviceAccountName: 'postgres', terminationGracePeriodSeconds: 60,
            securityContext: { runAsNonRoot: true, fsGroup: 999, seccompProfile: { type: 'RuntimeDefault' } },
            affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { topologyKey: 'orch.io/hostname', labelSelector: { matchLabels: { app: 'postgres' } } } }] } },
            tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }],
            topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.orch.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'postgres' } } }],
            initContainers: [{ name: 'init', image: 'busybox:1.36', command: ['sh', '-c', 'chown 999 /data'], volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
            containers: [{
              name: 'postgres', image: 'postgres:16', imagePullPolicy: 'IfNotPresent',
              ports: [{ name: 'pg', containerPort: 5432, protocol: 'TCP' }],
              env: [
                { name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: 'pg', key: 'password' } } },
                { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              ],
              envFrom: [{ configMapRef: { name: 'pg-config' } }],
              resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '2Gi' } },
              livenessProbe: { exec: { command: ['pg_isready'] }, initialDelaySeconds: 30, periodSeconds: 10 },
              readinessProbe: { tcpSocket: { port: 5432 }, failureThreshold: 3 },
              startupProbe: { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' } },
              lifecycle: { preStop: { exec: { command: ['pg_ctl', 'stop'] } } },
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true },
              volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data', subPath: 'pgdata' }, { name: 'config', mountPath: '/etc/pg', readOnly: true }],
            }],
            volumes: [{ name: 'config', configMap: { name: 'pg-config', items: [{ key: 'postgresql.conf', path: 'postgresql.conf' }] } }, { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } }],
          },
        },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '10Gi' } } } }],
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        podManagementPolicy: 'Parallel',
      },
    };
    const r = await t.client.post(stsPath, body);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.warning, undefined, String(r.headers.warning));
    assert.equal(r.body.spec.template.spec.containers[0].terminationMessagePath, '/dev/termination-log');
    assert.equal(r.body.spec.template.spec.restartPolicy, 'Always');
  });
});
