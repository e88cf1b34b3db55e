// The --authentication-token-webhook-config-file and --authorization-webhook-config-file: a kubeconfig naming the remote service
// (clusters[].cluster) and the API server's credentials for it (users[].user), loaded as
// upstream's webhook client loads it (client-go clientcmd with no overrides): the
// current-context selects the cluster and user, relative file names are relative to the
// kubeconfig's directory, and the same combinations are refused at start-up. Without a
// current-context nothing is selected, so upstream refuses the file; so do we.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { aggregate, fileReader, fromBase64, named, parseDocument as parseKubeconfig, readAuthInfo, str, tokenFileSource, type AuthInfo } from '../kubeconfig/document.js';

const parseDocument = (text: string) => parseKubeconfig(text, 'webhook kubeconfig');

/** What the webhook client needs to reach the service. Holds credentials: never log it. */
export interface WebhookClientConfig extends WebhookCredentials {
  /** The URL reviews (TokenReviews, SubjectAccessReviews) are POSTed to, exactly as configured (path included). */
  server: string;
  /** PEM bundle to verify the service with; the host's roots when absent. */
  ca?: string;
  insecureSkipTLSVerify: boolean;
  /** tls-server-name: the name to verify the serving certificate for, instead of the URL's host. */
  serverName?: string;
}

/** A kubeconfig user's credentials (users[].user) once read. Holds secrets: never log it. */
export interface WebhookCredentials {
  /** PEM client certificate and key. */
  cert?: string;
  key?: string;
  /** The bearer token (token, or tokenFile read again at most once a minute, as client-go does). */
  bearerToken?: () => string;
  basicAuth?: { username: string; password: string };
}

/** The credentials of a user read without problems; throws for a client key pair TLS refuses. */
function credentialsOf(a: AuthInfo, userName: string, path: (p: string) => string, now: () => number): WebhookCredentials {
  const out: WebhookCredentials = {};
  if (a.cert || a.key) {
    try {
      createSecureContext({ cert: a.cert, key: a.key });
    } catch (e) {
      throw new Error(`invalid client certificate or key for ${userName}: ${e instanceof Error ? e.message : String(e)}`);
    }
    out.cert = a.cert;
    out.key = a.key;
  }
  if (a.token) {
    const token = a.token;
    out.bearerToken = () => token;
  } else if (a.tokenFile) {
    out.bearerToken = tokenFileSource(path(a.tokenFile), now);
  }
  if (a.username || a.password) out.basicAuth = { username: a.username, password: a.password };
  return out;
}

/** Parses kubeconfig text; `baseDir` resolves relative file names. Throws on what upstream refuses. */
export function parseWebhookKubeconfig(text: string, baseDir: string, now: () => number = Date.now): WebhookClientConfig {
  const doc = parseDocument(text);
  const clusters = named(doc, 'clusters', 'cluster');
  const users = named(doc, 'users', 'user');
  const contexts = named(doc, 'contexts', 'context');
  const contextName = str(doc, 'current-context', 'kubeconfig');
  const errs: string[] = [];
  const context = contexts.get(contextName);
  if (contextName && !context) errs.push(`context was not found for specified context: ${contextName}`);
  const clusterName = context ? str(context, 'cluster', `contexts[${contextName}]`) : '';
  const userName = context ? str(context, 'user', `contexts[${contextName}]`) : '';
  const cluster = clusters.get(clusterName) ?? {};
  const user = users.get(userName) ?? {};
  const { path, readFile } = fileReader(baseDir, errs);
  const authInfo = readAuthInfo(user, userName, readFile, errs);

  // clusters[].cluster, validated as client-go's validateClusterInfo.
  const cw = `clusters[${clusterName}].cluster`;
  const server = str(cluster, 'server', cw);
  const caFile = str(cluster, 'certificate-authority', cw);
  const caData = fromBase64(cluster, 'certificate-authority-data', cw);
  const insecure = cluster['insecure-skip-tls-verify'];
  if (insecure !== undefined && insecure !== null && typeof insecure !== 'boolean') throw new Error(`${cw}.insecure-skip-tls-verify: expected a boolean`);
  const serverName = str(cluster, 'tls-server-name', cw);
  if (Object.keys(cluster).length === 0) {
    if (errs.length === 0) throw aggregate(['no configuration has been provided']);
    errs.push('cluster has no server defined');
  } else if (!server) {
    errs.push(clusterName ? `no server found for cluster ${JSON.stringify(clusterName)}` : 'default cluster has no server defined');
  }
  if (caFile && caData) errs.push(`certificate-authority-data and certificate-authority are both specified for ${clusterName}. certificate-authority-data will override.`);
  const ca = caData || (caFile ? readFile(caFile, 'certificate-authority') : '');
  if (errs.length) throw aggregate(errs);

  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`invalid server URL ${JSON.stringify(server)} in the webhook kubeconfig`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`invalid server URL ${JSON.stringify(server)}: the scheme must be https or http`);
  if (insecure === true && ca) throw new Error('specifying a root certificates file with the insecure flag is not allowed');
  const creds = credentialsOf(authInfo, userName, path, now);

  const out: WebhookClientConfig = { server, insecureSkipTLSVerify: insecure === true, ...creds };
  if (ca) out.ca = ca;
  if (serverName) out.serverName = serverName;
  return out;
}

/** Every user of a kubeconfig by name, and the current context's user name ('' when none). */
export interface KubeconfigUsers {
  users: ReadonlyMap<string, WebhookCredentials>;
  currentUser: string;
}

/**
 * Reads the users of a kubeconfig (the admission webhooks' credentials file, where users are named
 * for the webhooks they authenticate to); each is validated as client-go validates a user. Clusters
 * are not read.
 */
export function parseKubeconfigUsers(text: string, baseDir: string, now: () => number = Date.now): KubeconfigUsers {
  const doc = parseDocument(text);
  const users = named(doc, 'users', 'user');
  const contexts = named(doc, 'contexts', 'context');
  const contextName = str(doc, 'current-context', 'kubeconfig');
  const context = contexts.get(contextName);
  const currentUser = context ? str(context, 'user', `contexts[${contextName}]`) : '';
  const errs: string[] = [];
  const { path, readFile } = fileReader(baseDir, errs);
  const read = [...users].map(([name, user]) => [name, readAuthInfo(user, name, readFile, errs)] as const);
  if (errs.length) throw aggregate(errs);
  return { users: new Map(read.map(([name, a]) => [name, credentialsOf(a, name, path, now)])), currentUser };
}

/** Reads and parses a kubeconfig of webhook credentials (see parseKubeconfigUsers). */
export function loadKubeconfigUsers(file: string, now: () => number = Date.now): KubeconfigUsers {
  return parseKubeconfigUsers(readFileSync(file, 'utf8'), dirname(resolve(file)), now);
}

/** Reads and parses the file named by --authentication-token-webhook-config-file or --authorization-webhook-config-file. */
export function loadWebhookKubeconfig(file: string, now: () => number = Date.now): WebhookClientConfig {
  return parseWebhookKubeconfig(readFileSync(file, 'utf8'), dirname(resolve(file)), now);
}
