// The built binary as an operator runs it: flags, --help, a generated certificate, SIGTERM.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from './framework/client.js';
import { freePort, startEtcd, type TestEtcd } from './framework/etcd.js';

const repo = resolve(fileURLToPath(import.meta.url), '../../../../..');
const bin = join(repo, '_output/bin/apiserver');

describe('the apiserver binary', () => {
  let etcd: TestEtcd;
  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => etcd?.stop());

  test('--help lists the flags', () => {
    const r = spawnSync(bin, ['--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    for (const flag of ['--secure-port', '--bind-address', '--tls-cert-file', '--tls-private-key-file', '--cert-dir', '--etcd-servers', '--etcd-prefix', '--api-domain']) {
      assert.ok(r.stdout.includes(flag), `${flag} in --help`);
    }
  });

  test('bad flags stop it with a clear message', () => {
    const unknown = spawnSync(bin, ['--no-such-flag'], { encoding: 'utf8' });
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /Unknown argument: no-such-flag/);
    const noEtcd = spawnSync(bin, [], { encoding: 'utf8' });
    assert.equal(noEtcd.status, 1);
    assert.match(noEtcd.stderr, /--etcd-servers must be specified/);
    const badDomain = spawnSync(bin, ['--etcd-servers', etcd.endpoint, '--api-domain', 'Not A Domain'], { encoding: 'utf8' });
    assert.equal(badDomain.status, 1);
    assert.match(badDomain.stderr, /--api-domain: "Not A Domain" must be a lower-case DNS subdomain/);
    const upstreamGroup = spawnSync(bin, ['--etcd-servers', etcd.endpoint, '--runtime-config', 'rbac.authorization.k8s.io/v1=false'], { encoding: 'utf8' });
    assert.equal(upstreamGroup.status, 1, 'runtime-config keys are named in the configured domain');
    assert.match(upstreamGroup.stderr, /--runtime-config/);
  });

  test('bad admission flags stop it with kube-apiserver\'s messages', () => {
    const run = (...args: string[]) => spawnSync(bin, ['--etcd-servers', etcd.endpoint, ...args], { encoding: 'utf8' });
    const unknown = run('--enable-admission-plugins', 'Priority,NoSuchPlugin');
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /enable-admission-plugins plugin "NoSuchPlugin" is unknown/);
    // Known names the server has no code for: refused, never accepted and ignored.
    const unrunnable = run('--enable-admission-plugins', 'Priority,ClusterTrustBundleAttest,PersistentVolumeLabel');
    assert.equal(unrunnable.status, 1);
    assert.match(unrunnable.stderr, /^Error: enable-admission-plugins plugin "PersistentVolumeLabel" is not implemented by this server\nError: enable-admission-plugins plugin "ClusterTrustBundleAttest" is not implemented by this server\n\nRun 'apiserver --help' for usage/m);
    const unrunnableControl = run('--admission-control', 'ClusterTrustBundleAttest');
    assert.equal(unrunnableControl.status, 1);
    assert.match(unrunnableControl.stderr, /admission-control plugin "ClusterTrustBundleAttest" is not implemented by this server/);
    const overlap = run('--enable-admission-plugins', 'AlwaysPullImages,Priority', '--disable-admission-plugins', 'Priority');
    assert.equal(overlap.status, 1);
    assert.match(overlap.stderr, /\[Priority\] in enable-admission-plugins and disable-admission-plugins overlapped/);
    const exclusive = run('--admission-control', 'Priority', '--disable-admission-plugins', 'Priority');
    assert.equal(exclusive.status, 1);
    assert.match(exclusive.stderr, /admission-control and enable-admission-plugins\/disable-admission-plugins flags are mutually exclusive/);
    const missingFile = run('--admission-control-config-file', '/nonexistent/admission.yaml');
    assert.equal(missingFile.status, 1);
    assert.match(missingFile.stderr, /unable to read admission control configuration from "\/nonexistent\/admission.yaml"/);
    const help = spawnSync(bin, ['--help'], { encoding: 'utf8' });
    for (const flag of ['--enable-admission-plugins', '--disable-admission-plugins', '--admission-control-config-file']) assert.ok(help.stdout.includes(flag), flag);
  });

  test('serves HTTPS with a generated certificate, is ready as one server, and stops on SIGTERM', async () => {
    const certDir = mkdtempSync(join(tmpdir(), 'orch-bin-'));
    const port = await freePort();
    const proc = spawn(bin, ['--bind-address', '127.0.0.1', '--secure-port', String(port), '--cert-dir', certDir, '--etcd-servers', etcd.endpoint, '--etcd-prefix', '/binary-test',
      '--workers', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    proc.stderr.on('data', (d: Buffer) => (log += d.toString()));
    try {
      const deadline = Date.now() + 60_000;
      while (!log.includes('serving securely') && Date.now() < deadline && proc.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      assert.match(log, /serving securely/, log);
      assert.ok(existsSync(join(certDir, 'apiserver.crt')) && existsSync(join(certDir, 'apiserver.key')));
      const client = new Client(`https://127.0.0.1:${port}`, readFileSync(join(certDir, 'apiserver.crt'), 'utf8'));
      const ns = await client.get('/api/v1/namespaces/default');
      assert.equal(ns.status, 200, ns.text);
      const localhost = new Client(`https://localhost:${port}`, readFileSync(join(certDir, 'apiserver.crt'), 'utf8'));
      // Any answer proves the TLS handshake. readyz is the server's answer, whichever thread gives
      // it: 200 once every thread's post-start hooks are done, and from then on from both threads
      // (each request is a connection of its own, which the kernel hands to either thread).
      let ready = await localhost.get('/readyz?verbose');
      while (ready.status !== 200 && Date.now() < deadline) {
        assert.equal(ready.status, 500, ready.text);
        ready = await new Promise((r) => setTimeout(r, 20)).then(() => localhost.get('/readyz?verbose'));
      }
      assert.equal(ready.status, 200, 'the certificate covers localhost too');
      const after = await Promise.all(Array.from({ length: 24 }, () => localhost.get('/readyz?verbose')));
      for (const r of after) assert.equal(r.status, 200, `thread ${String(r.headers['x-orch-worker'])} after thread ${String(ready.headers['x-orch-worker'])} said ready:\n${r.text}`);
      assert.equal(new Set(after.map((r) => r.headers['x-orch-worker'])).size, 2, 'both threads answered');
      // The binary runs on the Node the project pins (make brings it in when the machine's is older).
      const version = await localhost.get('/version');
      assert.equal(version.body.goVersion, `node${readFileSync(join(repo, '.node-version'), 'utf8').trim()}`);
      const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
      proc.kill('SIGTERM');
      assert.equal(await exited, 0, log);
      assert.match(log, /shutting down/);
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      rmSync(certDir, { recursive: true, force: true });
    }
  });

  test('on SIGTERM readyz fails first, requests are served through the delay, watches close and in-flight requests drain', async () => {
    const certDir = mkdtempSync(join(tmpdir(), 'orch-bin-'));
    const port = await freePort();
    const proc = spawn(bin, ['--bind-address', '127.0.0.1', '--secure-port', String(port), '--cert-dir', certDir, '--etcd-servers', etcd.endpoint,
      '--etcd-prefix', '/shutdown-test', '--shutdown-delay-duration', '1500ms', '--livez-grace-period', '10s'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    proc.stderr.on('data', (d: Buffer) => (log += d.toString()));
    try {
      const deadline = Date.now() + 60_000;
      while (!log.includes('serving securely') && Date.now() < deadline && proc.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      const client = new Client(`https://127.0.0.1:${port}`, readFileSync(join(certDir, 'apiserver.crt'), 'utf8'));
      while ((await client.get('/readyz')).status !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const watch = await client.watch('/api/v1/namespaces?watch=true');
      const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
      const signalled = Date.now();
      proc.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      const ready = await client.get('/readyz?verbose');
      assert.equal(ready.status, 500, 'readyz fails at once');
      assert.match(ready.text, /\[-\]shutdown failed/);
      assert.equal((await client.get('/livez')).status, 200, 'livez still passes');
      assert.equal((await client.get('/api/v1/namespaces/default')).status, 200, 'requests are still served during the delay');
      // A request that is still running when the listener closes (it waits ~3 s for a revision that never comes).
      const inflight = client.get('/api/v1/namespaces/default?resourceVersion=999999999');
      const events = [];
      for (let e = await watch.next(5000); e; e = await watch.next(5000)) events.push(e.type);
      const watchEnded = Date.now() - signalled;
      assert.ok(watch.ended(), 'the watch was closed by the server');
      assert.ok(watchEnded >= 1400, `the watch stayed open through the delay (${watchEnded} ms)`);
      const r = await inflight;
      assert.equal(r.status, 504, 'the in-flight request finished rather than being cut');
      assert.match(r.body.message, /Too large resource version/);
      await assert.rejects(client.get('/readyz'), 'new connections are refused once the listener closes');
      assert.equal(await exited, 0, log);
      assert.match(log, /readyz now fails/);
      assert.match(log, /stopped accepting connections/);
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      rmSync(certDir, { recursive: true, force: true });
    }
  });
});
