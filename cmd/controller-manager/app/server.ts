// Runs the controller manager: its clients (own credentials, --kube-api-qps/-burst), the health and
// metrics endpoint, leader election, and — while leading — every enabled controller over one set
// of shared informers. As upstream's client builder, each controller talks through a client of its
// own (its own rate limit, its name in the user agent), so no controller's requests wait behind
// another's. In-process callers (tests) use runControllerManager as main.ts does.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { apiDomain } from '../../../api/domain.js';
import { groupVersions } from '../../../api/index.js';
import { Client } from '../../../pkg/client/client.js';
import { SharedInformerFactory } from '../../../pkg/client/informer-factory.js';
import { loadKubeconfig } from '../../../pkg/client/kubeconfig.js';
import { anonymousConfig, type RestConfig } from '../../../pkg/client/rest-config.js';
import type { TokenSource } from '../../../pkg/client/transport.js';
import type { ControllerContext } from '../../../pkg/controller/controller.js';
import { LegacyTokenGenerator } from '../../../pkg/controller/serviceaccounttoken/legacy-token.js';
import type { Logger } from '../../../pkg/log/logger.js';
import { Scheme } from '../../../pkg/runtime/scheme.js';
import { enabledControllers, upstreamControllerNames } from './controllers.js';
import { LeaderElector } from './leader-election.js';
import { loadSigningAuthority } from '../../../pkg/util/certificates/signing-authority.js';
import { signerFlagStems, signingFiles, systemNamespace, type ControllerManagerOptions } from './options.js';
import { ServiceAccountTokenSource } from './service-account-credentials.js';
import { startSecureServing } from './serving.js';

export interface RunningControllerManager {
  /** The port /healthz and /metrics are served on. */
  port: number;
  /** The serving certificate (self-signed). */
  cert: string;
  /** The leader election identity, `<hostname>_<uuid>`. */
  identity: string;
  /** Whether the controllers run now (always, without --leader-elect). */
  isLeading(): boolean;
  /** Resolves when the manager has ended: 'stopped' by stop(), 'lost' when it lost its lease. */
  done: Promise<'stopped' | 'lost'>;
  /**
   * Stops the controllers and the endpoint. `release` (the default, as on SIGTERM) gives the lease
   * up; `release: false` leaves it to expire, as a crashed process would.
   */
  stop(opts?: { release?: boolean }): Promise<void>;
}

function restConfig(o: ControllerManagerOptions): RestConfig {
  const base: RestConfig = o.kubeconfig ? loadKubeconfig(o.kubeconfig, { domain: o.apiDomain }).config : { server: o.master };
  return { ...base, ...(o.master ? { server: o.master } : {}), qps: o.kubeAPIQPS, burst: o.kubeAPIBurst, userAgent };
}

/** The manager's user agent; each of its clients adds its name, as upstream's `kube-controller-manager/.../namespace-controller`. */
const userAgent = 'controller-manager';

/** Starts the manager; rejects when it cannot start (unreadable kubeconfig, port taken, no root CA). */
export async function runControllerManager(o: ControllerManagerOptions, logger: Logger): Promise<RunningControllerManager> {
  const domain = apiDomain(o.apiDomain);
  const config = restConfig(o);
  const scheme = new Scheme(groupVersions(domain), domain);
  /**
   * A client named `name` (in its user agent), its rate limit scaled by `scale`; with `tokens`, it
   * connects as the config says but its user is whoever the tokens name.
   */
  const clientFor = (name: string, scale = { qps: 1, burst: 1 }, tokens?: TokenSource) => new Client({
    ...(tokens ? anonymousConfig(config) : config), userAgent: `${userAgent}/${name}`,
    ...(o.kubeAPIQPS > 0 ? { qps: o.kubeAPIQPS * scale.qps, burst: o.kubeAPIBurst * scale.burst } : {}),
  }, { scheme, ...(tokens ? { transport: { tokenSource: tokens } } : {}) });
  const client = clientFor('leader-election');
  const serviceAccountPrivateKey = o.serviceAccountPrivateKeyFile ? readFileSync(o.serviceAccountPrivateKeyFile, 'utf8') : undefined;
  if (o.useServiceAccountCredentials && !serviceAccountPrivateKey) logger.warn('--use-service-account-credentials was specified without providing a --service-account-private-key-file');
  if (serviceAccountPrivateKey) {
    try {
      new LegacyTokenGenerator(domain, serviceAccountPrivateKey);
    } catch (e) {
      client.close();
      throw new Error(`--service-account-private-key-file ${o.serviceAccountPrivateKeyFile}: ${(e as Error).message}`);
    }
  }
  // As upstream: without a signing key the token controller is skipped, not fatal; so is
  // csrsigning without any CA files. A CA that does not load stops the start, as upstream.
  const signers = signingFiles(o.csrSigning);
  const controllers = enabledControllers(o.controllers).filter((c) => {
    if (c.name === 'csrsigning' && Object.keys(signers).length === 0) {
      logger.info('Skipping CSR signer controller because no csr cert/key was specified', { controller: c.name });
      return false;
    }
    if (c.name !== 'serviceaccount-token' || serviceAccountPrivateKey) return true;
    logger.warn('controller is disabled because there is no private key (--service-account-private-key-file)', { controller: c.name });
    return false;
  });
  if (controllers.some((c) => c.name === 'csrsigning')) {
    for (const [signer, files] of Object.entries(signers)) {
      try {
        loadSigningAuthority(readFileSync(files.certFile, 'utf8'), readFileSync(files.keyFile, 'utf8'));
      } catch (e) {
        client.close();
        throw new Error(`csrsigning: the CA of the ${signerFlagStems[signer as keyof typeof signerFlagStems]} signer (${files.certFile}, ${files.keyFile}): ${(e as Error).message}`);
      }
    }
  }
  const rootCA = o.rootCAFile ? readFileSync(o.rootCAFile, 'utf8') : config.caData;
  if (!rootCA && controllers.some((c) => c.name === 'root-ca-cert-publisher')) {
    client.close();
    throw new Error('root-ca-cert-publisher needs a CA: give --root-ca-file or a kubeconfig whose cluster has a certificate authority');
  }
  const identity = `${hostname()}_${randomUUID()}`;
  const elector = o.leaderElect
    ? new LeaderElector(client, {
      group: domain.group('coordination'), namespace: o.leaseNamespace, name: o.leaseName, identity,
      leaseDurationMs: o.leaseDurationMs, renewDeadlineMs: o.renewDeadlineMs, retryPeriodMs: o.retryPeriodMs,
    }, logger)
    : undefined;

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const leaderGauge = new Gauge({
    name: 'leader_election_master_status',
    help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease.',
    labelNames: ['name'], registers: [registry],
  });
  const runningGauge = new Gauge({ name: 'running_managed_controllers', help: 'Indicates where instances of a controller are currently running', labelNames: ['name', 'manager'], registers: [registry] });
  leaderGauge.set({ name: o.leaseName }, elector ? 0 : 1);

  const tempCertDir = o.certDir ? undefined : mkdtempSync(join(tmpdir(), 'orch-controller-manager-'));
  let lost = false;
  const serving = await startSecureServing({
    bindAddress: o.bindAddress, port: o.securePort, certDir: o.certDir || tempCertDir!, registry,
    checks: [
      { name: 'ping', check: () => undefined },
      ...(elector ? [{ name: 'leaderElection', check: () => (lost || elector.overdue() ? 'the leader lease was not renewed in time' : undefined) }] : []),
    ],
  });
  logger.info('serving securely', { address: `${o.bindAddress}:${serving.port}`, endpoints: '/healthz, /metrics' });

  const stopping = new AbortController();
  let release = true;
  let leading = false;

  /** Runs every enabled controller until `signal` aborts; resolves once they and their informers stopped. */
  const runControllers = async (signal: AbortSignal) => {
    leading = true;
    // One frame up: each line names the place in the informer that reported, not this arrow.
    const informerLog = logger.withCallDepth(1);
    const informerClient = clientFor('shared-informers');
    const informers = new SharedInformerFactory(informerClient, { log: (m) => informerLog.warn(m, { component: 'informer' }) });
    // The manager's own client makes each controller's service account and asks for its tokens.
    const tokenClient = o.useServiceAccountCredentials ? clientFor('service-account-tokens') : undefined;
    const tokenSources = new Map<string, ServiceAccountTokenSource>();
    const tokensOf = (account: string | undefined) => {
      if (!tokenClient || !account) return undefined;
      let source = tokenSources.get(account);
      if (!source) tokenSources.set(account, (source = new ServiceAccountTokenSource(tokenClient, domain, systemNamespace, account)));
      return source;
    };
    const clients = controllers.map((r) => clientFor(upstreamControllerNames[r.name] ?? r.name, r.clientRateScale, tokensOf(r.serviceAccount)));
    const ctx: Omit<ControllerContext, 'client' | 'signal'> = {
      informers, domain, logger, ...(rootCA ? { rootCA } : {}),
      concurrency: (stem) => o.concurrency[stem] ?? 1,
    };
    // Each controller stops on a signal of its own, all aborted through one listener on `signal`: a
    // controller's listeners stay on its own signal, where a dozen controllers sharing one would trip
    // Node's leak warning and leave it unable to point at a real leak.
    const own = controllers.map(() => new AbortController());
    const stopAll = () => {
      for (const c of own) c.abort(signal.reason);
    };
    if (signal.aborted) stopAll();
    else signal.addEventListener('abort', stopAll, { once: true });
    // Every controller asks for its informers synchronously in run(), so one start() serves all.
    const running = controllers.map((r, i) => {
      logger.info('starting controller', { controller: r.name });
      runningGauge.set({ name: r.name, manager: 'controller-manager' }, 1);
      return r.factory({ options: o, ...(serviceAccountPrivateKey ? { serviceAccountPrivateKey } : {}) }).run({ ...ctx, client: clients[i]!, signal: own[i]!.signal }).catch((e: unknown) => {
        logger.error('controller failed', { controller: r.name, err: e instanceof Error ? e.message : String(e) });
      }).finally(() => runningGauge.set({ name: r.name, manager: 'controller-manager' }, 0));
    });
    if (controllers.length === 0) logger.warn('no controllers are enabled', { controllers: o.controllers.join(',') });
    informers.start();
    await Promise.all(running);
    await informers.shutdown();
    for (const c of [informerClient, ...clients]) c.close();
    tokenClient?.close();
    leading = false;
  };

  const main = async (): Promise<'stopped' | 'lost'> => {
    if (!elector) {
      await runControllers(stopping.signal);
      return 'stopped';
    }
    if (!(await elector.acquire(stopping.signal))) return 'stopped';
    leaderGauge.set({ name: o.leaseName }, 1);
    const term = new AbortController();
    const onStop = () => term.abort();
    stopping.signal.addEventListener('abort', onStop, { once: true });
    const controllersDone = runControllers(term.signal);
    const outcome = await elector.renew(stopping.signal);
    // Lost: stop at once, someone else may already be leading.
    if (outcome === 'lost') lost = true;
    term.abort();
    await controllersDone;
    leaderGauge.set({ name: o.leaseName }, 0);
    if (outcome === 'stopped' && release) await elector.release();
    return outcome;
  };
  const done = main().finally(() => client.close());

  let stopped: Promise<void> | undefined;
  return {
    port: serving.port,
    cert: serving.cert,
    identity,
    isLeading: () => leading,
    done,
    stop: (opts = {}) => (stopped ??= (async () => {
      release = opts.release ?? true;
      stopping.abort();
      await done;
      await serving.close();
      if (tempCertDir) rmSync(tempCertDir, { recursive: true, force: true });
    })()),
  };
}
