// The real API server for a test, in this process, on a free port of loopback, backed by a real
// etcd; spoken to over HTTPS with certificate verification.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { runAPIServer, type RunningAPIServer } from '../../../cmd/apiserver/app/server.js';
import type { APIServerOptions } from '../../../cmd/apiserver/app/options.js';
import { defaultAuthenticationOptions } from '../../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../../pkg/authorization/modes.js';
import { defaultAdmissionOptions } from '../../../cmd/apiserver/app/admission-options.js';
import { defaultKubeletOptions } from '../../../cmd/apiserver/app/kubelet-options.js';
import { defaultAuditOptions } from '../../../cmd/apiserver/app/audit-options.js';
import { defaultAggregatorOptions } from '../../../cmd/apiserver/app/aggregator-options.js';
import { Logger } from '../../../pkg/log/logger.js';
import { Client, type Response } from './client.js';
import { pollUntil } from './authentication.js';
import { startEtcd, type TestEtcd } from './etcd.js';
import type { BinaryServer } from './binary-server.js';

export interface TestServer {
  client: Client;
  etcd: TestEtcd;
  server: RunningAPIServer;
  options: APIServerOptions;
  /** The server's log lines so far (the last few thousand), for tests of what an operator reads. */
  logs: string[];
  /** Stops and starts the API server again on the same etcd (a restart). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export function testOptions(etcd: TestEtcd, certDir: string, overrides: Partial<APIServerOptions> = {}): APIServerOptions {
  return {
    securePort: 0,
    bindAddress: '127.0.0.1',
    tlsCertFile: '',
    tlsPrivateKeyFile: '',
    certDir,
    etcdServers: [etcd.endpoint],
    etcdPrefix: '/registry',
    etcdCAFile: etcd.tls?.caFile ?? '',
    etcdCertFile: etcd.tls?.certFile ?? '',
    etcdKeyFile: etcd.tls?.keyFile ?? '',
    etcdCompactionIntervalMs: 0,
    eventTTLMs: 3_600_000,
    // ORCH_TEST_WATCH_CACHE=false runs a suite with the watch cache off (the watch hub alone).
    watchCache: process.env.ORCH_TEST_WATCH_CACHE !== 'false',
    watchCacheSizes: [],
    maxRequestsInflight: 400,
    maxMutatingRequestsInflight: 200,
    minRequestTimeout: 1800,
    requestTimeoutMs: 60_000,
    verbosity: 0,
    runtimeConfig: '',
    livezGracePeriodMs: 0,
    shutdownDelayMs: 0,
    apiDomain: 'orch.io',
    serviceClusterIPRange: '10.0.0.0/24',
    serviceNodePortRange: '30000-32767',
    advertiseAddress: '',
    // kube-apiserver's default: a test that creates privileged pods passes allowPrivileged, as upstream's pass --allow-privileged.
    allowPrivileged: false,
    authentication: defaultAuthenticationOptions(),
    authorization: defaultAuthorizationOptions(),
    admission: defaultAdmissionOptions(),
    kubelet: defaultKubeletOptions(),
    audit: defaultAuditOptions(),
    aggregator: defaultAggregatorOptions(),
    workers: 1,
    ...overrides,
  };
}

/** A logger keeping the server's lines for the test (and echoing them with ORCH_TEST_LOG set). */
function testLogger(lines: string[]): Logger {
  return new Logger(0, (line) => {
    lines.push(line);
    if (lines.length > 5000) lines.splice(0, lines.length - 5000);
    if (process.env.ORCH_TEST_LOG) process.stderr.write(line);
  });
}

/**
 * With ORCH_TEST_WORKERS=N (N > 1) a test's server is the built binary with `--workers N` whenever
 * what the test asks of it can be said with flags (no overrides, or the plain ones below); other
 * tests run in process as always. This runs the generic suites against several processes.
 */
const testWorkers = Number(process.env.ORCH_TEST_WORKERS ?? '1');
const asFlags: { [K in keyof APIServerOptions]?: (v: APIServerOptions[K]) => string[] } = {
  etcdCompactionIntervalMs: (v) => ['--etcd-compaction-interval', `${v}ms`],
  eventTTLMs: (v) => ['--event-ttl', `${v}ms`],
  minRequestTimeout: (v) => ['--min-request-timeout', String(v)],
  requestTimeoutMs: (v) => ['--request-timeout', `${v}ms`],
  runtimeConfig: (v) => ['--runtime-config', v],
  serviceClusterIPRange: (v) => ['--service-cluster-ip-range', v],
  serviceNodePortRange: (v) => ['--service-node-port-range', v],
  allowPrivileged: (v) => [`--allow-privileged=${v}`],
};

function flagsFor(overrides: Partial<APIServerOptions>): string[] | undefined {
  // As testOptions: no compaction unless the test asks for it.
  const flags: string[] = overrides.etcdCompactionIntervalMs === undefined ? ['--etcd-compaction-interval', '0s'] : [];
  for (const [k, v] of Object.entries(overrides)) {
    const f = asFlags[k as keyof APIServerOptions] as ((x: unknown) => string[]) | undefined;
    if (!f) return undefined;
    flags.push(...f(v));
  }
  return flags;
}

/** The binary with --workers, shaped as a TestServer (see testWorkers). */
async function startWorkersServer(overrides: Partial<APIServerOptions>, args: string[]): Promise<TestServer> {
  const { startBinaryServer } = await import('./binary-server.js');
  const etcd = await startEtcd();
  const certDir = mkdtempSync(join(tmpdir(), 'orch-certs-'));
  const logs: string[] = [];
  const start = (port?: number, flags = args) => startBinaryServer({ workers: testWorkers, etcd, certDir, lines: logs, args: flags, ...(port ? { port } : {}) });
  // A restart takes what the test changed in t.options since (those the flags can say).
  const defaults = testOptions(etcd, certDir, { workers: testWorkers });
  const currentFlags = (): string[] => {
    const changed = Object.fromEntries(Object.keys(asFlags)
      .filter((k) => !isDeepStrictEqual(t.options[k as keyof APIServerOptions], defaults[k as keyof APIServerOptions]))
      .map((k) => [k, t.options[k as keyof APIServerOptions]]));
    return flagsFor(changed) ?? args;
  };
  let b: BinaryServer;
  try {
    b = await start();
  } catch (e) {
    await etcd.stop();
    rmSync(certDir, { recursive: true, force: true });
    throw e;
  }
  const running = (): RunningAPIServer => ({ port: b.server.port, cert: { cert: b.server.cert.cert, key: '', certFile: join(certDir, 'apiserver.crt'), keyFile: join(certDir, 'apiserver.key') }, stop: () => b.stop() });
  const t: TestServer = {
    etcd,
    server: running(),
    options: testOptions(etcd, certDir, { ...overrides, workers: testWorkers }),
    logs,
    client: b.client,
    restart: async () => {
      await b.stop();
      b = await start(b.server.port, currentFlags());
      t.server = running();
    },
    stop: async () => {
      await b.stop();
      await etcd.stop();
      rmSync(certDir, { recursive: true, force: true });
    },
  };
  await ensureDefaultServiceAccount(t.client, 'default');
  return t;
}

export interface TestServerExtras {
  /** The CA bundle `client` trusts; default the serving certificate file (right for the self-signed one). */
  trustedCA?: string;
  /** Always this process, even under ORCH_TEST_WORKERS: for tests that count what one server process holds (its etcd watchers). */
  inProcess?: boolean;
}

/** Starts etcd and the API server; call stop() when done. */
export async function startTestServer(overrides: Partial<APIServerOptions> = {}, extras: TestServerExtras = {}): Promise<TestServer> {
  const flags = testWorkers > 1 && !extras.trustedCA && !extras.inProcess ? flagsFor(overrides) : undefined;
  if (flags) return startWorkersServer(overrides, flags);
  const etcd = await startEtcd();
  const certDir = mkdtempSync(join(tmpdir(), 'orch-certs-'));
  const options = testOptions(etcd, certDir, overrides);
  const logs: string[] = [];
  const logger = testLogger(logs);
  let server: RunningAPIServer;
  try {
    server = await runAPIServer(options, logger);
  } catch (e) {
    // Nothing may outlive a server that did not start, or the test process would never end.
    await etcd.stop();
    rmSync(certDir, { recursive: true, force: true });
    throw e;
  }
  const t: TestServer = {
    etcd,
    server,
    options,
    logs,
    client: new Client(`https://127.0.0.1:${server.port}`, extras.trustedCA ?? server.cert.cert),
    restart: async () => {
      await server.stop();
      server = await runAPIServer({ ...options, securePort: server.port }, logger);
      t.server = server;
    },
    stop: async () => {
      await server.stop();
      await etcd.stop();
      rmSync(certDir, { recursive: true, force: true });
    },
  };
  await ensureDefaultServiceAccount(t.client, 'default');
  return t;
}

/**
 * Creates the `default` service account of a namespace, which the ServiceAccount admission plug-in
 * requires of every pod. The controller manager's serviceaccount controller does this in a real
 * cluster; tests that create pods without running the controller manager stand in for it. A server
 * whose authorization refuses the test's anonymous client is left alone (such tests make their own
 * namespaces).
 */
export async function ensureDefaultServiceAccount(client: Client, namespace: string): Promise<void> {
  const r = await client.post(`/api/v1/namespaces/${namespace}/serviceaccounts`, { metadata: { name: 'default' } });
  if (r.status === 201 || r.status === 409 || r.status === 401 || r.status === 403) return;
  throw new Error(`cannot create the default service account of ${namespace}: ${r.status} ${r.text}`);
}

/**
 * Sends `send` (a request on a connection of its own, which the kernel hands to any of the
 * server's threads) until every thread of `t` has given an answer that `ok` accepts; the last
 * answer. With one thread, until one answer is accepted. For what each thread learns on its own
 * (its watch cache, its etcd health probe) before a test may count on it server-wide.
 */
export async function untilEveryThread(t: TestServer, send: () => Promise<Response>, ok: (r: Response) => boolean, what: string, timeoutMs = 20_000): Promise<Response> {
  const accepted = new Set<string>();
  return pollUntil(async () => {
    const r = await send();
    if (ok(r)) accepted.add(String(r.headers['x-orch-worker'] ?? '1'));
    return r;
  }, () => accepted.size === (t.options.workers ?? 1), `every thread: ${what}`, timeoutMs);
}
