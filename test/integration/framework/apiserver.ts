// The real API server for a test, in this process, on a free port of loopback, backed by a real
// etcd; spoken to over HTTPS with certificate verification.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAPIServer, type RunningAPIServer } from '../../../cmd/apiserver/app/server.js';
import type { APIServerOptions } from '../../../cmd/apiserver/app/options.js';
import { Logger } from '../../../pkg/log/logger.js';
import { Client } from './client.js';
import { startEtcd, type TestEtcd } from './etcd.js';

export interface TestServer {
  client: Client;
  etcd: TestEtcd;
  server: RunningAPIServer;
  options: APIServerOptions;
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
    etcdCompactionIntervalMs: 0,
    maxRequestsInflight: 400,
    maxMutatingRequestsInflight: 200,
    minRequestTimeout: 1800,
    verbosity: 0,
    runtimeConfig: '',
    livezGracePeriodMs: 0,
    shutdownDelayMs: 0,
    apiDomain: 'orch.io',
    ...overrides,
  };
}

const quiet = new Logger(0, (line) => {
  if (process.env.ORCH_TEST_LOG) process.stderr.write(line);
});

/** Starts etcd and the API server; call stop() when done. */
export async function startTestServer(overrides: Partial<APIServerOptions> = {}): Promise<TestServer> {
  const etcd = await startEtcd();
  const certDir = mkdtempSync(join(tmpdir(), 'orch-certs-'));
  const options = testOptions(etcd, certDir, overrides);
  let server = await runAPIServer(options, quiet);
  const t: TestServer = {
    etcd,
    server,
    options,
    client: new Client(`https://127.0.0.1:${server.port}`, server.cert.cert),
    restart: async () => {
      await server.stop();
      server = await runAPIServer({ ...options, securePort: server.port }, quiet);
      t.server = server;
    },
    stop: async () => {
      await server.stop();
      await etcd.stop();
      rmSync(certDir, { recursive: true, force: true });
    },
  };
  return t;
}
