// --runtime-config: disabled groups, versions and resources vanish from discovery and OpenAPI
// and answer 404; an unknown key stops the server before it starts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from './framework/apiserver.js';

const bin = join(resolve(fileURLToPath(import.meta.url), '../../../../..'), '_output/bin/apiserver');

describe('--runtime-config', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ runtimeConfig: 'apps/v1=false,policy/v1/poddisruptionbudgets=false,storage.orch.io/v1,admissionregistration.orch.io/v1=false' });
  });
  after(async () => t?.stop());

  test('a disabled group/version is absent from discovery and answers 404', async () => {
    const groups = await t.client.get('/apis');
    const names = groups.body.groups.map((g: any) => g.name);
    assert.ok(!names.includes('apps'), names.join(','));
    assert.ok(names.includes('storage.orch.io'));
    assert.equal((await t.client.get('/apis/apps')).status, 404);
    assert.equal((await t.client.get('/apis/apps/v1')).status, 404);
    const sts = await t.client.get('/apis/apps/v1/namespaces/default/statefulsets');
    assert.equal(sts.status, 404);
    assert.equal(sts.body.kind, 'Status');
  });

  test('a disabled resource is absent from its group/version and answers 404; the group is kept if anything is left', async () => {
    const groups = await t.client.get('/apis');
    const policy = groups.body.groups.find((g: any) => g.name === 'policy');
    assert.equal(policy, undefined, 'policy/v1 has no other resource, so the group is gone');
    assert.equal((await t.client.get('/apis/policy/v1/namespaces/default/poddisruptionbudgets')).status, 404);
    assert.equal((await t.client.get('/api/v1/namespaces/default/configmaps')).status, 200, 'the rest is served');
  });

  test('webhook configurations are not served with admissionregistration/v1 off (spec 9.4)', async () => {
    const names = (await t.client.get('/apis')).body.groups.map((g: any) => g.name);
    assert.ok(!names.includes('admissionregistration.orch.io'), names.join(','));
    for (const r of ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations']) {
      const got = await t.client.get(`/apis/admissionregistration.orch.io/v1/${r}`);
      assert.equal(got.status, 404, r);
      assert.equal(got.body.kind, 'Status');
    }
    const created = await t.client.post('/apis/admissionregistration.orch.io/v1/validatingwebhookconfigurations', {
      apiVersion: 'admissionregistration.orch.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'off' },
    });
    assert.equal(created.status, 404);
    const index = await t.client.get('/openapi/v3');
    assert.equal(index.body.paths['apis/admissionregistration.orch.io/v1'], undefined);
  });

  test('an unknown key or value stops the server at start with a clear message', () => {
    for (const [cfg, message] of [['extensions/v1beta1=false', /unknown api groups or resources in --runtime-config: extensions\/v1beta1/], ['apps/v1=maybe', /must be true or false/], ['apps/v1/widgets', /apps\/v1\/widgets/]] as const) {
      const r = spawnSync(bin, ['--etcd-servers', 'http://127.0.0.1:1', '--runtime-config', cfg], { encoding: 'utf8' });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, message);
    }
  });
});
