// The API server as `--workers 2`: two processes share the port, each with its own caches, and the
// server still behaves as one, anchored in etcd: watches see writes made through the other worker,
// paging and optimistic concurrency hold across connections, health and metrics speak for both
// workers, a killed worker is restarted, SIGTERM stops them all, and kubectl works against it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:https';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startBinaryServer, type BinaryServer } from './framework/binary-server.js';
import type { Client, Response } from './framework/client.js';
import { startEtcd } from './framework/etcd.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

const workerOf = (r: { headers: Record<string, unknown> }) => String(r.headers['x-orch-worker'] ?? '');

/**
 * Polls `probe` until it returns true, failing with `what` at the deadline. A probe that gets no
 * answer within 1 s counts as false: a connection handed to a worker at the moment it is killed is
 * lost with it, as with any process that dies.
 */
async function eventually(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([probe().catch(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 1000)))]);
    clearTimeout(timer);
    if (answered) return;
    if (Date.now() > deadline) assert.fail(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sends requests (one new connection each) until one is served by a worker other than `not`. */
async function throughOtherWorker(not: string, send: () => Promise<Response>): Promise<Response> {
  for (let i = 0; i < 50; i++) {
    const r = await send();
    if (workerOf(r) !== not) return r;
  }
  assert.fail(`every request was served by worker ${not}`);
}

describe('the API server with --workers 2', () => {
  let s: BinaryServer;
  let client: Client;
  before(async () => {
    s = await startBinaryServer({ workers: 2 });
    client = s.client;
  });
  after(async () => s?.stop());

  test('keep-alive connections land on both workers, which serve one certificate', async () => {
    // The agent trusts only the certificate in --cert-dir: a worker serving another one would fail the handshake.
    const agent = new Agent({ keepAlive: true, maxSockets: 8, ca: s.server.cert.cert });
    try {
      const get = () => new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: s.server.port, path: '/api/v1/namespaces/default', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(`${res.statusCode} ${String(res.headers['x-orch-worker'])}`));
        });
        req.on('error', reject);
        req.end();
      });
      const answers = await Promise.all(Array.from({ length: 64 }, get));
      assert.deepEqual(new Set(answers), new Set(['200 1', '200 2']), `answers by worker: ${answers.join(', ')}`);
    } finally {
      agent.destroy();
    }
  });

  test('a watch served by one worker sees the writes made through the other, in order and without gaps', async () => {
    const ns = 'workers-watch';
    assert.equal((await client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    const list = await client.get(`/api/v1/namespaces/${ns}/configmaps`);
    const watch = await client.watch(`/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
    try {
      const watchedBy = workerOf(watch);
      assert.ok(watchedBy, 'the watch answer names its worker');
      const created: { name: string; rv: string; by: string }[] = [];
      for (let i = 0; created.filter((c) => c.by !== watchedBy).length < 3; i++) {
        assert.ok(i < 100, 'writes reached the other worker');
        const r = await client.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}` }, data: { i: String(i) } });
        assert.equal(r.status, 201, r.text);
        created.push({ name: r.body.metadata.name, rv: r.body.metadata.resourceVersion, by: workerOf(r) });
      }
      const events = await watch.take(created.length, 15_000);
      assert.deepEqual(events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion]), created.map((c) => ['ADDED', c.name, c.rv]));
    } finally {
      watch.close();
    }
  });

  test('paging reads one snapshot whichever worker serves each page', async () => {
    const ns = 'workers-paging';
    assert.equal((await client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    for (let i = 0; i < 25; i++) assert.equal((await client.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${String(i).padStart(2, '0')}` } })).status, 201);
    const names: string[] = [];
    const servedBy = new Set<string>();
    let rv = '';
    let next = '';
    let pages = 0;
    do {
      const r = await client.get(`/api/v1/namespaces/${ns}/configmaps?limit=5${next ? `&continue=${encodeURIComponent(next)}` : ''}`);
      assert.equal(r.status, 200, r.text);
      servedBy.add(workerOf(r));
      rv ||= r.body.metadata.resourceVersion;
      assert.equal(r.body.metadata.resourceVersion, rv, 'every page is read at the first page\'s revision');
      names.push(...r.body.items.map((o: { metadata: { name: string } }) => o.metadata.name));
      next = r.body.metadata.continue ?? '';
      // A write between pages is not in the snapshot.
      if (pages++ === 0) assert.equal((await client.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'cm-late' } })).status, 201);
    } while (next);
    assert.deepEqual(names, Array.from({ length: 25 }, (_, i) => `cm-${String(i).padStart(2, '0')}`));
    assert.ok(servedBy.size === 2, `pages were served by workers ${[...servedBy].join(',')}`);
  });

  test('an update with a stale resourceVersion is a conflict whichever worker serves it', async () => {
    const path = '/api/v1/namespaces/default/configmaps/workers-occ';
    const created = await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'workers-occ' }, data: { v: '0' } });
    assert.equal(created.status, 201, created.text);
    const stale = created.body.metadata.resourceVersion;
    const first = await client.put(path, { metadata: { name: 'workers-occ', resourceVersion: stale }, data: { v: '1' } });
    assert.equal(first.status, 200, first.text);
    const second = await throughOtherWorker(workerOf(first), () => client.put(path, { metadata: { name: 'workers-occ', resourceVersion: stale }, data: { v: '2' } }));
    assert.equal(second.status, 409, second.text);
    assert.equal(second.body.reason, 'Conflict');
    assert.equal((await client.get(path)).body.data.v, '1');
  });

  test('/metrics from either worker sums both workers\' counts', async () => {
    const servedBy = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await client.get(`/api/v1/namespaces/default/podtemplates/none-${i}`);
      assert.equal(r.status, 404);
      servedBy.add(workerOf(r));
    }
    assert.equal(servedBy.size, 2, 'both workers served some of the requests');
    const listed = (await client.get('/api/v1/namespaces')).body.items.length;
    const line = /^apiserver_request_total\{[^}]*verb="GET"[^}]*resource="podtemplates"[^}]*code="404"[^}]*\} (\d+)$/m;
    const scrapedBy = new Set<string>();
    for (let i = 0; i < 20 && scrapedBy.size < 2; i++) {
      const m = await client.get('/metrics');
      assert.equal(m.status, 200);
      scrapedBy.add(workerOf(m));
      assert.equal(line.exec(m.text)?.[1], '20', `the sum over both workers, scraped from worker ${workerOf(m)}`);
      // Every worker counts the same etcd: the object count is not doubled.
      const namespaces = Number(/^apiserver_storage_objects\{resource="namespaces"\} (\d+)$/m.exec(m.text)?.[1]);
      assert.equal(namespaces, listed);
    }
    assert.equal(scrapedBy.size, 2, 'both workers answered /metrics');
  });

  test('kubectl apply, get and watch work against it', async () => {
    const kc: Kubeconfig = writeKubeconfig(s);
    const kubectl = new Kubectl(kc);
    try {
      const manifest = (v: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: workers-kubectl\n  namespace: default\ndata:\n  v: "${v}"\n`;
      await kubectl.ok(['apply', '-f', '-'], { input: manifest('1') });
      const watch = kubectl.background(['get', 'configmap', 'workers-kubectl', '-w', '-o', 'jsonpath={.data.v}{"\\n"}']);
      try {
        await watch.waitForOutput((out) => out.split('\n').includes('1'), 15_000, 'the watch lists the object');
        // Several applies, so some go through the worker not serving the watch.
        for (const v of ['2', '3', '4']) await kubectl.ok(['apply', '-f', '-'], { input: manifest(v) });
        await watch.waitForOutput((out) => out.split('\n').includes('4'), 15_000, 'the watch sees the applies');
      } finally {
        await watch.stop();
      }
      const got = await kubectl.ok(['get', 'configmap', 'workers-kubectl', '-o', 'jsonpath={.data.v}']);
      assert.equal(got.stdout, '4');
    } finally {
      kc.remove();
    }
  });

  test('health reports every worker: a killed worker fails readyz until the supervisor has restarted it', async () => {
    const ready = await client.get('/readyz?verbose');
    assert.equal(ready.status, 200, ready.text);
    assert.match(ready.text, /^\[\+\]worker-1 ok$/m);
    assert.match(ready.text, /^\[\+\]worker-2 ok$/m);
    assert.equal((await client.get('/livez/worker-2')).status, 200);
    const victim = s.workerPids().get(2)!;
    assert.ok(victim, s.log());
    process.kill(victim, 'SIGKILL');
    await s.waitForLog((l) => l.includes('"a worker ended unexpectedly; restarting it" slot=2'), 10_000, 'the supervisor saw worker 2 end');
    // Whichever worker answers, readyz fails while worker 2 is down.
    let failing: Response | undefined;
    await eventually(async () => (failing = await client.get('/readyz?verbose')).status === 500, 30_000, 'readyz fails');
    assert.equal(workerOf(failing!), '1', 'only worker 1 is serving');
    assert.match(failing!.text, /^\[-\]worker-2 failed/m);
    // Unless worker 2 came back meanwhile, livez fails too.
    const livez = await client.get('/livez?verbose');
    if (workerOf(livez) === '1') assert.equal(livez.status, 500, livez.text);
    await eventually(async () => (await client.get('/readyz')).status === 200, 60_000, 'readyz passes again');
    assert.match(s.log(), /"a worker ended unexpectedly; restarting it" slot=2 how="killed by SIGKILL"/);
    assert.notEqual(s.workerPids().get(2), victim, 'a new process is worker 2');
    const again = await client.get('/readyz?verbose');
    assert.match(again.text, /^\[\+\]worker-1 ok$/m);
    assert.match(again.text, /^\[\+\]worker-2 ok$/m);
    // The restarted worker serves again.
    await throughOtherWorker('1', () => client.get('/api/v1/namespaces/default'));
  });

  test('SIGTERM drains every worker and the supervisor exits 0', async () => {
    const watch = await client.watch('/api/v1/namespaces?watch=true');
    s.signal('SIGTERM');
    for (let e = await watch.next(10_000); e; e = await watch.next(10_000)) { /* drain what the watch sent */ }
    assert.ok(watch.ended(), 'the server closed the watch');
    const { code } = await s.exited;
    assert.equal(code, 0, s.log());
    const log = s.log();
    assert.match(log, /"the API server stopped" worker=1$/m);
    assert.match(log, /"the API server stopped" worker=2$/m);
    assert.match(log, /"the API server stopped" exitCode=0 worker="supervisor"$/m);
  });
});

describe('the --workers supervisor when its workers cannot start', () => {
  test('exits 1 with the reason rather than restarting them', async () => {
    const etcd = await startEtcd();
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as { port: number }).port;
    try {
      const s = startBinaryServer({ workers: 2, etcd, port });
      await assert.rejects(s, (e: Error) => {
        assert.match(e.message, /"the API server could not start" slot=\d err="bind EADDRINUSE 127\.0\.0\.1:\d+" worker="supervisor"/);
        assert.doesNotMatch(e.message, /restarting/);
        assert.match(e.message, /the server ended first \(1\)/);
        return true;
      });
    } finally {
      taken.close();
      await etcd.stop();
    }
  });

  test('flags are refused before any worker is forked', async () => {
    const { cmd, args } = { cmd: process.execPath, args: [new URL('../../cmd/apiserver/main.js', import.meta.url).pathname] };
    const r = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const p = spawn(cmd, [...args, '--workers', '0', '--etcd-servers', 'http://127.0.0.1:1'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr.on('data', (d: Buffer) => (err += d.toString()));
      p.on('exit', (code) => resolve({ code, err }));
    });
    assert.equal(r.code, 1);
    assert.match(r.err, /--workers must be a positive integer/);
  });

  test('flags only the workers can check (a --runtime-config key, an admission plug-in without code) are refused once, as a single server refuses them', async () => {
    const main = new URL('../../cmd/apiserver/main.js', import.meta.url).pathname;
    const certDir = mkdtempSync(join(tmpdir(), 'orch-workers-flags-'));
    const run = (workers: string) => new Promise<{ code: number | null; err: string }>((resolve) => {
      const p = spawn(process.execPath, [main, '--workers', workers, '--etcd-servers', 'http://127.0.0.1:1', '--cert-dir', certDir, '--runtime-config', 'apps/v1/widgets=false', '--enable-admission-plugins', 'PersistentVolumeLabel'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr.on('data', (d: Buffer) => (err += d.toString()));
      p.on('exit', (code) => resolve({ code, err }));
    });
    try {
      const [supervised, single] = await Promise.all([run('2'), run('1')]);
      assert.equal(supervised.code, 1, supervised.err);
      assert.equal(single.code, 1, single.err);
      const refusal = /^Error: enable-admission-plugins plugin "PersistentVolumeLabel" is not implemented by this server\nError: --runtime-config: unknown api groups or resources in --runtime-config: apps\/v1\/widgets .*\n\nRun 'apiserver --help' for usage\.\n/m;
      assert.match(single.err, refusal);
      assert.equal(supervised.err.match(new RegExp(refusal.source, 'gm'))?.length, 1, `printed once:\n${supervised.err}`);
      assert.doesNotMatch(supervised.err, /could not start|restarting/);
    } finally {
      rmSync(certDir, { recursive: true, force: true });
    }
  });
});
