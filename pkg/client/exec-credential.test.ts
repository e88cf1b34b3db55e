import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ExecConfig } from './exec-config.js';
import { ExecCredentialProvider } from './exec-credential.js';

const v1 = 'client.authentication.orch.io/v1';
const v1beta1 = 'client.authentication.orch.io/v1beta1';

describe('exec credential plug-in', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-exec-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A real script: records its args, env, ORCH_EXEC_INFO and stdin, counts its runs, prints `status` in `version`. */
  function plugin(name: string, version: string, status: unknown): { path: string; runs(): number; record(): Record<string, string> } {
    const path = join(dir, name);
    const out = join(dir, `${name}.out`);
    const count = join(dir, `${name}.runs`);
    writeFileSync(count, '');
    writeFileSync(path, `#!/bin/sh
echo run >> '${count}'
{
  printf 'args=%s\\n' "$*"
  printf 'greeting=%s\\n' "$GREETING"
  printf 'info=%s\\n' "$ORCH_EXEC_INFO"
  printf 'stdin=%s\\n' "$(head -c 5)"
} > '${out}'
cat <<'JSON'
${JSON.stringify({ apiVersion: version, kind: 'ExecCredential', status })}
JSON
`);
    chmodSync(path, 0o755);
    return {
      path,
      runs: () => readFileSync(count, 'utf8').split('\n').filter(Boolean).length,
      record: () => Object.fromEntries(readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])),
    };
  }

  const config = (command: string, over: Partial<ExecConfig> = {}): ExecConfig => ({
    command, args: [], env: [], apiVersion: v1, installHint: '', provideClusterInfo: false, interactiveMode: 'Never', ...over,
  });

  test('v1: args, env and ORCH_EXEC_INFO with the cluster reach the script; its token comes back', async () => {
    const p = plugin('v1.sh', v1, { token: 'tok-1' });
    const provider = new ExecCredentialProvider(
      config(p.path, { args: ['--region', 'eu'], env: [{ name: 'GREETING', value: 'hello' }], provideClusterInfo: true }),
      { server: 'https://api.example:6443', certificateAuthorityData: 'PEM', config: { audience: 'orch' } },
      { stderr: 'ignore' },
    );
    assert.deepEqual(await provider.credentials(), { token: 'tok-1' });
    const r = p.record();
    assert.equal(r.args, '--region eu');
    assert.equal(r.greeting, 'hello');
    assert.deepEqual(JSON.parse(r.info!), {
      apiVersion: v1, kind: 'ExecCredential',
      spec: { interactive: false, cluster: { server: 'https://api.example:6443', 'certificate-authority-data': Buffer.from('PEM').toString('base64'), config: { audience: 'orch' } } },
    });
    assert.equal(r.stdin, '', 'interactiveMode Never: the plug-in gets no stdin');
  });

  test('without provideClusterInfo the cluster is not sent; v1beta1 defaults to IfAvailable, not interactive without a terminal', async () => {
    const p = plugin('beta.sh', v1beta1, { clientCertificateData: 'CERT', clientKeyData: 'KEY' });
    const provider = new ExecCredentialProvider(config(p.path, { apiVersion: v1beta1, interactiveMode: 'IfAvailable' }), { server: 'https://x' }, { stdinIsTerminal: false, stderr: 'ignore' });
    assert.deepEqual(await provider.credentials(), { certData: 'CERT', keyData: 'KEY' });
    assert.deepEqual(JSON.parse(p.record().info!), { apiVersion: v1beta1, kind: 'ExecCredential', spec: { interactive: false } });
  });

  test('cached until expirationTimestamp, then run again; one run for concurrent callers', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const p = plugin('expiring.sh', v1, { token: 'tok', expirationTimestamp: '2030-01-01T00:10:00Z' });
    const provider = new ExecCredentialProvider(config(p.path), undefined, { now: () => now, stderr: 'ignore' });
    const [a, b] = await Promise.all([provider.credentials(), provider.credentials()]);
    assert.equal(a, b);
    assert.equal(a.expiresAt, Date.parse('2030-01-01T00:10:00Z'));
    now += 9 * 60_000;
    await provider.credentials();
    assert.equal(p.runs(), 1);
    now += 2 * 60_000;
    await provider.credentials();
    assert.equal(p.runs(), 2, 'expired: run again');
  });

  test('without an expiry cached until a 401 with those credentials', async () => {
    const p = plugin('forever.sh', v1, { token: 'tok' });
    const provider = new ExecCredentialProvider(config(p.path), undefined, { stderr: 'ignore' });
    const first = await provider.credentials();
    await provider.credentials();
    assert.equal(p.runs(), 1);
    provider.unauthorized({ token: 'some other credential' });
    await provider.credentials();
    assert.equal(p.runs(), 1, 'a 401 of other credentials changes nothing');
    provider.unauthorized(first);
    await provider.credentials();
    assert.equal(p.runs(), 2);
  });

  test('a missing command fails with the install hint', async () => {
    const provider = new ExecCredentialProvider(config(join(dir, 'no-such-plugin'), { installHint: 'Install it with: apt install orch-login' }), undefined);
    await assert.rejects(provider.credentials(), { message: `exec: executable ${join(dir, 'no-such-plugin')} not found\n\nInstall it with: apt install orch-login` });
  });

  test('interactiveMode Always without a terminal is refused without running the plug-in', async () => {
    const p = plugin('always.sh', v1, { token: 't' });
    const provider = new ExecCredentialProvider(config(p.path, { interactiveMode: 'Always' }), undefined, { stdinIsTerminal: false });
    await assert.rejects(provider.credentials(), /standard input is not a terminal/);
    assert.equal(p.runs(), 0);
  });

  test('what the plug-in prints is checked as client-go checks it', async () => {
    const cases: [string, unknown, string, RegExp][] = [
      ['wrong-version.sh', { token: 't' }, v1beta1, /configured to use API version client.authentication.orch.io\/v1, plugin returned version client.authentication.orch.io\/v1beta1/],
      ['no-status.sh', null, v1, /didn't return a status field/],
      ['empty.sh', {}, v1, /didn't return a token or cert\/key pair/],
      ['cert-only.sh', { clientCertificateData: 'C' }, v1, /only certificate or key, not both/],
      ['bad-expiry.sh', { token: 't', expirationTimestamp: 'soon' }, v1, /invalid expirationTimestamp/],
    ];
    for (const [name, status, version, message] of cases) {
      const p = plugin(name, version, status);
      await assert.rejects(new ExecCredentialProvider(config(p.path), undefined, { stderr: 'ignore' }).credentials(), message, name);
    }
    const failing = join(dir, 'fails.sh');
    writeFileSync(failing, '#!/bin/sh\nexit 3\n');
    chmodSync(failing, 0o755);
    await assert.rejects(new ExecCredentialProvider(config(failing), undefined).credentials(), { message: `exec: executable ${failing} failed with exit code 3` });
  });
});
