// Command-line flags of the join command, named as `kubeadm join`'s token discovery and TLS
// bootstrap flags are, so an operator's habits carry over.
import { hostname } from 'node:os';
import yargs from 'yargs';
import { invalidApiDomain } from '../../../api/domain.js';
import { BootstrapTokenPattern } from '../../../api/core/v1/bootstrap-token.js';
import { parseDuration } from '../../../pkg/util/duration.js';

export interface JoinOptions {
  /** `https://host:port` of the API server, from the positional `host:port` (or URL). */
  server: string;
  /** Holds a credential: never log it. `<token-id>.<token-secret>`. */
  token: string;
  /** `sha256:<hex>` pins of the cluster CA's public key; any one must match. */
  caCertHashes: string[];
  /** Trust cluster-info's CA on the token's signature alone. */
  unsafeSkipCAVerification: boolean;
  nodeName: string;
  /** Where the node's kubeconfig, with the issued certificate and its key, is written. */
  kubeconfig: string;
  /** How long to wait for cluster-info and for the request to be approved and signed. */
  timeoutMs: number;
  apiDomain: string;
  verbosity: number;
}

function usageError(message: string): never {
  process.stderr.write(`Error: ${message}\n\nRun 'join --help' for usage.\n`);
  return process.exit(1);
}

/** `host:port` or an https URL, as a URL with no path. */
export function serverURL(endpoint: string): string {
  const withScheme = /^[a-z]+:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`;
  const u = new URL(withScheme);
  if (u.protocol !== 'https:') throw new Error(`the API server endpoint ${JSON.stringify(endpoint)} must use https`);
  return `https://${u.host}`;
}

export function parseOptions(argv: string[]): JoinOptions {
  const parsed = yargs(argv)
    .scriptName('join')
    .usage('$0 <api-server-endpoint> --token <token> [flags]\n\nJoins a machine to the cluster with a bootstrap token: verifies the cluster-info the cluster publishes with the token, asks for a node client certificate with a CertificateSigningRequest, waits until it is approved and signed, and writes a kubeconfig that authenticates as system:node:<node-name>.')
    .parserConfiguration({ 'camel-case-expansion': false, 'strip-aliased': true, 'boolean-negation': false })
    .option('token', { type: 'string', default: '', describe: 'The bootstrap token (<token-id>.<token-secret>) used both to verify cluster-info and to authenticate the certificate request.' })
    .option('discovery-token-ca-cert-hash', { type: 'string', array: true, default: [] as string[], describe: "For token-based discovery, validate that the root CA public key matches this hash (format: \"sha256:<hex>\")." })
    .option('discovery-token-unsafe-skip-ca-verification', { type: 'boolean', default: false, describe: 'For token-based discovery, allow joining without --discovery-token-ca-cert-hash pinning.' })
    .option('node-name', { type: 'string', default: hostname().toLowerCase(), describe: 'The node name: the issued certificate is for system:node:<node-name>.' })
    .option('kubeconfig', { type: 'string', default: '/etc/orch/kubelet.conf', describe: 'Where to write the kubeconfig holding the issued client certificate and its key.' })
    .option('timeout', { type: 'string', default: '5m0s', describe: 'How long to wait for cluster-info and for the certificate to be issued.' })
    .option('api-domain', { type: 'string', default: 'orch.io', describe: 'The platform domain the API server was started with (--api-domain).' })
    .option('v', { type: 'number', default: 0, describe: 'Number for the log level verbosity.' })
    .strictOptions()
    .help('help')
    .alias('help', 'h')
    .version(false)
    .fail((msg, err) => usageError(msg ?? err?.message ?? 'bad flags'))
    .parseSync() as Record<string, unknown> & { _: unknown[] };
  const positional = parsed._.map(String);
  if (positional.length !== 1) usageError('exactly one API server endpoint (host:port) must be given');
  let server: string;
  let timeoutMs: number;
  try {
    server = serverURL(positional[0]!);
    timeoutMs = parseDuration(String(parsed.timeout));
  } catch (e) {
    return usageError((e as Error).message);
  }
  return {
    server,
    token: String(parsed.token),
    caCertHashes: (parsed['discovery-token-ca-cert-hash'] as string[]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean),
    unsafeSkipCAVerification: Boolean(parsed['discovery-token-unsafe-skip-ca-verification']),
    nodeName: String(parsed['node-name']),
    kubeconfig: String(parsed.kubeconfig),
    timeoutMs,
    apiDomain: String(parsed['api-domain']),
    verbosity: Number(parsed.v),
  };
}

/** Mistakes to refuse before anything is sent; never repeats the token. */
export function validateOptions(o: JoinOptions): string[] {
  const errs: string[] = [];
  if (!BootstrapTokenPattern.test(o.token)) errs.push('--token: the token does not match the required format "[a-z0-9]{6}.[a-z0-9]{16}"');
  if (o.caCertHashes.length === 0 && !o.unsafeSkipCAVerification) {
    errs.push('--discovery-token-ca-cert-hash is required unless --discovery-token-unsafe-skip-ca-verification is given (the CA would otherwise be trusted on the token alone)');
  }
  for (const h of o.caCertHashes) if (!/^sha256:[0-9a-f]{64}$/i.test(h)) errs.push(`--discovery-token-ca-cert-hash: ${JSON.stringify(h)} must be "sha256:" followed by 64 hex digits`);
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(o.nodeName) || o.nodeName.length > 253) errs.push(`--node-name: ${JSON.stringify(o.nodeName)} must be a lowercase DNS subdomain`);
  if (!o.kubeconfig) errs.push('--kubeconfig must name a file');
  if (!(o.timeoutMs > 0)) errs.push('--timeout must be greater than 0');
  const badDomain = invalidApiDomain(o.apiDomain);
  if (badDomain) errs.push(`--api-domain: ${badDomain}`);
  return errs;
}
