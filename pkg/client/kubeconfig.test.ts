import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { defaultKubeconfigPath, loadKubeconfig } from './kubeconfig.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('kubeconfig loading', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-kubeconfig-'));
    writeFileSync(join(dir, 'ca.crt'), 'CA FROM FILE');
    writeFileSync(join(dir, 'token'), 'token-from-file\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const write = (doc: Record<string, unknown>, name = 'config') => {
    const path = join(dir, name);
    writeFileSync(path, stringify({ apiVersion: 'v1', kind: 'Config', ...doc }));
    return path;
  };

  const base = {
    clusters: [
      { name: 'prod', cluster: { server: 'https://prod.example:6443', 'certificate-authority': 'ca.crt' } },
      {
        name: 'dev', cluster: {
          server: 'https://dev.example', 'certificate-authority-data': b64('CA FROM DATA'), 'tls-server-name': 'api.dev',
          extensions: [{ name: 'client.authentication.orch.io/exec', extension: { audience: 'dev' } }],
        },
      },
    ],
    users: [
      { name: 'token-user', user: { token: 'abc' } },
      { name: 'file-user', user: { tokenFile: 'token' } },
      { name: 'exec-user', user: { exec: { apiVersion: 'client.authentication.orch.io/v1', command: './bin/login', args: ['get-token'], env: [{ name: 'A', value: 'b' }], interactiveMode: 'Never', provideClusterInfo: true, installHint: 'get it' } } },
      { name: 'path-user', user: { exec: { apiVersion: 'client.authentication.orch.io/v1beta1', command: 'orch-login' } } },
    ],
    contexts: [
      { name: 'prod', context: { cluster: 'prod', user: 'token-user', namespace: 'shop' } },
      { name: 'dev', context: { cluster: 'dev', user: 'exec-user' } },
      { name: 'dev-file', context: { cluster: 'dev', user: 'file-user' } },
      { name: 'dev-path', context: { cluster: 'dev', user: 'path-user' } },
    ],
    'current-context': 'prod',
  };

  test('the current context picks cluster, user and namespace; files are relative to the kubeconfig', () => {
    const k = loadKubeconfig(write(base));
    assert.equal(k.contextName, 'prod');
    assert.equal(k.namespace, 'shop');
    assert.deepEqual(k.config, { server: 'https://prod.example:6443', caData: 'CA FROM FILE', bearerToken: 'abc' });
  });

  test('overrides: another context, cluster, user or namespace; a context without namespace means default', () => {
    const path = write(base);
    const dev = loadKubeconfig(path, { context: 'dev-file' });
    assert.equal(dev.namespace, 'default');
    assert.equal(dev.config.caData, 'CA FROM DATA', 'data fields are base64');
    assert.equal(dev.config.tlsServerName, 'api.dev');
    assert.equal(dev.config.bearerTokenFile, join(dir, 'token'), 'a token file resolved against the kubeconfig');
    const mixed = loadKubeconfig(path, { cluster: 'dev', user: 'token-user', namespace: 'other' });
    assert.equal(mixed.config.server, 'https://dev.example');
    assert.equal(mixed.config.bearerToken, 'abc');
    assert.equal(mixed.namespace, 'other');
  });

  test('exec: a relative command is resolved, a bare one left for PATH; the cluster and its exec extension are kept for provideClusterInfo', () => {
    const path = write(base);
    const k = loadKubeconfig(path, { context: 'dev' });
    assert.deepEqual(k.config.exec, {
      command: join(dir, 'bin/login'), args: ['get-token'], env: [{ name: 'A', value: 'b' }],
      apiVersion: 'client.authentication.orch.io/v1', installHint: 'get it', provideClusterInfo: true, interactiveMode: 'Never',
    });
    assert.deepEqual(k.config.execCluster, { server: 'https://dev.example', tlsServerName: 'api.dev', certificateAuthorityData: 'CA FROM DATA', config: { audience: 'dev' } });
    const bare = loadKubeconfig(path, { context: 'dev-path' });
    assert.equal(bare.config.exec?.command, 'orch-login');
    assert.equal(bare.config.exec?.interactiveMode, 'IfAvailable', 'v1beta1 defaults interactiveMode');
  });

  test('what clientcmd refuses is refused, all problems at once', () => {
    assert.throws(() => loadKubeconfig(write(base), { context: 'nope' }), /context was not found for specified context: nope/);
    const bad = write({
      clusters: [{ name: 'c', cluster: { server: 'https://c', 'certificate-authority': 'ca.crt', 'certificate-authority-data': b64('x') } }],
      users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.orch.io/v1', command: 'x' } } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'c',
    }, 'bad');
    assert.throws(() => loadKubeconfig(bad), (e: Error) => {
      assert.match(e.message, /certificate-authority-data and certificate-authority are both specified for c/);
      assert.match(e.message, /interactiveMode must be specified for u to use exec authentication plugin/);
      return true;
    });
    const wrongVersion = write({
      clusters: [{ name: 'c', cluster: { server: 'https://c' } }],
      users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'x', interactiveMode: 'Never' } } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'c',
    }, 'wrong-version');
    assert.throws(() => loadKubeconfig(wrongVersion), /exec plugin: invalid apiVersion "client.authentication.k8s.io\/v1"/);
    assert.doesNotThrow(() => loadKubeconfig(wrongVersion, { domain: 'k8s.io' }), 'the group follows the platform domain');
    const noServer = write({ clusters: [{ name: 'c', cluster: {} }], contexts: [{ name: 'c', context: { cluster: 'c' } }], 'current-context': 'c' }, 'no-server');
    assert.throws(() => loadKubeconfig(noServer), /no server found for cluster "c"/);
    assert.throws(() => loadKubeconfig(write({ clusters: base.clusters }, 'no-context')), /no context chosen/);
  });

  test('the default file: the first of $KUBECONFIG, else ~/.kube/config', () => {
    assert.equal(defaultKubeconfigPath({ KUBECONFIG: `/a/config:/b/config` }), '/a/config');
    assert.match(defaultKubeconfigPath({}), /\.kube\/config$/);
  });
});
