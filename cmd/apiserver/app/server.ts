// Assembles the API server from its options: certificate, etcd storage, scheme, registry stores,
// API handler and HTTPS server; then runs the post-start steps.
import { networkInterfaces } from 'node:os';
import { apiDomain } from '../../../api/domain.js';
import { groupVersions } from '../../../api/index.js';
import { newAPIHandler } from '../../../pkg/endpoints/api-handler.js';
import type { RevisionWatermark } from '../../../pkg/util/revision-watermark.js';
import { DiscoveryModel, sourcePrecedence } from '../../../pkg/endpoints/discovery-model.js';
import { schemeDiscoverySource } from '../../../pkg/endpoints/discovery.js';
import { lazyOpenAPIDocs, openAPIHandler } from '../../../pkg/endpoints/openapi-handler.js';
import type { Logger } from '../../../pkg/log/logger.js';
import { buildStores } from '../../../pkg/registry/stores.js';
import { systemNamespaces } from '../../../pkg/registry/strategies.js';
import { SystemPriorityClasses } from '../../../api/scheduling/v1/priority-class.js';
import { BootstrapTokenNamespace } from '../../../api/core/v1/bootstrap-token.js';
import { kindValidations } from '../../../pkg/registry/validations.js';
import type { Service } from '../../../api/core/v1/service.js';
import { ServiceAllocator } from '../../../pkg/registry/core/service/allocator.js';
import { reconcileKubernetesEndpointSlice, reconcileKubernetesEndpoints, reconcileKubernetesService } from '../../../pkg/registry/core/service/bootstrap.js';
import { IPRange, PortRange } from '../../../pkg/registry/core/service/ranges.js';
import { clusterInfoKubeconfig, reconcileClusterInfo, serverURL } from '../../../pkg/registry/core/cluster-info.js';
import { servingCA } from '../../../pkg/server/serving-ca.js';
import { ObjectDecoder } from '../../../pkg/runtime/decoder.js';
import { applyRuntimeConfig, parseRuntimeConfig } from '../../../pkg/runtime/runtime-config.js';
import { ProtobufCodec } from '../../../pkg/runtime/protobuf/codec.js';
import { Scheme, storagePrefix } from '../../../pkg/runtime/scheme.js';
import { SchemaValidator } from '../../../pkg/runtime/schema-validator.js';
import type { HealthCheck } from '../../../pkg/server/healthz.js';
import { Lifecycle } from '../../../pkg/server/lifecycle.js';
import { APIServer, type VersionInfo } from '../../../pkg/server/server.js';
import { localAnswerCaches, type AnswerCacheFactory } from '../../../pkg/util/cache/answer-cache.js';
import { APIServerMetrics } from '../../../pkg/metrics/apiserver-metrics.js';
import type { ServingCert } from '../../../pkg/server/serving-cert.js';
import { servingCertificate } from './serving.js';
import { compatibleKubernetes, gitVersion } from '../../../pkg/version/version.js';
import type { Storage } from '../../../pkg/storage/interface.js';
import { Etcd3Storage } from '../../../pkg/storage/etcd3/store.js';
import type { HealthPeers } from '../../../pkg/storage/etcd3/health-monitor.js';
import { jsonStorageCodec } from '../../../pkg/storage/json-codec.js';
import { cachedStorage, etcdClientTLS, watchCacheSizeOf } from './storage.js';
import { customResources } from './custom-resources.js';
import type { Store } from '../../../pkg/registry/generic/store.js';
import { buildAuthentication } from './authentication.js';
import { buildAuthorization } from './authorization.js';
import { buildAdmission } from './admission.js';
import { startPolicyTypeChecking } from './policy-status.js';
import { schemeObjectInterfaces } from '../../../pkg/admission/object-interfaces.js';
import { buildAudit } from './audit.js';
import { AuditMetrics } from '../../../pkg/metrics/audit-metrics.js';
import { SharedCaches } from './caches.js';
import { impersonate } from '../../../pkg/authorization/impersonation.js';
import { resourceAttributes } from '../../../pkg/authorization/attributes.js';
import { authorizationGroup } from '../../../api/authorization/v1/register.js';
import { accessReviewHandlers } from '../../../pkg/authorization/reviews.js';
import { bindingHandler } from '../../../pkg/registry/core/pod-binding.js';
import { evictionHandler } from '../../../pkg/registry/core/pod-eviction.js';
import { nodeProxyConnecter, podProxyConnecter, podStreamConnecter, serviceProxyConnecter, type KubeletConnection } from '../../../pkg/registry/core/connect-locations.js';
import type { Connecter } from '../../../pkg/registry/rest/connect.js';
import { podLogGetter } from '../../../pkg/registry/core/pod-log-location.js';
import { kubeletConnection } from './kubelet-options.js';
import { buildAggregator } from './aggregator.js';
import type { APIServerOptions } from './options.js';


const MAX_BODY_BYTES = 3 * 1024 * 1024;
/** How long in-flight requests may run on after the listener closes at shutdown. */
const REQUEST_DRAIN_MS = 60_000;

/**
 * What a worker thread of `--workers N` adds to the server: its identity on every answer, the
 * port it shares with the other threads, the other threads' health in its health endpoints,
 * /metrics summed over every thread, and what the threads share: the webhook answer caches (with
 * one salt for token keys) and the --audit-log-path file.
 */
export interface ThreadRole {
  /** 1..count, kept by a thread that replaces one that ended. */
  id: number;
  count: number;
  /** When the whole server started: one Last-Modified for documents every thread builds alike. */
  startedAt: Date;
  /**
   * Whether it replaces a thread that ended: the server serves already, so this one finishes its
   * post-start hooks before it listens, and health never hears of them unfinished.
   */
  replacing: boolean;
  /** The port to listen on beside the other threads (the first thread's, when the flag says 0). */
  listenPort(): Promise<number>;
  /** Tells the other threads the port this one listens on. */
  listening(port: number): void;
  peerHealthChecks(): HealthCheck[];
  renderMetrics(): Promise<{ body: string; contentType: string }>;
  /** Hands the link this thread's metrics, which it sends when the main thread sums them. */
  serving(metrics: APIServerMetrics): void;
  answerCaches: AnswerCacheFactory;
  tokenKeySalt: Uint8Array;
  auditFile: { memory: SharedArrayBuffer; owner: number };
  /** The CustomResourceDefinition revision the threads share, so they show one discovery. */
  definitionsWatermark: RevisionWatermark;
  /** The other threads' etcd probes: a member one finds hung, every thread refuses. */
  etcdHealthPeers: HealthPeers;
}

export interface RunningAPIServer {
  port: number;
  cert: ServingCert;
  stop(): Promise<void>;
}

function versionInfo(): VersionInfo {
  return {
    major: compatibleKubernetes.major,
    minor: compatibleKubernetes.minor,
    gitVersion,
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

/** Runs `step` until it succeeds, as post-start steps must outlast an etcd that is still coming up. */
async function retrying(what: string, step: () => Promise<void>, logger: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await step();
      return;
    } catch (e) {
      if (attempt % 10 === 1) logger.warn(`cannot ${what} yet; retrying`, { attempt, err: e instanceof Error ? e.message : String(e) });
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** Creates the system namespaces, retrying until etcd takes the writes. */
async function ensureSystemNamespaces(stores: ReadonlyMap<string, Store>, logger: Logger): Promise<void> {
  const store = stores.get('/namespaces');
  if (!store) return; // core/v1 namespaces disabled with --runtime-config
  for (const name of systemNamespaces) {
    for (let attempt = 1; ; attempt++) {
      try {
        await store.create('', { metadata: { name } });
        logger.info('created system namespace', { namespace: name });
        break;
      } catch (e) {
        if ((e as { code?: number }).code === 409) break;
        if (attempt % 10 === 1) logger.warn('cannot create system namespace yet', { namespace: name, err: e instanceof Error ? e.message : String(e) });
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }
}

/**
 * Creates the built-in priority classes (upstream's scheduling/bootstrap-system-priority-classes),
 * leaving any that exist alone, retrying until etcd takes the writes.
 */
async function ensureSystemPriorityClasses(stores: ReadonlyMap<string, Store>, group: string, logger: Logger): Promise<void> {
  const store = stores.get(`${group}/priorityclasses`);
  if (!store) return; // scheduling/v1 disabled with --runtime-config
  for (const pc of SystemPriorityClasses) {
    await retrying(`create the system priority class ${pc.name}`, async () => {
      try {
        await store.create('', { metadata: { name: pc.name }, value: pc.value, description: pc.description });
        logger.info('created system priority class', { priorityClass: pc.name, value: pc.value });
      } catch (e) {
        if ((e as { code?: number }).code !== 409) throw e;
      }
    }, logger);
  }
}

/** What the sub-resources that lead elsewhere read: pods, nodes, services and endpoints. */
const connectStores = (stores: ReadonlyMap<string, Store>) => () =>
  ({ pods: stores.get('/pods'), nodes: stores.get('/nodes'), services: stores.get('/services'), endpoints: stores.get('/endpoints') });

/** The CONNECT sub-resources: streams to node agents, and the proxies. */
function connecters(stores: ReadonlyMap<string, Store>, kubelet: KubeletConnection): Map<string, Connecter> {
  const read = connectStores(stores);
  return new Map([
    ['/pods/exec', podStreamConnecter('exec', read, kubelet)],
    ['/pods/attach', podStreamConnecter('attach', read, kubelet)],
    ['/pods/portforward', podStreamConnecter('portforward', read, kubelet)],
    ['/pods/proxy', podProxyConnecter(read)],
    ['/nodes/proxy', nodeProxyConnecter(read, kubelet)],
    ['/services/proxy', serviceProxyConnecter(read)],
  ]);
}

/**
 * The address the `kubernetes` Endpoints advertise: --advertise-address, else --bind-address,
 * else (bound to every interface) the host's first non-internal IPv4 address, else loopback.
 */
function advertiseAddress(opts: APIServerOptions): string {
  if (opts.advertiseAddress) return opts.advertiseAddress;
  if (opts.bindAddress !== '0.0.0.0' && opts.bindAddress !== '::') return opts.bindAddress;
  for (const addrs of Object.values(networkInterfaces())) {
    const a = (addrs ?? []).find((x) => x.family === 'IPv4' && !x.internal);
    if (a) return a.address;
  }
  return '127.0.0.1';
}

/** Starts the API server; resolves once it serves and its post-start hooks are done. */
export async function runAPIServer(opts: APIServerOptions, logger: Logger, thread?: ThreadRole): Promise<RunningAPIServer> {
  const cert = servingCertificate(opts, logger, !thread);
  const etcdTLS = etcdClientTLS(opts);
  const domain = apiDomain(opts.apiDomain);
  logger.info('starting the API server', { version: versionInfo().gitVersion, apiDomain: domain.name, etcdServers: opts.etcdServers.join(','), etcdPrefix: opts.etcdPrefix });
  const scheme = new Scheme(applyRuntimeConfig(groupVersions(domain), parseRuntimeConfig(opts.runtimeConfig)), domain);
  const metrics = new APIServerMetrics();
  // Read before anything connects: a broken policy or an unwritable log stops the start.
  const audit = buildAudit(opts.audit, { domain, logger, metrics: new AuditMetrics(metrics.registry), ...(thread ? { sharedFile: thread.auditFile } : {}) });
  const etcd = new Etcd3Storage({
    servers: opts.etcdServers,
    tls: etcdTLS,
    prefix: opts.etcdPrefix,
    codec: jsonStorageCodec,
    observe: (operation, key, seconds) => metrics.etcdRequest(operation, key.split('/')[2] ?? '', seconds),
    ...(thread ? { healthPeers: thread.etcdHealthPeers } : {}),
    events: {
      unreachable: (err) => logger.error('lost the connection to etcd; requests that need it answer 503 until it is back', { servers: opts.etcdServers.join(','), err }),
      reachable: (downMs) => logger.info('the connection to etcd is back', { servers: opts.etcdServers.join(','), outage: `${(downMs / 1000).toFixed(1)}s` }),
      watchDisconnected: (key, revision, err) => logger.warn('an etcd watch lost its stream; it resumes from its last revision', { prefix: key, revision, err }),
      watchResumed: (key, revision) => logger.info('an etcd watch resumed', { prefix: key, revision }),
    },
  });
  // One etcd watch per resource, fanned out in process (ARCHITECTURE section 3), and with
  // --watch-cache the resource kept in memory for reads.
  const customCacheSizes = new Map<string, number>();
  const storage = cachedStorage(opts, etcd, scheme, metrics, logger, customCacheSizes);
  try {
    return await serve(opts, logger, thread, { cert, domain, scheme, metrics, audit, etcd, storage, customCacheSizes });
  } catch (e) {
    // Whatever failed, the etcd client must not keep the process (or a test) alive.
    await Promise.allSettled([audit.stop(), storage.close()]);
    throw e;
  }
}

interface Assembled {
  cert: ReturnType<typeof servingCertificate>;
  domain: ReturnType<typeof apiDomain>;
  scheme: Scheme;
  metrics: APIServerMetrics;
  audit: ReturnType<typeof buildAudit>;
  etcd: Etcd3Storage;
  storage: ReturnType<typeof cachedStorage>;
  /** The watch cache sizes of the custom resources served, by storage prefix. */
  customCacheSizes: Map<string, number>;
}

/** Everything after the storage: stores, admission, authentication, authorization, the HTTPS server and its post-start hooks. */
async function serve(opts: APIServerOptions, logger: Logger, thread: ThreadRole | undefined, { cert, domain, scheme, metrics, audit, etcd, storage, customCacheSizes }: Assembled): Promise<RunningAPIServer> {
  metrics.countObjectsWith(async () => {
    const counts = new Map<string, number>();
    for (const r of scheme.resources()) counts.set(r.group ? `${r.resource}.${r.group}` : r.resource, await storage.count(r.storagePrefix));
    return counts;
  });
  await waitForEtcd(storage, opts.etcdServers, logger);
  logger.info('connected to etcd', { servers: opts.etcdServers.join(',') });
  const schemas = new SchemaValidator();
  const version = versionInfo();
  // Cluster IPs and node ports of Services, allocated in etcd so every server process agrees.
  let services: Store | undefined;
  const serviceAllocator = new ServiceAllocator(storage, IPRange.parse(opts.serviceClusterIPRange), PortRange.parse(opts.serviceNodePortRange), async (ns, name) => {
    try {
      return (await services!.get(ns, name)) as Service;
    } catch (e) {
      if ((e as { code?: number }).code === 404) return null;
      throw e;
    }
  });
  // Events vanish on their own --event-ttl after their last write, as upstream's do.
  const stores = buildStores(scheme, storage, schemas, kindValidations(domain, { allowPrivileged: opts.allowPrivileged }), {
    ttlSeconds: new Map([[storagePrefix('', 'events'), Math.max(1, Math.ceil(opts.eventTTLMs / 1000))]]),
    hooks: new Map([['/services', {
      beginCreate: (obj, dryRun) => serviceAllocator.beginCreate(obj as Service, dryRun),
      beginUpdate: (obj, old, dryRun) => serviceAllocator.beginUpdate(obj as Service, old as Service, dryRun),
      afterDelete: (obj) => serviceAllocator.release(obj as Service),
    }]]),
  });
  services = stores.get('/services');
  const serverAddress = `${opts.bindAddress === '0.0.0.0' ? '127.0.0.1' : opts.bindAddress}:${opts.securePort}`;
  const caches = new SharedCaches(stores, logger);
  // What discovery shows (pkg/endpoints/discovery-model.ts): the scheme's built-in and custom
  // resources; the aggregator adds its APIServices as another source.
  const discovery = new DiscoveryModel();
  discovery.add(schemeDiscoverySource(scheme), sourcePrecedence.builtIn);
  let namespacesMade: Promise<void> | undefined;
  const custom = customResources({
    scheme, storage, domain, stores, caches, logger, watchCacheSize: watchCacheSizeOf(opts), watchCacheSizes: customCacheSizes,
    ...(thread ? { watermark: thread.definitionsWatermark } : {}),
  });
  const answerCaches = thread?.answerCaches ?? localAnswerCaches;
  const authentication = await buildAuthentication(opts.authentication, {
    domain, stores, caches, tlsPrivateKeyFile: opts.tlsPrivateKeyFile, externalAddress: serverAddress, logger,
    answerCaches, ...(thread ? { tokenKeySalt: thread.tokenKeySalt } : {}),
  });
  const aggregator = buildAggregator({
    opts, domain, scheme, stores, caches, logger, maxRequestBodyBytes: MAX_BODY_BYTES, caFiles: authentication.caFiles,
    // One thread writes what the aggregator keeps in etcd; every thread proxies and reads.
    writer: !thread || thread.id === 1,
    // orch-system, upstream's kube-system.
    systemNamespace: async () => {
      await (namespacesMade ??= ensureSystemNamespaces(stores, logger));
      return BootstrapTokenNamespace;
    },
    retrying: (what, step) => retrying(what, step, logger),
  });
  if (aggregator) discovery.add(aggregator.documents, sourcePrecedence.aggregated);
  const authorization = await buildAuthorization(opts.authorization, { domain, stores, caches, answerCaches, logger });
  const decoder = new ObjectDecoder(schemas);
  const admission = await buildAdmission(opts.admission, {
    domain, stores, caches, logger, scheme, decoder, metrics: metrics.admission,
    ...(custom ? { customStore: custom.store } : {}),
    authorize: async (user, check) => {
      const d = await authorization.authorizer.authorize(resourceAttributes(user, check));
      return { allowed: d.decision === 'allow', reason: d.reason, ...(d.evaluationError ? { evaluationError: d.evaluationError } : {}) };
    },
  });
  // One type-checking status writer per server, as upstream runs one controller (in the leading
  // controller manager): the first thread, whose replacement keeps its id and catches up from its list.
  const policyStatus = thread === undefined || thread.id === 1
    ? startPolicyTypeChecking({ domain, stores, caches, scheme, objects: schemeObjectInterfaces(scheme, decoder), logger, ...(custom ? { customResources: custom.registry } : {}) })
    : undefined;
  let stopCompaction = () => undefined as void;
  let port = 0;
  const lifecycle = new Lifecycle([
    { name: 'start-system-namespaces', run: () => (namespacesMade ??= ensureSystemNamespaces(stores, logger)) },
    // Upstream's crd-informer-synced: the stored CustomResourceDefinitions are served.
    ...(custom ? [{ name: 'crd-informer-synced', run: () => retrying('serve the stored custom resources', () => custom.start(), logger) }] : []),
    // Upstream's bootstrap-controller: the `kubernetes` Service, its Endpoints and EndpointSlice, after the namespaces.
    {
      name: 'bootstrap-controller',
      run: async () => {
        if (!services) return; // core/v1 services disabled with --runtime-config
        await (namespacesMade ??= ensureSystemNamespaces(stores, logger));
        const m = { clusterIP: serviceAllocator.firstIP(), securePort: port, advertiseAddress: advertiseAddress(opts) };
        await retrying('reconcile the kubernetes Service', () => reconcileKubernetesService(services!, m), logger);
        await retrying('reconcile the kubernetes Endpoints', () => reconcileKubernetesEndpoints(storage, m, domain), logger);
        // discovery/v1 may be off with --runtime-config.
        if (stores.has(`${domain.group('discovery')}/endpointslices`)) {
          await retrying('reconcile the kubernetes EndpointSlice', () => reconcileKubernetesEndpointSlice(storage, m, domain), logger);
        }
      },
    },
    // What kubeadm writes upstream: cluster-info in orch-public, the server and the CA that verifies it.
    {
      name: 'bootstrap-cluster-info',
      run: async () => {
        const configMaps = stores.get('/configmaps');
        if (!configMaps) return; // core/v1 configmaps disabled with --runtime-config
        await (namespacesMade ??= ensureSystemNamespaces(stores, logger));
        const ca = servingCA(cert.cert, authentication.caFiles.clientCA);
        if (!ca.verified) logger.warn('no CA in --tls-cert-file or --client-ca-file verifies the serving certificate; cluster-info publishes the serving chain as given');
        const server = serverURL(advertiseAddress(opts), port);
        const kubeconfig = clusterInfoKubeconfig(server, ca.pem);
        await retrying('publish cluster-info', async () => {
          const done = await reconcileClusterInfo(configMaps, kubeconfig);
          if (done !== 'unchanged') logger.info(`${done} cluster-info`, { server });
        }, logger);
      },
    },
    ...(aggregator?.hooks ?? []),
    { name: 'scheduling/bootstrap-system-priority-classes', run: () => ensureSystemPriorityClasses(stores, domain.group('scheduling'), logger) },
    // Upstream's hook name: readyz reports poststarthook/rbac/bootstrap-roles until the policy is in.
    ...(authorization.rbac ? [{ name: 'rbac/bootstrap-roles', run: () => retrying('reconcile the bootstrap RBAC policy', () => authorization.reconcileBootstrapPolicy(), logger) }] : []),
    {
      name: 'start-storage-compaction',
      run: async () => {
        if (opts.etcdCompactionIntervalMs <= 0) return;
        stopCompaction = etcd.startCompaction(opts.etcdCompactionIntervalMs, {
          compacted: (revision) => logger.v(2).info('compacted etcd history', { revision }),
          failed: (err) => logger.warn('etcd compaction failed', { err: err instanceof Error ? err.message : String(err) }),
        });
      },
    },
  ], opts.livezGracePeriodMs);
  const kubelet = kubeletConnection(opts.kubelet);
  const ownDocs = lazyOpenAPIDocs(scheme, version, thread?.startedAt);
  const etcdCheck: HealthCheck = { name: 'etcd', check: async () => ((await storage.healthy()) ? undefined : 'etcd is not reachable') };
  const server: APIServer = new APIServer({
    bindAddress: opts.bindAddress,
    securePort: opts.securePort,
    cert,
    maxRequestsInflight: opts.maxRequestsInflight,
    maxMutatingRequestsInflight: opts.maxMutatingRequestsInflight,
    maxRequestBodyBytes: MAX_BODY_BYTES,
    api: newAPIHandler({
      scheme,
      discovery,
      stores,
      ...(custom ? { custom: custom.registry } : {}),
      decoder,
      schemas,
      protobuf: new ProtobufCodec(scheme),
      logger,
      serverAddress,
      requestTimeoutMs: opts.requestTimeoutMs,
      // The access reviews are answered by the configured authorizer chain and its rule resolvers.
      virtual: new Map([
        ...authentication.virtual,
        ...accessReviewHandlers(authorization.authorizer, authorization.ruleResolver, authorizationGroup(domain)),
        // A pod's binding (also POSTed as namespaces/<ns>/bindings) and eviction.
        ['/pods/binding', bindingHandler(() => stores.get('/pods'), true)],
        ['/bindings', bindingHandler(() => stores.get('/pods'), false)],
        ['/pods/eviction', evictionHandler(() => ({ pods: stores.get('/pods'), pdbs: stores.get('policy/poddisruptionbudgets') }))],
      ]),
      connecters: connecters(stores, kubelet),
      streams: new Map([['/pods/log', podLogGetter(connectStores(stores), kubelet)]]),
      writeChecks: (info) => authorization.writeChecks(info),
      authorizer: authorization.authorizer,
      admission,
      watch: {
        minRequestTimeoutSeconds: opts.minRequestTimeout,
        track: (stop) => server.trackLongRunning(stop),
        eventTally: (info) => metrics.watchEventTally(info.group, info.version, info.kind),
        logger,
        ...(opts.watchMaxBufferedBytes ? { maxBufferedBytes: opts.watchMaxBufferedBytes } : {}),
      },
    }),
    openapi: openAPIHandler(aggregator?.openapi(ownDocs) ?? ownDocs),
    healthChecks: [
      { name: 'ping', check: async () => undefined },
      { name: 'log', check: async () => undefined },
      etcdCheck,
    ],
    lifecycle,
    metrics,
    version,
    logger,
    authenticate: authentication.authenticate,
    authorizer: authorization.authorizer,
    ...(aggregator ? { proxy: aggregator.proxy } : {}),
    impersonation: (req, user) => impersonate(req, user, (a) => authorization.authorizer.authorize(a), { domain }),
    clientCAs: authentication.clientCAs,
    documents: authentication.documents,
    ...(audit.server ? { audit: audit.server } : {}),
    ...(thread ? {
      peerHealthChecks: () => thread.peerHealthChecks(), renderMetrics: () => thread.renderMetrics(), servedBy: String(thread.id), reusePort: true,
    } : {}),
  });
  thread?.serving(metrics);
  const runHooks = () => lifecycle.runPostStartHooks((name, err) => logger.error('post-start hook failed', { hook: name, err: err instanceof Error ? err.message : String(err) }));
  port = thread ? await thread.listenPort() : opts.securePort;
  // The thread that binds the port listens and then runs the post-start hooks, as upstream's server
  // does (readyz names the unfinished ones meanwhile). Every other thread, and a replacement, runs
  // them before it listens on the port already bound: it takes connections only once ready, so what
  // /readyz says does not depend on which thread the kernel hands a connection to.
  const hooksBeforeListening = thread !== undefined && port !== 0 && (thread.replacing || thread.id > 1);
  if (hooksBeforeListening) await runHooks();
  port = await server.start(port);
  thread?.listening(port);
  logger.info('serving securely', { address: `${opts.bindAddress}:${port}` });
  if (!hooksBeforeListening) await runHooks();
  // With --workers the main thread says when the whole server is ready.
  logger.info(thread ? 'the thread is ready' : 'the API server is ready', { address: `${opts.bindAddress}:${port}` });
  return {
    port,
    cert,
    stop: async () => {
      await server.shutdown({ delayMs: opts.shutdownDelayMs, drainMs: REQUEST_DRAIN_MS });
      stopCompaction();
      custom?.stop();
      aggregator?.stop();
      await authentication.stop();
      await authorization.stop();
      await policyStatus?.stop();
      await caches.stop();
      await audit.stop();
      await storage.close();
      logger.info('the API server stopped');
    },
  };
}
