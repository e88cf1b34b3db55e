// A real etcd for a test: its own free ports and a temporary data directory, removed on stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestCA } from '../../../pkg/authentication/testing/ca.js';
import { Etcd3Storage } from '../../../pkg/storage/etcd3/store.js';
import { jsonStorageCodec } from '../../../pkg/storage/json-codec.js';

/** The files of an etcd serving its clients over TLS and requiring their certificates (PEM). */
export interface TestEtcdTLS {
  /** The CA that signed etcd's serving certificate and the client certificate. */
  caFile: string;
  /** A client certificate etcd accepts, and its key. */
  certFile: string;
  keyFile: string;
}

export interface TestEtcd {
  endpoint: string;
  dataDir: string;
  /** Present when started with `clientTLS`: what a client needs to be let in. */
  tls?: TestEtcdTLS;
  /** The process id of the running etcd (for CPU and memory figures), undefined while paused. */
  pid(): number | undefined;
  /** Stops etcd (keeping its data) so a test can simulate an outage. */
  pause(): Promise<void>;
  /** Starts it again on the same port and data. */
  resume(): Promise<void>;
  /**
   * Freezes etcd (SIGSTOP): its connections stay open and what is sent to it stays unread, as with
   * a frozen disk, a partition or a stalled leader, until thaw() (or pause(), which ends it).
   */
  freeze(): void;
  /** Lets a frozen etcd run again (SIGCONT): it reads and answers what waited. */
  thaw(): void;
  /** Bytes sent to etcd's client port and not yet read by it (what a frozen etcd holds unread). */
  unreadBytes(): number;
  stop(): Promise<void>;
}

/** The receive queues of the established TCP connections to 127.0.0.1:`port`, summed (from /proc/net/tcp). */
function receiveQueueBytes(port: number): number {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let total = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    // sl local_address rem_address st tx_queue:rx_queue ...; 01 is ESTABLISHED.
    if (f[1] === local && f[3] === '01') total += parseInt(f[4]!.split(':')[1]!, 16);
  }
  return total;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Runs `start` on `count` free ports, and again on new ones while it fails because one of them was
 * taken between being found free and being bound (by another test's process, or an outgoing
 * connection's ephemeral port): its error then says "address already in use" or EADDRINUSE.
 */
export async function onFreePorts<T>(count: number, start: (ports: number[]) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) ports.push(await freePort());
    try {
      return await start(ports);
    } catch (e) {
      if (attempt >= attempts || !/EADDRINUSE|address already in use/.test(String((e as Error)?.message))) throw e;
    }
  }
}

/** Whether etcd at `endpoint` says it is healthy (over TLS with the client certificate of `tls`). */
async function healthy(endpoint: string, tls: TestEtcdTLS | undefined): Promise<boolean> {
  if (!tls) return (await fetch(`${endpoint}/health`)).ok;
  return new Promise((resolve, reject) => {
    const req = request(`${endpoint}/health`, { ca: readFileSync(tls.caFile), cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitHealthy(endpoint: string, tls: TestEtcdTLS | undefined, proc: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`etcd exited with ${proc.exitCode}: ${log()}`);
    try {
      if (await healthy(endpoint, tls)) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`etcd did not become healthy: ${log()}`);
}

/** A CA, etcd's serving certificate for 127.0.0.1 and a client certificate, written into `dir`. */
function writeEtcdPKI(dir: string): TestEtcdTLS & { serverCertFile: string; serverKeyFile: string } {
  const ca = TestCA.root({ commonName: 'etcd-ca' });
  const server = ca.server(['localhost', '127.0.0.1'], { freshKey: true, extKeyUsage: ['serverAuth', 'clientAuth'] });
  const client = ca.client('orch-apiserver-etcd-client', [], { freshKey: true });
  const file = (name: string, pem: string) => {
    const path = join(dir, name);
    writeFileSync(path, pem, { mode: 0o600 });
    return path;
  };
  return {
    caFile: file('ca.crt', ca.certPem),
    serverCertFile: file('server.crt', server.certPem),
    serverKeyFile: file('server.key', server.keyPem),
    certFile: file('client.crt', client.certPem),
    keyFile: file('client.key', client.keyPem),
  };
}

/**
 * Starts etcd on free ports of loopback. With `clientTLS` it serves its clients over HTTPS and
 * requires a client certificate signed by its CA (`--client-cert-auth`), as a production etcd does;
 * the returned `tls` names the files a client needs.
 */
export async function startEtcd(opts: { progressNotifyInterval?: string; clientTLS?: boolean } = {}): Promise<TestEtcd> {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-etcd-'));
  const pkiDir = opts.clientTLS ? mkdtempSync(join(tmpdir(), 'orch-etcd-pki-')) : undefined;
  const pki = pkiDir ? writeEtcdPKI(pkiDir) : undefined;
  const tls = pki ? { caFile: pki.caFile, certFile: pki.certFile, keyFile: pki.keyFile } : undefined;
  const scheme = pki ? 'https' : 'http';
  let clientPort = 0;
  let peerPort = 0;
  let endpoint = '';
  let proc: ChildProcess;
  let output = '';
  const launch = async () => {
    output = '';
    proc = spawn('etcd', [
      '--name', 'test', '--data-dir', dataDir,
      '--listen-client-urls', endpoint, '--advertise-client-urls', endpoint,
      '--listen-peer-urls', `http://127.0.0.1:${peerPort}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${peerPort}`,
      '--initial-cluster', `test=http://127.0.0.1:${peerPort}`,
      ...(pki ? ['--cert-file', pki.serverCertFile, '--key-file', pki.serverKeyFile, '--client-cert-auth', '--trusted-ca-file', pki.caFile] : []),
      '--experimental-watch-progress-notify-interval', opts.progressNotifyInterval ?? '1s',
      '--logger', 'zap', '--log-level', 'error',
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    proc.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    await waitHealthy(endpoint, tls, proc, () => output);
  };
  const kill = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  };
  // etcd exits at once when a port was taken (its error carries its output): new ports, a clean directory.
  try {
    await onFreePorts(2, async ([client, peer]) => {
      clientPort = client!;
      peerPort = peer!;
      endpoint = `${scheme}://127.0.0.1:${clientPort}`;
      rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir);
      await launch();
    });
  } catch (e) {
    for (const dir of [dataDir, pkiDir]) if (dir) rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    endpoint,
    dataDir,
    ...(tls ? { tls } : {}),
    pid: () => (proc.exitCode === null && proc.signalCode === null ? proc.pid : undefined),
    pause: kill,
    resume: launch,
    freeze: () => void proc.kill('SIGSTOP'),
    thaw: () => void proc.kill('SIGCONT'),
    unreadBytes: () => receiveQueueBytes(clientPort),
    stop: async () => {
      await kill();
      for (const dir of [dataDir, pkiDir]) if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** etcd's own counts of the KV calls it has handled (Range and Txn), from its metrics. */
export async function etcdKVCalls(endpoint: string): Promise<{ Range: number; Txn: number }> {
  const text = await (await fetch(`${endpoint}/metrics`)).text();
  const n = { Range: 0, Txn: 0 };
  for (const m of text.matchAll(/^grpc_server_handled_total\{[^}]*grpc_method="(Range|Txn)"[^}]*\} (\d+)/gm)) n[m[1] as 'Range' | 'Txn'] += Number(m[2]);
  return n;
}

/**
 * Storage as the API server has it on `endpoint` (its /registry prefix and JSON codec), for tests of
 * the storage layer; without background health probes, whose reads would count among etcd's calls.
 */
export function etcdStorage(endpoint: string): Etcd3Storage {
  return new Etcd3Storage({ servers: [endpoint], prefix: '/registry', codec: jsonStorageCodec, probeIntervalMs: 0 });
}
