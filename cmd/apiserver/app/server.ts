// Assembles the API server from its options: certificate, etcd storage, scheme, registry stores,
// API handler and HTTPS server; then runs the post-start steps.
import { hostname } from 'node:os';
import { allGroupVersions } from '../../../api/index.js';
import { newAPIHandler } from '../../../pkg/endpoints/api-handler.js';
import type { Logger } from '../../../pkg/log/logger.js';
import { buildStores } from '../../../pkg/registry/stores.js';
import { systemNamespaces } from '../../../pkg/registry/strategies.js';
import { validationFor } from '../../../pkg/registry/validations.js';
import { ObjectDecoder } from '../../../pkg/runtime/decoder.js';
import { Scheme } from '../../../pkg/runtime/scheme.js';
import { SchemaValidator } from '../../../pkg/runtime/schema-validator.js';
import type { HealthCheck } from '../../../pkg/server/healthz.js';
import { APIServer, type VersionInfo } from '../../../pkg/server/server.js';
import { ensureSelfSignedCert, loadServingCert, type ServingCert } from '../../../pkg/server/serving-cert.js';
import { compatibleKubernetes, orchVersion } from '../../../pkg/version/version.js';
import { Etcd3Storage } from '../../../pkg/storage/etcd3/store.js';
import { jsonStorageCodec } from '../../../pkg/storage/json-codec.js';
import type { Storage } from '../../../pkg/storage/interface.js';
import type { Store } from '../../../pkg/registry/generic/store.js';
import type { APIServerOptions } from './options.js';


const MAX_BODY_BYTES = 3 * 1024 * 1024;

export interface RunningAPIServer {
  port: number;
  cert: ServingCert;
  stop(): Promise<void>;
}

function versionInfo(): VersionInfo {
  return {
    major: compatibleKubernetes.major,
    minor: compatibleKubernetes.minor,
    gitVersion: `v${compatibleKubernetes.major}.${compatibleKubernetes.minor}.0+orch.${orchVersion}`,
    gitCommit: process.env.ORCH_GIT_COMMIT ?? '',
    gitTreeState: '',
    buildDate: '',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

async function waitForEtcd(storage: Storage, servers: string[], logger: Logger, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    if (await storage.healthy()) return;
    if (Date.now() > deadline) throw new Error(`etcd at ${servers.join(',')} did not answer within ${timeoutMs / 1000}s`);
    if (attempt === 1 || attempt % 5 === 0) logger.warn('waiting for etcd to answer', { servers: servers.join(','), attempt });
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function ensureSystemNamespaces(stores: ReadonlyMap<string, Store>, logger: Logger): Promise<void> {
  const store = stores.get('/namespaces')!;
  for (const name of systemNamespaces) {
    try {
      await store.create('', { metadata: { name } });
      logger.info('created system namespace', { namespace: name });
    } catch (e) {
      if ((e as { code?: number }).code !== 409) throw e;
    }
  }
}

/** Starts the API server; resolves once it serves and its post-start steps are done. */
export async function runAPIServer(opts: APIServerOptions, logger: Logger): Promise<RunningAPIServer> {
  const cert = opts.tlsCertFile
    ? loadServingCert(opts.tlsCertFile, opts.tlsPrivateKeyFile)
    : (() => {
        const c = ensureSelfSignedCert({ certDir: opts.certDir, hosts: [opts.bindAddress, hostname()] });
        logger.info(c.generated ? 'generated self-signed serving certificate' : 'using self-signed serving certificate', { cert: c.certFile, key: c.keyFile });
        return c;
      })();
  const storage = new Etcd3Storage({ servers: opts.etcdServers, prefix: opts.etcdPrefix, codec: jsonStorageCodec });
  await waitForEtcd(storage, opts.etcdServers, logger);
  const scheme = new Scheme(allGroupVersions);
  const schemas = new SchemaValidator();
  const stores = buildStores(scheme, storage, schemas, validationFor);
  const etcdCheck: HealthCheck = { name: 'etcd', check: async () => ((await storage.healthy()) ? undefined : 'etcd is not reachable') };
  const ping: HealthCheck = { name: 'ping', check: async () => undefined };
  const openWatches = new Set<() => void>();
  const serverAddress = `${opts.bindAddress === '0.0.0.0' ? '127.0.0.1' : opts.bindAddress}:${opts.securePort}`;
  const server = new APIServer({
    bindAddress: opts.bindAddress,
    securePort: opts.securePort,
    cert,
    maxRequestsInflight: opts.maxRequestsInflight,
    maxMutatingRequestsInflight: opts.maxMutatingRequestsInflight,
    maxRequestBodyBytes: MAX_BODY_BYTES,
    api: newAPIHandler({
      scheme,
      stores,
      decoder: new ObjectDecoder(schemas),
      schemas,
      serverAddress,
      watch: {
        minRequestTimeoutSeconds: opts.minRequestTimeout,
        track: (stop) => {
          openWatches.add(stop);
          return () => openWatches.delete(stop);
        },
      },
    }),
    livezChecks: [ping, etcdCheck],
    readyzChecks: [ping, etcdCheck],
    version: versionInfo(),
    logger,
  });
  await ensureSystemNamespaces(stores, logger);
  const stopCompaction = opts.etcdCompactionIntervalMs > 0
    ? storage.startCompaction(opts.etcdCompactionIntervalMs, {
        compacted: (revision) => logger.v(2).info('compacted etcd history', { revision }),
        failed: (err) => logger.warn('etcd compaction failed', { err: err instanceof Error ? err.message : String(err) }),
      })
    : () => undefined;
  const port = await server.start();
  logger.info('serving securely', { address: `${opts.bindAddress}:${port}` });
  return {
    port,
    cert,
    stop: async () => {
      stopCompaction();
      for (const stop of [...openWatches]) stop();
      await server.stop();
      await storage.close();
    },
  };
}
