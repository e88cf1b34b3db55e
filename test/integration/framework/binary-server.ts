// The built API server binary as an operator runs it, with `--workers` (2 by default): a separate
// process whose worker threads serve, on a real etcd, over real HTTPS. For tests of what only the
// binary and its threads show; test/integration/framework/apiserver.ts runs one server in process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from './client.js';
import { onFreePorts, startEtcd, type TestEtcd } from './etcd.js';

const repo = resolve(fileURLToPath(import.meta.url), '../../../../../..');

/** `_output/bin/apiserver` when `make build` made it, else the same entry point run by node. */
export function apiserverCommand(): { cmd: string; args: string[] } {
  const bin = join(repo, '_output/bin/apiserver');
  if (existsSync(bin)) return { cmd: bin, args: [] };
  return { cmd: process.execPath, args: ['--enable-source-maps', join(repo, '_output/dist/cmd/apiserver/main.js')] };
}

export interface BinaryServer {
  etcd: TestEtcd;
  /** Shaped as TestServer's, so writeKubeconfig takes either. */
  server: { port: number; cert: { cert: string } };
  client: Client;
  /** The server's process id. */
  pid: number;
  /** Everything the server logged so far. */
  log(): string;
  /** Resolves once the log satisfies `done`; rejects with the log at the deadline or on exit. */
  waitForLog(done: (log: string) => boolean, timeoutMs: number, what: string): Promise<void>;
  /** Resolves with how the server ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  signal(sig: NodeJS.Signals): void;
  /** Stops the server (SIGTERM, SIGKILL after a while) and etcd, and removes the certificate directory. */
  stop(): Promise<void>;
}

export interface BinaryServerOptions {
  workers?: number;
  /** The secure port; a free one by default. */
  port?: number;
  /** Further flags. */
  args?: string[];
  /** A running etcd to use (kept at stop); else one is started for the server. */
  etcd?: TestEtcd;
  /** The --cert-dir to use (kept at stop, so a restart serves the same certificate); else a temporary one. */
  certDir?: string;
  /** Each log line is also pushed here. */
  lines?: string[];
  /** Environment variables beside this process's own. */
  env?: Record<string, string>;
}

/**
 * Starts the binary and waits until it says the whole server is ready; on new free
 * ports while one found free was taken before the server bound it (onFreePorts).
 */
export async function startBinaryServer(o: BinaryServerOptions = {}): Promise<BinaryServer> {
  const etcd = o.etcd ?? (await startEtcd());
  const certDir = o.certDir ?? mkdtempSync(join(tmpdir(), 'orch-bin-certs-'));
  try {
    return o.port !== undefined ? await launch(o, etcd, certDir, o.port) : await onFreePorts(1, ([port]) => launch(o, etcd, certDir, port!), 3);
  } catch (e) {
    if (!o.etcd) await etcd.stop();
    if (!o.certDir) rmSync(certDir, { recursive: true, force: true });
    throw e;
  }
}

async function launch(o: BinaryServerOptions, etcd: TestEtcd, certDir: string, port: number): Promise<BinaryServer> {
  const { cmd, args } = apiserverCommand();
  const proc: ChildProcess = spawn(cmd, [
    ...args,
    '--workers', String(o.workers ?? 2),
    '--etcd-servers', etcd.endpoint,
    '--secure-port', String(port),
    '--bind-address', '127.0.0.1',
    '--cert-dir', certDir,
    ...(o.args ?? []),
  ], { stdio: ['ignore', 'pipe', 'pipe'], ...(o.env ? { env: { ...process.env, ...o.env } } : {}) });
  let log = '';
  const listeners = new Set<() => void>();
  let partial = '';
  const keep = (d: Buffer) => {
    log += d.toString();
    if (o.lines) {
      const parts = (partial + d.toString()).split('\n');
      partial = parts.pop()!;
      for (const l of parts) o.lines.push(`${l}\n`);
      if (o.lines.length > 5000) o.lines.splice(0, o.lines.length - 5000);
    }
    if (process.env.ORCH_TEST_LOG) process.stderr.write(d);
    for (const l of [...listeners]) l();
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => proc.once('close', (code, signal) => {
    for (const l of [...listeners]) l();
    r({ code, signal });
  }));
  const alive = () => proc.exitCode === null && proc.signalCode === null;
  const waitForLog = (done: (log: string) => boolean, timeoutMs: number, what: string) => new Promise<void>((res, rej) => {
    const finish = (err?: Error) => {
      clearTimeout(timer);
      listeners.delete(check);
      if (err) rej(err);
      else res();
    };
    const check = () => {
      if (done(log)) finish();
      else if (!alive()) finish(new Error(`${what}: the server ended first (${proc.exitCode ?? proc.signalCode})\n${log}`));
    };
    const timer = setTimeout(() => finish(new Error(`${what}: not seen within ${timeoutMs} ms\n${log}`)), timeoutMs);
    listeners.add(check);
    check();
  });
  const stop = async () => {
    if (alive()) {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    if (!o.etcd) await etcd.stop();
    if (!o.certDir) rmSync(certDir, { recursive: true, force: true });
  };
  try {
    await waitForLog((l) => l.includes('"the API server is ready"'), 60_000, 'the API server is ready');
  } catch (e) {
    // The caller keeps etcd and the certificates, to try again or to clean up.
    if (alive()) {
      proc.kill('SIGKILL');
      await exited;
    }
    throw e;
  }
  const cert = readFileSync(join(certDir, 'apiserver.crt'), 'utf8');
  return {
    etcd,
    server: { port, cert: { cert } },
    client: new Client(`https://127.0.0.1:${port}`, cert),
    pid: proc.pid!,
    log: () => log,
    waitForLog,
    exited,
    alive,
    signal: (sig) => proc.kill(sig),
    stop,
  };
}
