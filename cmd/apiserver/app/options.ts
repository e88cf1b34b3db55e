// Command-line flags of the API server, named as kube-apiserver names them.
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import yargs from 'yargs';
import { IPRange, PortRange } from '../../../pkg/registry/core/service/ranges.js';
import { apiDomain, invalidApiDomain, type ApiDomain } from '../../../api/domain.js';
import type { GroupVersionRegistration } from '../../../api/registration.js';
import { applyRuntimeConfig, parseRuntimeConfig } from '../../../pkg/runtime/runtime-config.js';
import { parseDuration } from '../../../pkg/util/duration.js';
import { completeAuthorizationOptions, validateAuthorizationOptions, type AuthorizationOptions } from '../../../pkg/authorization/modes.js';
import { authenticationFlags, authenticationOptionsFrom, validateAuthenticationOptions, type AuthenticationOptions } from './authentication-options.js';
import { authorizationFlags, authorizationOptionsFrom } from './authorization-options.js';
import { admissionFlags, admissionOptionsFrom, validateAdmissionOptions, type AdmissionOptions } from './admission-options.js';
import { aggregatorFlags, aggregatorOptionsFrom, validateAggregatorOptions, type AggregatorOptions } from './aggregator-options.js';
import { kubeletFlags, kubeletOptionsFrom, validateKubeletOptions, type KubeletOptions } from './kubelet-options.js';
import { parseWatchCacheSizes } from './watch-cache-options.js';
import { auditFlags, auditOptionsFrom, validateAuditOptions, type AuditOptions } from './audit-options.js';
import { exitOnVersionFlag, versionFlagDefinition } from '../../internal/version-flag.js';

export interface APIServerOptions {
  securePort: number;
  bindAddress: string;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  certDir: string;
  etcdServers: string[];
  etcdPrefix: string;
  /** --etcd-cafile, --etcd-certfile, --etcd-keyfile: client TLS toward etcd ('' when not given). */
  etcdCAFile: string;
  etcdCertFile: string;
  etcdKeyFile: string;
  /** Milliseconds between compactions of etcd history; 0 disables. */
  etcdCompactionIntervalMs: number;
  /** --watch-cache: reads that allow it are served from memory (pkg/storage/cacher). */
  watchCache: boolean;
  /** --watch-cache-sizes as given: resource[.group]#size entries (0 keeps a resource out of the cache). */
  watchCacheSizes: string[];
  /** Milliseconds events are kept after their last write (--event-ttl). */
  eventTTLMs: number;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  minRequestTimeout: number;
  /** Milliseconds a request that is not long-running may take at most (--request-timeout); writes at most 34 s of it. */
  requestTimeoutMs: number;
  verbosity: number;
  /** --runtime-config as given: key[=value],... */
  runtimeConfig: string;
  /** Milliseconds after start during which livez passes unfinished post-start hooks. */
  livezGracePeriodMs: number;
  /** Milliseconds the server keeps serving after SIGTERM while readyz fails. */
  shutdownDelayMs: number;
  /** The platform's domain (--api-domain): group names, media types, annotation keys and finalizers derive from it. */
  apiDomain: string;
  /** --service-cluster-ip-range: the CIDR Services take their cluster IPs from. */
  serviceClusterIPRange: string;
  /** --service-node-port-range: the ports NodePort and LoadBalancer Services take their node ports from. */
  serviceNodePortRange: string;
  /** --advertise-address: the IP the `kubernetes` Service's endpoints point at; empty picks one from --bind-address. */
  advertiseAddress: string;
  /** --allow-privileged: privileged containers pass validation (refused by cluster policy otherwise). */
  allowPrivileged: boolean;
  authentication: AuthenticationOptions;
  authorization: AuthorizationOptions;
  admission: AdmissionOptions;
  kubelet: KubeletOptions;
  audit: AuditOptions;
  aggregator: AggregatorOptions;
  /**
   * Not a flag (kube-apiserver has none): a watcher whose connection holds more unsent bytes than
   * this is closed as too slow; default 4 MiB. Tests lower it.
   */
  watchMaxBufferedBytes?: number;
  /** --workers: threads of this process serving the API on the shared port; 1 serves from the main thread alone. */
  workers: number;
}

/** The value `parse` reads from the flags; a malformed flag stops the binary with its message. */
function flagged<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    process.stderr.write(`Error: ${(e as Error).message}\n\nRun 'apiserver --help' for usage.\n`);
    return process.exit(1);
  }
}

/** Parses argv; prints help or an error and exits on bad flags, as a CLI should. */
export function parseOptions(argv: string[]): APIServerOptions {
  const parsed = aggregatorFlags(auditFlags(kubeletFlags(admissionFlags(authorizationFlags(authenticationFlags(yargs(argv)))))))
    .scriptName('apiserver')
    .usage('$0 [flags]\n\nThe orch API server: validates and configures data for the API objects and serves the REST API over HTTPS, keeping every object in etcd.')
    .parserConfiguration({ 'camel-case-expansion': false, 'strip-aliased': true, 'boolean-negation': false })
    .option('secure-port', { type: 'number', default: 6443, describe: 'The port on which to serve HTTPS. Must be 1-65535 (0 picks a free port, for tests).', group: 'Secure serving:' })
    .option('bind-address', { type: 'string', default: '0.0.0.0', describe: 'The IP address on which to listen for the --secure-port port.', group: 'Secure serving:' })
    .option('tls-cert-file', { type: 'string', default: '', describe: 'File containing the default x509 certificate for HTTPS (CA certificates, if any, concatenated after it). If neither this nor --tls-private-key-file is given, a self-signed certificate is generated in --cert-dir.', group: 'Secure serving:' })
    .option('tls-private-key-file', { type: 'string', default: '', describe: 'File containing the default x509 private key matching --tls-cert-file.', group: 'Secure serving:' })
    .option('cert-dir', { type: 'string', default: '/var/run/orch', describe: 'The directory where the generated TLS certificate is kept. Ignored if --tls-cert-file and --tls-private-key-file are given.', group: 'Secure serving:' })
    .option('etcd-servers', { type: 'string', array: true, default: [] as string[], describe: 'List of etcd servers to connect with (scheme://ip:port), comma separated.', group: 'Etcd:' })
    .option('etcd-prefix', { type: 'string', default: '/registry', describe: 'The prefix to prepend to all resource paths in etcd.', group: 'Etcd:' })
    .option('etcd-cafile', { type: 'string', default: '', describe: 'SSL Certificate Authority file used to secure etcd communication.', group: 'Etcd:' })
    .option('etcd-certfile', { type: 'string', default: '', describe: 'SSL certification file used to secure etcd communication.', group: 'Etcd:' })
    .option('etcd-keyfile', { type: 'string', default: '', describe: 'SSL key file used to secure etcd communication.', group: 'Etcd:' })
    .option('etcd-compaction-interval', { type: 'string', default: '5m0s', describe: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.', group: 'Etcd:' })
    .option('watch-cache', { type: 'boolean', default: true, describe: 'Keep each resource in memory, fed by its etcd watch, and answer watches, resourceVersion=0 and not-older-than reads, and consistent lists once confirmed current, from there.', group: 'Etcd:' })
    .option('watch-cache-sizes', { type: 'string', array: true, default: [] as string[], describe: 'Per-resource watch cache settings, comma separated, each resource[.group]#size: resource is the lowercase plural, group is left out for the core (v1) group, and size is how many recent events of the resource are kept for watches that start behind. A size of 0 keeps that resource out of the cache.', group: 'Etcd:' })
    .option('event-ttl', { type: 'string', default: '1h0m0s', describe: 'Amount of time to retain events.', group: 'Etcd:' })
    .option('max-requests-inflight', { type: 'number', default: 400, describe: 'The maximum number of non-mutating requests in flight at a given time; above it the server answers 429. Zero for no limit.', group: 'Generic:' })
    .option('max-mutating-requests-inflight', { type: 'number', default: 200, describe: 'The maximum number of mutating requests in flight at a given time; above it the server answers 429. Zero for no limit.', group: 'Generic:' })
    .option('min-request-timeout', { type: 'number', default: 1800, describe: 'Minimum number of seconds a watch may stay open; the default watch timeout is randomised between this and twice this.', group: 'Generic:' })
    .option('request-timeout', { type: 'string', default: '1m0s', describe: 'An optional field indicating the duration a handler must keep a request open before timing it out. This is the default request timeout for requests but may be overridden by flags such as --min-request-timeout for specific types of requests.', group: 'Generic:' })
    .option('livez-grace-period', { type: 'string', default: '0s', describe: 'This option represents the maximum amount of time it should take for apiserver to complete its startup sequence and become live. From apiserver\'s start time to when this amount of time has elapsed, /livez will assume that unfinished post-start hooks will complete successfully and therefore return true.', group: 'Generic:' })
    .option('shutdown-delay-duration', { type: 'string', default: '0s', describe: 'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure. Graceful termination starts after this delay has elapsed. This can be used to allow load balancer to stop sending traffic to this server.', group: 'Generic:' })
    .option('runtime-config', { type: 'string', default: '', describe: "A set of key=value pairs that enable or disable built-in APIs: api/all, api/ga, api/beta, api/alpha, <group>/<version> (the core group as v1) and <group>/<version>/<resource>, each =true or =false (a missing value means true). Alpha and beta versions are off unless enabled.", group: 'API enablement:' })
    .option('api-domain', { type: 'string', default: 'orch.io', describe: 'The platform domain every API group name (rbac.authorization.<domain>, storage.<domain>, ...), the protobuf media type, annotation keys, finalizers and label prefixes are derived from. With k8s.io the server speaks upstream Kubernetes names (application/vnd.kubernetes.protobuf, kubernetes.io/ keys).', group: 'API enablement:' })
    .option('advertise-address', { type: 'string', default: '', describe: 'The IP address on which to advertise the apiserver to members of the cluster (the endpoints of the kubernetes Service). This address must be reachable by the rest of the cluster. If blank, the --bind-address will be used; if that is 0.0.0.0, the first non-loopback IPv4 address of the host, else 127.0.0.1.', group: 'Generic:' })
    .option('service-cluster-ip-range', { type: 'string', default: '10.0.0.0/24', describe: 'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods.', group: 'Networking:' })
    .option('service-node-port-range', { type: 'string', default: '30000-32767', describe: 'A port range to reserve for services with NodePort visibility. This must not overlap with the ephemeral port range on nodes. Example: \'30000-32767\'. Inclusive at both ends of the range.', group: 'Networking:' })
    .option('allow-privileged', { type: 'boolean', default: false, describe: 'If true, allow privileged containers (securityContext.privileged) in pods and in the pod templates of workloads; otherwise they are refused as disallowed by cluster policy.', group: 'Misc:' })
    .option('workers', { type: 'number', default: availableParallelism(), defaultDescription: 'the number of cores', describe: 'The number of threads serving the API, each a full API server with its own caches on the same etcd, all on the secure port (SO_REUSEPORT) in this one process, which shares among them one audit log, one cache per authentication and authorization webhook, and /metrics, and replaces a thread that dies. 1 serves from the main thread alone.', group: 'Generic:' })
    .option('v', { type: 'number', default: 0, describe: 'Number for the log level verbosity.', group: 'Logging:' })
    .strictOptions()
    .help('help')
    .alias('help', 'h')
    .version(false)
    .option('version', versionFlagDefinition)
    .wrap(Math.min(120, process.stdout.columns || 100))
    .fail((msg, err, y) => {
      process.stderr.write(`Error: ${msg ?? err?.message}\n\nRun 'apiserver --help' for usage.\n`);
      void y;
      process.exit(1);
    })
    .parseSync();
  exitOnVersionFlag('apiserver', parsed.version);
  const duration = (flag: 'etcd-compaction-interval' | 'event-ttl' | 'request-timeout' | 'livez-grace-period' | 'shutdown-delay-duration') => {
    try {
      return parseDuration(parsed[flag]);
    } catch (e) {
      process.stderr.write(`Error: --${flag}: ${(e as Error).message}\n\nRun 'apiserver --help' for usage.\n`);
      return process.exit(1);
    }
  };
  const opts: APIServerOptions = {
    securePort: parsed['secure-port'],
    bindAddress: parsed['bind-address'],
    tlsCertFile: parsed['tls-cert-file'],
    tlsPrivateKeyFile: parsed['tls-private-key-file'],
    certDir: parsed['cert-dir'],
    etcdServers: parsed['etcd-servers'].flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean),
    etcdPrefix: parsed['etcd-prefix'],
    etcdCAFile: parsed['etcd-cafile'],
    etcdCertFile: parsed['etcd-certfile'],
    etcdKeyFile: parsed['etcd-keyfile'],
    etcdCompactionIntervalMs: duration('etcd-compaction-interval'),
    eventTTLMs: duration('event-ttl'),
    watchCache: parsed['watch-cache'],
    watchCacheSizes: parsed['watch-cache-sizes'].flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean),
    maxRequestsInflight: parsed['max-requests-inflight'],
    maxMutatingRequestsInflight: parsed['max-mutating-requests-inflight'],
    minRequestTimeout: parsed['min-request-timeout'],
    requestTimeoutMs: duration('request-timeout'),
    verbosity: parsed.v,
    runtimeConfig: parsed['runtime-config'],
    livezGracePeriodMs: duration('livez-grace-period'),
    shutdownDelayMs: duration('shutdown-delay-duration'),
    apiDomain: parsed['api-domain'],
    serviceClusterIPRange: parsed['service-cluster-ip-range'],
    serviceNodePortRange: parsed['service-node-port-range'],
    advertiseAddress: parsed['advertise-address'],
    allowPrivileged: parsed['allow-privileged'],
    authentication: flagged(() => authenticationOptionsFrom(parsed)),
    authorization: flagged(() => authorizationOptionsFrom(parsed)),
    admission: admissionOptionsFrom(parsed),
    kubelet: kubeletOptionsFrom(parsed),
    audit: flagged(() => auditOptionsFrom(parsed)),
    aggregator: aggregatorOptionsFrom(parsed),
    workers: parsed.workers,
  };
  return opts;
}

/** What the server has code for, which some flags must match. */
export interface ServerCode {
  /** Every group, version and resource the server can serve (api/index.ts). */
  groupVersions(domain: ApiDomain): GroupVersionRegistration[];
  /** The admission plug-ins it can run (pkg/admission/builtin.ts). */
  admissionPlugins: readonly string[];
}

/** Loads every kind's schema and every admission plug-in, for validateOptions. */
export async function loadServerCode(): Promise<ServerCode> {
  const [{ groupVersions }, { builtinPlugins }] = await Promise.all([import('../../../api/index.js'), import('../../../pkg/admission/builtin.js')]);
  return { groupVersions, admissionPlugins: builtinPlugins().registered() };
}

/**
 * Checks the options for mistakes an operator should hear about before anything starts.
 *
 * `code` names what the server can serve and run, which the keys of --runtime-config and the
 * admission plug-ins left on must match. Loading it costs every kind's schema and every plug-in,
 * so the main thread of `--workers`, which serves nothing itself, passes none: it checks the syntax
 * of --runtime-config and the plug-in names only, and each worker thread checks the rest
 * (worker-thread.ts), the main thread reporting a refusal exactly as it reports its own (threads.ts).
 */
export function validateOptions(o: APIServerOptions, code?: ServerCode): string[] {
  const errs: string[] = [];
  if (o.etcdServers.length === 0) errs.push('--etcd-servers must be specified');
  for (const s of o.etcdServers) if (!/^https?:\/\/[^/]+$/.test(s)) errs.push(`--etcd-servers: ${JSON.stringify(s)} is not of the form scheme://host:port`);
  if (!Number.isInteger(o.securePort) || o.securePort < 0 || o.securePort > 65535) errs.push('--secure-port must be between 0 and 65535, inclusive');
  if (!!o.tlsCertFile !== !!o.tlsPrivateKeyFile) errs.push('--tls-cert-file and --tls-private-key-file must be given together');
  if (!!o.etcdCertFile !== !!o.etcdKeyFile) errs.push('--etcd-certfile and --etcd-keyfile must be given together');
  if (!o.etcdPrefix.startsWith('/')) errs.push('--etcd-prefix must start with /');
  if (o.etcdCompactionIntervalMs < 0) errs.push('--etcd-compaction-interval must not be negative');
  if (o.eventTTLMs <= 0) errs.push('--event-ttl must be greater than 0');
  try {
    parseWatchCacheSizes(o.watchCacheSizes);
  } catch (e) {
    errs.push(`--watch-cache-sizes: ${(e as Error).message}`);
  }
  if (o.requestTimeoutMs <= 0) errs.push('--request-timeout must be greater than 0');
  if (o.livezGracePeriodMs < 0) errs.push('--livez-grace-period must not be negative');
  if (o.shutdownDelayMs < 0) errs.push('--shutdown-delay-duration must not be negative');
  for (const [flag, parse] of [['--service-cluster-ip-range', () => IPRange.parse(o.serviceClusterIPRange)], ['--service-node-port-range', () => PortRange.parse(o.serviceNodePortRange)]] as const) {
    try {
      parse();
    } catch (e) {
      errs.push(`${flag}: ${(e as Error).message}`);
    }
  }
  if (o.advertiseAddress && isIP(o.advertiseAddress) === 0) errs.push(`--advertise-address: ${JSON.stringify(o.advertiseAddress)} is not a valid IP address`);
  errs.push(...validateAuthenticationOptions(o.authentication));
  errs.push(...validateAuthorizationOptions(completeAuthorizationOptions(o.authorization)));
  errs.push(...validateAdmissionOptions(o.admission, o.apiDomain, code?.admissionPlugins));
  errs.push(...validateKubeletOptions(o.kubelet));
  errs.push(...validateAggregatorOptions(o.aggregator));
  errs.push(...validateAuditOptions(o.audit, o.apiDomain));
  const badDomain = invalidApiDomain(o.apiDomain);
  if (badDomain) errs.push(`--api-domain: ${badDomain}`);
  try {
    if (!badDomain) {
      const entries = parseRuntimeConfig(o.runtimeConfig);
      if (code) applyRuntimeConfig(code.groupVersions(apiDomain(o.apiDomain)), entries);
    }
  } catch (e) {
    errs.push(`--runtime-config: ${(e as Error).message}`);
  }
  if (!Number.isInteger(o.workers) || o.workers < 1) errs.push('--workers must be a positive integer');
  for (const [name, v] of [['--max-requests-inflight', o.maxRequestsInflight], ['--max-mutating-requests-inflight', o.maxMutatingRequestsInflight], ['--min-request-timeout', o.minRequestTimeout]] as const) {
    if (!Number.isInteger(v) || v < 0) errs.push(`${name} must be a non-negative integer`);
  }
  return errs;
}
