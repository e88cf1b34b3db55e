// ReplicationControllers, DaemonSets, Jobs, CronJobs, Ingresses and IngressClasses through the real
// server: upstream's defaults and validation causes, Table columns, the scale of a replication
// controller, the selector a Job gets from its uid (and may not change), CronJob schedules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { fixtures } from './fixtures.js';

const make = (kind: string, name: string) => fixtures.find((f) => f.kind === kind)!.make(name) as Record<string, any>;
const core = '/api/v1/namespaces/default';
const apps = '/apis/apps/v1/namespaces/default';
const batch = '/apis/batch/v1/namespaces/default';
const net = '/apis/networking.orch.io/v1';
const asTable = { headers: { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } };
const causes = (r: { body: any }) => r.body.details.causes.map((c: any) => `${c.reason} ${c.field}: ${c.message}`);

describe('more workloads and ingresses', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('a ReplicationController defaults its selector, labels and replicas from the template, and scales', async () => {
    const obj = make('ReplicationController', 'rc');
    delete obj.spec.selector;
    delete obj.metadata.labels;
    const r = await t.client.post(`${core}/replicationcontrollers`, obj);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual([r.body.spec.selector, r.body.metadata.labels, r.body.spec.replicas], [{ app: 'rc' }, { app: 'rc' }, 1]);
    assert.equal(r.body.spec.template.spec.restartPolicy, 'Always');
    assert.deepEqual(r.body.status, { replicas: 0 });
    const scale = await t.client.get(`${core}/replicationcontrollers/rc/scale`);
    assert.equal(scale.status, 200, scale.text);
    assert.deepEqual([scale.body.apiVersion, scale.body.kind, scale.body.spec, scale.body.status],
      ['autoscaling/v1', 'Scale', { replicas: 1 }, { replicas: 0, selector: 'app=rc' }]);
    const put = await t.client.put(`${core}/replicationcontrollers/rc/scale`, { ...scale.body, spec: { replicas: 5 } });
    assert.equal(put.status, 200, put.text);
    assert.equal((await t.client.get(`${core}/replicationcontrollers/rc`)).body.spec.replicas, 5);
    const byReplicas = await t.client.get(`${core}/replicationcontrollers?fieldSelector=status.replicas=0`);
    assert.deepEqual(byReplicas.body.items.map((o: any) => o.metadata.name), ['rc']);
    const negative = await t.client.patch(`${core}/replicationcontrollers/rc/scale`, { spec: { replicas: -1 } }, 'application/merge-patch+json');
    assertStatus(negative, 422, 'Invalid');
    const table = await t.client.get(`${core}/replicationcontrollers/rc`, asTable);
    assert.deepEqual(table.body.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`),
      ['Name:0', 'Desired:0', 'Current:0', 'Ready:0', 'Age:0', 'Containers:1', 'Images:1', 'Selector:1']);
    assert.deepEqual(table.body.rows[0].cells.filter((_: unknown, i: number) => i !== 4), ['rc', 5, 0, 0, 'app', 'registry.example/app:1', 'app=rc']);
  });

  test('a ReplicationController refuses a template its selector does not match, and pods that do not restart', async () => {
    const obj = make('ReplicationController', 'bad-rc');
    obj.spec.selector = { app: 'other' };
    obj.spec.template.spec.restartPolicy = 'OnFailure';
    const r = await t.client.post(`${core}/replicationcontrollers`, obj);
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(causes(r), [
      'FieldValueInvalid spec.template.metadata.labels: Invalid value: {"app":"bad-rc"}: `selector` does not match template `labels`',
      'FieldValueNotSupported spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    ]);
    const noTemplate = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'empty' }, spec: {} };
    assert.deepEqual(causes(await t.client.post(`${core}/replicationcontrollers`, noTemplate)),
      ['FieldValueRequired spec.selector: Required value', 'FieldValueRequired spec.template: Required value']);
  });

  test('a DaemonSet gets a RollingUpdate strategy, refuses bad ones and keeps its selector', async () => {
    const r = await t.client.post(`${apps}/daemonsets`, make('DaemonSet', 'ds'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    assert.equal(r.body.spec.revisionHistoryLimit, 10);
    assert.deepEqual(r.body.status, { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    const bad = make('DaemonSet', 'bad-ds');
    bad.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } };
    bad.spec.template.spec.restartPolicy = 'Never';
    const refused = await t.client.post(`${apps}/daemonsets`, bad);
    assertStatus(refused, 422, 'Invalid');
    assert.deepEqual(causes(refused), [
      'FieldValueNotSupported spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'FieldValueRequired spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]);
    const changed = structuredClone(r.body);
    changed.spec.selector = { matchLabels: { app: 'ds', tier: 'x' } };
    changed.spec.template.metadata.labels.tier = 'x';
    const put = await t.client.put(`${apps}/daemonsets/ds`, changed);
    assertStatus(put, 422, 'Invalid');
    assert.deepEqual(put.body.details.causes.map((c: any) => `${c.reason} ${c.field}`), ['FieldValueInvalid spec.selector']);
    const table = await t.client.get(`${apps}/daemonsets/ds`, asTable);
    assert.deepEqual(table.body.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`),
      ['Name:0', 'Desired:0', 'Current:0', 'Ready:0', 'Up-to-date:0', 'Available:0', 'Node Selector:0', 'Age:0', 'Containers:1', 'Images:1', 'Selector:1']);
    assert.deepEqual(table.body.rows[0].cells.slice(0, 7), ['ds', 0, 0, 0, 0, 0, '<none>']);
  });

  test('a Job gets upstream defaults and a selector generated from its uid, which cannot change', async () => {
    const r = await t.client.post(`${batch}/jobs`, make('Job', 'pi'));
    assert.equal(r.status, 201, r.text);
    const { uid } = r.body.metadata;
    const spec = r.body.spec;
    assert.deepEqual([spec.parallelism, spec.completions, spec.backoffLimit, spec.completionMode, spec.suspend, spec.podReplacementPolicy, spec.manualSelector],
      [1, 1, 6, 'NonIndexed', false, 'TerminatingOrFailed', undefined]);
    assert.deepEqual(spec.selector, { matchLabels: { 'batch.orch.io/controller-uid': uid } });
    assert.deepEqual(spec.template.metadata.labels,
      { 'batch.orch.io/controller-uid': uid, 'batch.orch.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' });
    assert.deepEqual(r.body.status, {});
    const changed = structuredClone(r.body);
    changed.spec.selector.matchLabels['job-name'] = 'pi';
    const put = await t.client.put(`${batch}/jobs/pi`, changed);
    assertStatus(put, 422, 'Invalid');
    assert.deepEqual(put.body.details.causes.map((c: any) => `${c.reason} ${c.field}`), ['FieldValueInvalid spec.selector']);
    assert.match(put.body.message, /spec\.selector: Invalid value: .*: field is immutable$/);
    const scaled = await t.client.patch(`${batch}/jobs/pi`, { spec: { parallelism: 3 } }, 'application/merge-patch+json');
    assert.equal(scaled.status, 200, scaled.text);
    const table = await t.client.get(`${batch}/jobs/pi`, asTable);
    assert.deepEqual(table.body.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`),
      ['Name:0', 'Status:0', 'Completions:0', 'Duration:0', 'Age:0', 'Containers:1', 'Images:1', 'Selector:1']);
    assert.deepEqual(table.body.rows[0].cells.slice(0, 4), ['pi', 'Running', '0/1', '']);
    assert.equal(table.body.rows[0].cells[7], `batch.orch.io/controller-uid=${uid}`);
    const done = await t.client.patch(`${batch}/jobs/pi/status`, { status: {
      conditions: [{ type: 'Complete', status: 'True' }], succeeded: 1, startTime: '2026-01-01T00:00:00Z', completionTime: '2026-01-01T00:00:42Z',
    } }, 'application/merge-patch+json');
    assert.equal(done.status, 200, done.text);
    assert.deepEqual((await t.client.get(`${batch}/jobs/pi`, asTable)).body.rows[0].cells.slice(1, 4), ['Complete', '1/1', '42s']);
    const bySuccess = await t.client.get(`${batch}/jobs?fieldSelector=status.successful=1`);
    assert.deepEqual(bySuccess.body.items.map((j: any) => j.metadata.name), ['pi']);
  });

  test('a Job refuses a selector it did not generate, pods that restart always, and keeps a manual selector', async () => {
    const own = make('Job', 'own');
    own.spec.selector = { matchLabels: { app: 'own' } };
    own.spec.template.metadata = { labels: { app: 'own' } };
    own.spec.template.spec.restartPolicy = 'Always';
    const r = await t.client.post(`${batch}/jobs`, own);
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(r.body.details.causes.map((c: any) => `${c.reason} ${c.field}`), [
      'FieldValueInvalid spec.selector', 'FieldValueNotSupported spec.template.spec.restartPolicy',
    ]);
    assert.match(causes(r)[0], /`selector` not auto-generated$/);
    own.spec.manualSelector = true;
    own.spec.template.spec.restartPolicy = 'OnFailure';
    const manual = await t.client.post(`${batch}/jobs`, own);
    assert.equal(manual.status, 201, manual.text);
    assert.deepEqual([manual.body.spec.selector, manual.body.spec.template.metadata.labels], [{ matchLabels: { app: 'own' } }, { app: 'own' }]);
    const indexed = make('Job', 'indexed');
    indexed.spec.completionMode = 'Indexed';
    indexed.spec.parallelism = 2;
    indexed.spec.backoffLimit = -1;
    assert.deepEqual(causes(await t.client.post(`${batch}/jobs`, indexed)), [
      'FieldValueInvalid spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      'FieldValueRequired spec.completions: Required value: when completion mode is Indexed',
    ]);
  });

  test('a CronJob gets upstream defaults and a schedule that parses', async () => {
    const r = await t.client.post(`${batch}/cronjobs`, make('CronJob', 'nightly'));
    assert.equal(r.status, 201, r.text);
    const spec = r.body.spec;
    assert.deepEqual([spec.concurrencyPolicy, spec.suspend, spec.successfulJobsHistoryLimit, spec.failedJobsHistoryLimit], ['Allow', false, 3, 1]);
    for (const [schedule, message] of [
      ['every day', 'expected exactly 5 fields, found 2: [every day]'],
      ['0 25 * * *', 'end of range (25) above maximum (23): 25'],
      ['@weekdays', 'unrecognized descriptor: @weekdays'],
      ['TZ=Europe/Paris 0 3 * * *', 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'],
    ]) {
      const bad = make('CronJob', 'bad-cron');
      bad.spec.schedule = schedule;
      const refused = await t.client.post(`${batch}/cronjobs`, bad);
      assertStatus(refused, 422, 'Invalid');
      assert.deepEqual(causes(refused), [`FieldValueInvalid spec.schedule: Invalid value: ${JSON.stringify(schedule)}: ${message}`]);
    }
    const zone = make('CronJob', 'zoned');
    zone.spec.timeZone = 'Nowhere/Special';
    assert.deepEqual(causes(await t.client.post(`${batch}/cronjobs`, zone)),
      ['FieldValueInvalid spec.timeZone: Invalid value: "Nowhere/Special": unknown time zone Nowhere/Special']);
    zone.spec.timeZone = 'Europe/Paris';
    zone.spec.suspend = true;
    assert.equal((await t.client.post(`${batch}/cronjobs`, zone)).status, 201);
    const patched = await t.client.patch(`${batch}/cronjobs/nightly`, { spec: { schedule: '61 * * * *' } }, 'application/merge-patch+json');
    assertStatus(patched, 422, 'Invalid');
    const table = await t.client.get(`${batch}/cronjobs`, asTable);
    assert.deepEqual(table.body.columnDefinitions.map((c: any) => `${c.name}:${c.type}:${c.priority}`), [
      'Name:string:0', 'Schedule:string:0', 'Timezone:string:0', 'Suspend:boolean:0', 'Active:integer:0', 'Last Schedule:string:0', 'Age:string:0',
      'Containers:string:1', 'Images:string:1', 'Selector:string:1',
    ]);
    assert.deepEqual(table.body.rows.map((row: any) => row.cells.slice(0, 6)), [
      ['nightly', '*/5 * * * *', '<none>', 'False', 0, '<none>'],
      ['zoned', '*/5 * * * *', 'Europe/Paris', 'True', 0, '<none>'],
    ]);
  });

  test('an Ingress needs typed paths and one backend each; Table shows class, hosts, address and ports', async () => {
    const bad = make('Ingress', 'bad-ing');
    bad.spec.rules = [
      { host: '10.0.0.1', http: { paths: [{ path: 'relative', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80, name: 'http' } } } }] } },
      { host: 'a.*.example.com', http: { paths: [{ path: '/', pathType: 'Exact', backend: {} }] } },
    ];
    const r = await t.client.post(`${net}/namespaces/default/ingresses`, bad);
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(r.body.details.causes.map((c: any) => `${c.reason} ${c.field}`), [
      'FieldValueInvalid spec.rules[0].host',
      'FieldValueInvalid spec.rules[0].http.paths[0].path',
      'FieldValueInvalid spec.rules[0].http.paths[0].backend',
      'FieldValueInvalid spec.rules[1].host',
      'FieldValueInvalid spec.rules[1].http.paths[0].backend',
    ]);
    assert.deepEqual(causes(r).slice(0, 3), [
      'FieldValueInvalid spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
      'FieldValueInvalid spec.rules[0].http.paths[0].path: Invalid value: "relative": must be an absolute path',
      'FieldValueInvalid spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both port name & port number',
    ]);
    const noType = make('Ingress', 'no-type');
    delete noType.spec.rules[0].http.paths[0].pathType;
    const missing = await t.client.post(`${net}/namespaces/default/ingresses`, noType);
    assertStatus(missing, 422, 'Invalid');
    assert.deepEqual(missing.body.details.causes.map((c: any) => `${c.reason} ${c.field}`), ['FieldValueRequired spec.rules[0].http.paths[0].pathType']);

    const ing = make('Ingress', 'web');
    ing.spec.ingressClassName = 'nginx';
    ing.spec.tls = [{ hosts: ['web.example.com'], secretName: 'web-tls' }];
    assert.equal((await t.client.post(`${net}/namespaces/default/ingresses`, ing)).status, 201);
    const status = await t.client.patch(`${net}/namespaces/default/ingresses/web/status`,
      { status: { loadBalancer: { ingress: [{ ip: '192.0.2.7' }, { hostname: 'lb.example.com' }] } } }, 'application/merge-patch+json');
    assert.equal(status.status, 200, status.text);
    const table = await t.client.get(`${net}/namespaces/default/ingresses/web`, asTable);
    assert.deepEqual(table.body.columnDefinitions.map((c: any) => c.name), ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
    assert.deepEqual(table.body.rows[0].cells.slice(0, 5), ['web', 'nginx', 'web.example.com', '192.0.2.7,lb.example.com', '80, 443']);
  });

  test('an IngressClass is cluster-scoped, with a domain-prefixed controller that cannot change', async () => {
    const ic = make('IngressClass', 'nginx');
    ic.spec.parameters = { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external' };
    const r = await t.client.post(`${net}/ingressclasses`, ic);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.parameters.scope, 'Cluster');
    assert.equal(r.body.metadata.namespace, undefined);
    const changed = await t.client.patch(`${net}/ingressclasses/nginx`, { spec: { controller: 'example.com/other' } }, 'application/merge-patch+json');
    assertStatus(changed, 422, 'Invalid');
    assert.deepEqual(changed.body.details.causes.map((c: any) => `${c.reason} ${c.field}`), ['FieldValueInvalid spec.controller']);
    const bad = make('IngressClass', 'bad-class');
    bad.spec = { controller: 'nginx', parameters: { kind: 'P', name: 'p', scope: 'Namespace' } };
    assert.deepEqual(causes(await t.client.post(`${net}/ingressclasses`, bad)), [
      'FieldValueInvalid spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
      "FieldValueRequired spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
    ]);
    const table = await t.client.get(`${net}/ingressclasses/nginx`, asTable);
    assert.deepEqual(table.body.columnDefinitions.map((c: any) => c.name), ['Name', 'Controller', 'Parameters', 'Age']);
    assert.deepEqual(table.body.rows[0].cells.slice(0, 3), ['nginx', 'example.com/ingress-controller', 'IngressParameters.k8s.example.com/external']);
  });
});
