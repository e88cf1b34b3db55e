import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestCA, type KeyPairPem, type TestCA } from '../../authentication/testing/pki.js';
import { loadWebhookKubeconfig, parseWebhookKubeconfig } from './kubeconfig.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('webhook kubeconfig', () => {
  let dir: string;
  let ca: TestCA;
  let client: KeyPairPem;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-kubeconfig-'));
    ca = createTestCA('kubeconfig-ca');
    client = ca.issue({ commonName: 'apiserver' });
    writeFileSync(join(dir, 'ca.crt'), ca.cert);
    writeFileSync(join(dir, 'client.crt'), client.cert);
    writeFileSync(join(dir, 'client.key'), client.key);
    writeFileSync(join(dir, 'token'), 'from-file\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const doc = (cluster: string, user: string) => `
apiVersion: v1
kind: Config
clusters:
- name: other
  cluster:
    server: https://wrong.example
- name: hook
  cluster:
${cluster}
users:
- name: nobody
  user: {}
- name: apiserver
  user:
${user}
contexts:
- name: webhook
  context:
    cluster: hook
    user: apiserver
current-context: webhook
`;

  test('the current context selects cluster and user; relative files resolve against the kubeconfig directory', () => {
    const file = join(dir, 'files.yaml');
    writeFileSync(file, doc('    server: https://hook.example:8443/authn\n    certificate-authority: ca.crt', '    client-certificate: client.crt\n    client-key: client.key'));
    const cfg = loadWebhookKubeconfig(file);
    assert.equal(cfg.server, 'https://hook.example:8443/authn');
    assert.equal(cfg.ca, ca.cert);
    assert.equal(cfg.cert, client.cert);
    assert.equal(cfg.key, client.key);
    assert.equal(cfg.insecureSkipTLSVerify, false);
    assert.equal(cfg.bearerToken, undefined);
  });

  test('inline data, tokens, token files (read again after a minute), insecure and server name', () => {
    const inline = parseWebhookKubeconfig(
      doc(`    server: https://hook.example\n    certificate-authority-data: ${b64(ca.cert)}\n    tls-server-name: hook.internal`, `    client-certificate-data: ${b64(client.cert)}\n    client-key-data: ${b64(client.key)}`),
      dir,
    );
    assert.equal(inline.ca, ca.cert);
    assert.equal(inline.cert, client.cert);
    assert.equal(inline.serverName, 'hook.internal');
    assert.equal(parseWebhookKubeconfig(doc('    server: https://hook.example', '    token: abc'), dir).bearerToken?.(), 'abc');
    let clock = 0;
    const viaFile = parseWebhookKubeconfig(doc('    server: https://hook.example\n    insecure-skip-tls-verify: true', '    tokenFile: token'), dir, () => clock);
    assert.equal(viaFile.insecureSkipTLSVerify, true);
    assert.equal(viaFile.bearerToken?.(), 'from-file');
    writeFileSync(join(dir, 'token'), 'rotated');
    clock = 59_000;
    assert.equal(viaFile.bearerToken?.(), 'from-file');
    clock = 61_000;
    assert.equal(viaFile.bearerToken?.(), 'rotated');
    assert.deepEqual(parseWebhookKubeconfig(doc('    server: https://hook.example', '    username: u\n    password: p'), dir).basicAuth, { username: 'u', password: 'p' });
  });

  test('what client-go refuses is refused at start-up, without echoing credentials', () => {
    const refuse = (text: string, pattern: RegExp) => {
      assert.throws(
        () => parseWebhookKubeconfig(text, dir),
        (e: Error) => {
          assert.match(e.message, pattern);
          assert.ok(!e.message.includes('s3cret'), e.message);
          return true;
        },
      );
    };
    refuse('', /invalid configuration: no configuration has been provided/);
    refuse(doc('    server: https://hook.example', '    token: s3cret').replace('current-context: webhook', ''), /no configuration has been provided/);
    refuse(doc('    server: https://hook.example', '    token: s3cret').replace('current-context: webhook', 'current-context: missing'), /context was not found for specified context: missing/);
    refuse(doc('    insecure-skip-tls-verify: false', '    token: s3cret'), /no server found for cluster "hook"/);
    refuse(doc('    server: https://hook.example', '    token: s3cret\n    username: u'), /more than one authentication method found for apiserver; found \[token basicAuth\]/);
    refuse(doc('    server: https://hook.example', '    client-certificate: client.crt'), /client-key-data or client-key must be specified for apiserver/);
    refuse(doc('    server: https://hook.example\n    certificate-authority: missing.crt', '    token: s3cret'), /unable to read certificate-authority missing.crt/);
    refuse(doc(`    server: https://hook.example\n    certificate-authority: ca.crt\n    certificate-authority-data: ${b64(ca.cert)}`, '    token: s3cret'), /certificate-authority-data and certificate-authority are both specified/);
    refuse(doc('    server: https://hook.example\n    certificate-authority: ca.crt\n    insecure-skip-tls-verify: true', '    token: s3cret'), /root certificates file with the insecure flag is not allowed/);
    refuse(doc('    server: https://hook.example', `    client-certificate-data: ${b64(client.cert)}\n    client-key-data: ${b64(ca.key)}`), /invalid client certificate or key for apiserver/);
    refuse('users: [{name: a}, {name: a}]', /duplicate name "a" in users/);
    refuse('clusters: [s3cret: {', /error parsing the webhook kubeconfig/);
  });
});
