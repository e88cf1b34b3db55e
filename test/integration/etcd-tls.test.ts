// etcd's client TLS (--etcd-cafile, --etcd-certfile, --etcd-keyfile) against an etcd that serves
// HTTPS and requires client certificates, as a production member does: with the certificate the
// server stores and serves through it; without one it never becomes ready and says why; a broken
// pair of flags is refused before anything starts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { noop } from 'cockatiel';
import { Etcd3 } from 'etcd3';
import { runAPIServer } from '../../cmd/apiserver/app/server.js';
import { Logger } from '../../pkg/log/logger.js';
import { testOptions } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { Client } from './framework/client.js';
import { startEtcd, type TestEtcd } from './framework/etcd.js';
import { run, startBackground } from './framework/process.js';
import { apiserverCommand } from './framework/binary-server.js';

describe('etcd client TLS', () => {
  let etcd: TestEtcd;
  let certDir: string;
  before(async () => {
    etcd = await startEtcd({ clientTLS: true });
    certDir = mkdtempSync(join(tmpdir(), 'orch-etcd-tls-'));
  });
  after(async () => {
    await etcd?.stop();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  /** An etcd client of its own, with the CA and, when `withCert`, the client certificate. */
  const etcdClient = (withCert: boolean) => new Etcd3({
    hosts: [etcd.endpoint],
    credentials: { rootCertificate: readFileSync(etcd.tls!.caFile), ...(withCert ? { certChain: readFileSync(etcd.tls!.certFile), privateKey: readFileSync(etcd.tls!.keyFile) } : {}) },
    faultHandling: { global: noop, host: () => noop },
  });

  test('etcd refuses a client without a certificate (what the server must present)', async () => {
    assert.match(etcd.endpoint, /^https:\/\//);
    const without = etcdClient(false);
    try {
      await assert.rejects(without.get('x').string(), /certificate|handshake|Connection dropped|UNAVAILABLE/i);
    } finally {
      without.close();
    }
  });

  test('with --etcd-cafile, --etcd-certfile and --etcd-keyfile the server stores its objects in that etcd', async () => {
    const lines: string[] = [];
    const server = await runAPIServer(testOptions(etcd, certDir), new Logger(0, (l) => void lines.push(l)));
    try {
      const client = new Client(`https://127.0.0.1:${server.port}`, server.cert.cert);
      const created = await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'over-tls' }, data: { a: 'b' } });
      assert.equal(created.status, 201, created.text);
      assert.equal((await client.get('/readyz')).status, 200);
      const direct = etcdClient(true);
      try {
        const stored = await direct.get('/registry/core/configmaps/default/over-tls').json() as { data?: Record<string, string> } | null;
        assert.equal(stored?.data?.a, 'b');
      } finally {
        direct.close();
      }
    } finally {
      await server.stop();
    }
  });

  test('without a client certificate the server never becomes ready and its log says etcd refused it', async (t) => {
    const { cmd, args } = apiserverCommand();
    const p = startBackground(cmd, [...args, '--workers', '1', '--secure-port', '0', '--bind-address', '127.0.0.1', '--cert-dir', certDir,
      '--etcd-servers', etcd.endpoint, '--etcd-cafile', etcd.tls!.caFile], { maxLifetimeMs: 60_000 });
    try {
      const log = await pollUntil(async () => p.stderr() + p.stdout(), (l) => /lost the connection to etcd/.test(l), 'the server says it cannot reach etcd', 30_000);
      const said = log.slice(log.indexOf('lost the connection to etcd'));
      t.diagnostic(said.split('\n').slice(0, 3).join(' | '));
      assert.match(said, /certificate|handshake|tls|ssl/i, said);
      assert.doesNotMatch(log, /the API server is ready/);
    } finally {
      await p.stop();
    }
  });

  test('--etcd-certfile without --etcd-keyfile is refused at start', async () => {
    const { cmd, args } = apiserverCommand();
    const r = await run(cmd, [...args, '--etcd-servers', etcd.endpoint, '--etcd-certfile', etcd.tls!.certFile], { timeoutMs: 30_000 });
    assert.notEqual(r.code, 0, r.describe());
    assert.match(r.stderr, /--etcd-certfile and --etcd-keyfile must be given together/, r.describe());
  });
});
