// The system under test: a fresh etcd and the built API server binary as a separate process, on
// loopback, with an admin bearer token (system:masters) and RBAC, the way an operator runs it. The
// bench process never shares the server's event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startEtcd, type TestEtcd } from '../../test/integration/framework/etcd.js';
import type { Cleanup } from './cleanup.js';

export interface Target {
  host: string;
  port: number;
  /** The server's self-signed certificate, trusted as the CA of every connection. */
  ca: string;
  token: string;
}

export interface BenchCluster {
  etcd: TestEtcd;
  target: Target;
  serverPid: number;
  /** The server's last log lines, to show when something breaks. */
  serverLog(): string;
  serverAlive(): boolean;
}

const serverMain = fileURLToPath(new URL('../../cmd/apiserver/main.js', import.meta.url));

export async function startCluster(cleanup: Cleanup): Promise<BenchCluster> {
  const etcd = await startEtcd();
  cleanup.add('etcd', () => etcd.stop(), () => {
    const pid = etcd.pid();
    if (pid !== undefined) process.kill(pid, 'SIGKILL');
    rmSync(etcd.dataDir, { recursive: true, force: true });
  });
  const dir = mkdtempSync(join(tmpdir(), 'orch-bench-'));
  cleanup.add(`temporary directory ${dir}`, () => rmSync(dir, { recursive: true, force: true }), () => rmSync(dir, { recursive: true, force: true }));
  const token = randomBytes(24).toString('hex');
  writeFileSync(join(dir, 'tokens.csv'), `${token},bench-admin,bench-admin-uid,"system:masters"\n`, { mode: 0o600 });
  const certDir = join(dir, 'certs');
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS (say `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the server under the bench's load.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  // BENCH_WORKERS: the server's --workers (its own default, the number of cores, when unset).
  const workers = process.env.BENCH_WORKERS ?? '';
  if (workers !== '' && !/^[1-9]\d*$/.test(workers)) throw new Error(`BENCH_WORKERS=${JSON.stringify(workers)}: want a positive integer`);
  // As the shipped binary runs it (Makefile): without --enable-source-maps, which costs memory.
  const server: ChildProcess = spawn(process.execPath, [
    ...nodeArgs, serverMain,
    '--etcd-servers', etcd.endpoint,
    '--secure-port', String(port),
    '--bind-address', '127.0.0.1',
    '--cert-dir', certDir,
    '--token-auth-file', join(dir, 'tokens.csv'),
    '--authorization-mode', 'RBAC',
    ...(workers ? ['--workers', workers] : []),
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-16_000));
  server.stdout!.on('data', keep);
  server.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const alive = () => server.exitCode === null && server.signalCode === null;
  cleanup.add('the API server', async () => {
    if (!alive()) return;
    server.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const gave = await Promise.race([exited.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), 10_000)))]);
    clearTimeout(timer);
    if (gave) {
      server.kill('SIGKILL');
      await exited;
    }
  }, () => {
    if (alive()) server.kill('SIGKILL');
  });
  if (server.pid === undefined) throw new Error(`cannot start ${serverMain}`);

  // Ready means its post-start hooks (system namespaces, bootstrap RBAC) are done, as it logs (with
  // --workers, the main thread logs it once every worker thread is).
  const deadline = Date.now() + 60_000;
  while (!log.includes('"the API server is ready"')) {
    if (!alive()) throw new Error(`the API server exited (${server.exitCode ?? server.signalCode}):\n${log}`);
    if (Date.now() > deadline) throw new Error(`the API server was not ready within 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    etcd,
    target: { host: '127.0.0.1', port, ca: readFileSync(join(certDir, 'apiserver.crt'), 'utf8'), token },
    serverPid: server.pid,
    serverLog: () => log,
    serverAlive: alive,
  };
}
