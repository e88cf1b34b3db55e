// The example exec credential plug-in of `make run` (hack/exec-credential-plugin.sh) through the
// real kubectl: a kubeconfig whose user runs the script on a static token file, as
// hack/local-up.sh writes it, authenticates as that token's user against a server started with the
// same --token-auth-file and anonymous requests off; a token file with another token is refused,
// and a plug-in that fails says so through kubectl.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { authenticationAPI } from './framework/authentication.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

const repo = resolve(fileURLToPath(import.meta.url), '../../../../..');
const plugin = join(repo, 'hack/exec-credential-plugin.sh');

describe('kubectl with the exec credential plug-in of make run', () => {
  const files = tempFiles('orch-exec-plugin-');
  let t: TestServer;
  let kc: Kubeconfig;
  let tokenFile: string;

  before(async () => {
    // tokens.csv as hack/local-pki.ts writes it: the admin's token first.
    tokenFile = files.write('tokens.csv', 'Zx9-local_admin.token,orch-admin,orch-admin,"system:masters"\nother-token,someone,2,""\n');
    t = await startTestServer({ authentication: { ...defaultAuthenticationOptions(), anonymousAuth: false, tokenAuthFile: tokenFile } });
    kc = writeKubeconfig(t);
  });
  after(async () => {
    kc?.remove();
    await t?.stop();
    files.remove();
  });

  /** A kubeconfig like local-up.sh's admin-exec.kubeconfig, running the plug-in on `file`. */
  function execKubeconfig(name: string, file: string): Kubectl {
    const path = join(kc.dir, name);
    writeFileSync(path, stringify({
      apiVersion: 'v1', kind: 'Config',
      clusters: [{ name: 'local', cluster: { server: kc.server, 'certificate-authority-data': Buffer.from(t.server.cert.cert).toString('base64') } }],
      users: [{ name: 'admin-exec', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, args: [file], interactiveMode: 'Never' } } }],
      contexts: [{ name: 'local', context: { cluster: 'local', user: 'admin-exec', namespace: 'default' } }],
      'current-context': 'local',
    }), { mode: 0o600 });
    return new Kubectl({ ...kc, path });
  }

  test('the plug-in\'s token authenticates kubectl as the token file\'s first user', async () => {
    const kubectl = execKubeconfig('exec.kubeconfig', tokenFile);
    const ns = await kubectl.ok(['get', 'namespaces', '-o', 'name']);
    assert.match(ns.stdout, /^namespace\/default$/m);
    const api = authenticationAPI(t);
    const review = files.write('review.json', JSON.stringify({ apiVersion: api, kind: 'SelfSubjectReview' }));
    const r = await kubectl.ok(['create', '--raw', `/apis/${api}/selfsubjectreviews`, '-f', review]);
    const user = JSON.parse(r.stdout).status.userInfo as { username: string; groups: string[] };
    assert.equal(user.username, 'orch-admin');
    assert.ok(user.groups.includes('system:masters'), r.stdout);
  });

  test('another token is refused; a failing plug-in is reported by kubectl', async () => {
    const wrong = execKubeconfig('wrong.kubeconfig', files.write('wrong.csv', 'not-a-known-token,orch-admin,orch-admin,""\n'));
    const refused = await wrong.run(['get', 'namespaces']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Unauthorized|must be logged in/i, refused.describe());
    const broken = execKubeconfig('broken.kubeconfig', join(kc.dir, 'no-such-file.csv'));
    const failed = await broken.run(['get', 'namespaces']);
    assert.notEqual(failed.code, 0);
    assert.match(failed.stderr, /exec/i, failed.describe());
    assert.doesNotMatch(failed.stderr + refused.stderr, /Zx9-local_admin\.token/, 'the real token is never printed');
  });
});
