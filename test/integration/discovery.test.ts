// Discovery and /version: what kubectl reads before anything else.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { fixtures } from './fixtures.js';

describe('discovery', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('/api lists the core version', async () => {
    const r = await t.client.get('/api');
    assert.equal(r.status, 200);
    assert.equal(r.body.kind, 'APIVersions');
    assert.deepEqual(r.body.versions, ['v1']);
  });

  test('/apis lists every named group with its preferred version, in upstream\'s priority order', async () => {
    const r = await t.client.get('/apis');
    assert.equal(r.body.kind, 'APIGroupList');
    const names = r.body.groups.map((g: any) => g.name);
    assert.deepEqual(names, ['apiregistration.orch.io', 'apps', 'events.orch.io', 'authentication.orch.io', 'authorization.orch.io', 'autoscaling', 'batch', 'certificates.orch.io', 'networking.orch.io', 'policy', 'rbac.authorization.orch.io', 'storage.orch.io',
      'admissionregistration.orch.io', 'apiextensions.orch.io', 'scheduling.orch.io', 'coordination.orch.io', 'node.orch.io', 'discovery.orch.io']);
    const authn = r.body.groups[3];
    assert.deepEqual(authn.versions.map((v: any) => v.version), ['v1', 'v1beta1']);
    assert.deepEqual(authn.preferredVersion, { groupVersion: 'authentication.orch.io/v1', version: 'v1' });
    const apps = r.body.groups[1];
    assert.deepEqual(apps.preferredVersion, { groupVersion: 'apps/v1', version: 'v1' });
    const g = await t.client.get('/apis/policy');
    assert.equal(g.body.kind, 'APIGroup');
    assert.equal(g.body.name, 'policy');
  });

  test('every kind is listed with its verbs, scope, short names and sub-resources', async () => {
    for (const f of fixtures) {
      const r = await t.client.get(f.gv);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.kind, 'APIResourceList');
      assert.equal(r.body.groupVersion, f.apiVersion);
      const res = r.body.resources.find((x: any) => x.name === f.resource);
      assert.ok(res, `${f.resource} in ${f.gv}`);
      assert.equal(res.kind, f.kind);
      assert.equal(res.namespaced, f.namespaced);
      assert.equal(res.singularName, f.kind.toLowerCase());
      for (const v of ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']) assert.ok(res.verbs.includes(v), `${f.kind} verb ${v}`);
      assert.equal(res.verbs.includes('deletecollection'), f.kind !== 'Namespace');
      const status = r.body.resources.find((x: any) => x.name === `${f.resource}/status`);
      if (f.hasStatus) assert.deepEqual(status.verbs, ['get', 'patch', 'update']);
      else assert.equal(status, undefined);
    }
    const apps = await t.client.get('/apis/apps/v1');
    assert.deepEqual(apps.body.resources.find((x: any) => x.name === 'statefulsets').shortNames, ['sts']);
    const byName = (n: string) => apps.body.resources.find((x: any) => x.name === n);
    assert.deepEqual(byName('deployments').shortNames, ['deploy']);
    assert.deepEqual(byName('replicasets').shortNames, ['rs']);
    for (const n of ['deployments', 'replicasets']) {
      assert.deepEqual(byName(n).categories, ['all']);
      assert.deepEqual(byName(`${n}/scale`).verbs, ['get', 'patch', 'update']);
      assert.equal(byName(`${n}/scale`).kind, 'Scale');
    }
    assert.equal(byName('controllerrevisions').shortNames, undefined);
    assert.equal(byName('controllerrevisions').categories, undefined);
    assert.deepEqual([byName('daemonsets').shortNames, byName('daemonsets').categories], [['ds'], ['all']]);
    // The kinds kubectl apply --prune resolves by default.
    const resource = async (gv: string, name: string) => (await t.client.get(gv)).body.resources.find((x: any) => x.name === name);
    const rc = await resource('/api/v1', 'replicationcontrollers');
    assert.deepEqual([rc.shortNames, rc.categories], [['rc'], ['all']]);
    for (const r of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']) {
      assert.deepEqual((await resource('/apis/admissionregistration.orch.io/v1', r)).categories, ['api-extensions'], r);
    }
    assert.equal((await resource('/api/v1', 'replicationcontrollers/scale')).kind, 'Scale');
    const cj = await resource('/apis/batch/v1', 'cronjobs');
    assert.deepEqual([cj.shortNames, cj.categories], [['cj'], ['all']]);
    assert.deepEqual((await resource('/apis/batch/v1', 'jobs')).categories, ['all']);
    assert.deepEqual((await resource('/apis/networking.orch.io/v1', 'ingresses')).shortNames, ['ing']);
    assert.equal((await resource('/apis/networking.orch.io/v1', 'ingressclasses')).namespaced, false);
  });

  test('/version answers in upstream shape', async () => {
    const r = await t.client.get('/version');
    assert.equal(r.status, 200);
    assert.equal(r.body.major, '1');
    assert.match(r.body.gitVersion, /^v1\.\d+\.\d+/);
    assert.ok(r.body.platform);
  });

  test('health endpoints answer ok', async () => {
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const r = await t.client.get(p);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.text, 'ok');
    }
    const verbose = await t.client.get('/readyz?verbose');
    assert.match(verbose.text, /\[\+\]etcd ok/);
    assert.match(verbose.text, /readyz check passed/);
  });
});
