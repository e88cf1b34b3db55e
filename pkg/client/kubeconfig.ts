// A kubeconfig file to a RestConfig, as client-go's clientcmd loads one: the current context (or
// the one asked for) picks a cluster, a user and a namespace; relative file names are relative to
// the file's directory; `*-data` fields win over their file fields; a user authenticates with a
// client certificate, a token or token file, basic auth, or an exec plug-in (spec 5.11). Problems
// are refused with client-go's messages, all at once.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve, sep } from 'node:path';
import { defaultApiDomain } from '../../api/domain.js';
import { aggregate, fileReader, fromBase64, isObj, named, parseDocument, readAuthInfo, str, type Obj } from '../util/kubeconfig/document.js';
import { execAPIVersions, execExtensionName, type ExecConfig, type ExecInteractiveMode } from './exec-config.js';
import type { ExecClusterInfo, RestConfig } from './rest-config.js';

export interface KubeconfigOverrides {
  /** Use this context instead of current-context (kubectl's --context). */
  context?: string;
  /** Use this cluster or user instead of the context's (--cluster, --user). */
  cluster?: string;
  user?: string;
  /** The namespace instead of the context's (--namespace). */
  namespace?: string;
  /** The platform domain naming the ExecCredential group; orch.io when absent. */
  domain?: string;
}

export interface LoadedKubeconfig {
  config: RestConfig;
  /** The context's namespace, `default` when it names none. */
  namespace: string;
  contextName: string;
  clusterName: string;
  userName: string;
}

const interactiveModes: readonly ExecInteractiveMode[] = ['Never', 'IfAvailable', 'Always'];

/** users[].user.exec, validated as clientcmd's validateAuthInfo (v1beta1's interactiveMode defaults to IfAvailable). */
function readExec(exec: Obj, userName: string, path: (p: string) => string, domain: string, errs: string[]): ExecConfig {
  const where = `users[${userName}].user.exec`;
  const apiVersion = str(exec, 'apiVersion', where);
  const command = str(exec, 'command', where);
  if (!apiVersion) errs.push(`apiVersion must be specified for ${userName} to use exec authentication plugin`);
  else if (!execAPIVersions(domain).includes(apiVersion)) errs.push(`exec plugin: invalid apiVersion "${apiVersion}"`);
  if (!command) errs.push(`command must be specified for ${userName} to use exec authentication plugin`);
  const args = exec.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new Error(`${where}.args: expected a list of strings`);
  const envList = exec.env ?? [];
  if (!Array.isArray(envList)) throw new Error(`${where}.env: expected a list`);
  const env = envList.map((e, i) => {
    if (!isObj(e)) throw new Error(`${where}.env[${i}]: expected an object`);
    const name = str(e, 'name', `${where}.env[${i}]`);
    if (!name) errs.push(`env variable name must be specified for ${userName} to use exec authentication plugin`);
    return { name, value: str(e, 'value', `${where}.env[${i}]`) };
  });
  const provide = exec.provideClusterInfo ?? false;
  if (typeof provide !== 'boolean') throw new Error(`${where}.provideClusterInfo: expected a boolean`);
  let mode = str(exec, 'interactiveMode', where);
  if (!mode && apiVersion.endsWith('/v1beta1')) mode = 'IfAvailable';
  if (!mode) errs.push(`interactiveMode must be specified for ${userName} to use exec authentication plugin`);
  else if (!interactiveModes.includes(mode as ExecInteractiveMode)) errs.push(`invalid interactiveMode for ${userName}: "${mode}"`);
  return {
    // Only a name with a separator is a path; a bare name is looked up on PATH when run.
    command: command.includes('/') || command.includes(sep) ? path(command) : command,
    args: args as string[],
    env,
    apiVersion,
    installHint: str(exec, 'installHint', where),
    provideClusterInfo: provide,
    interactiveMode: (mode || 'IfAvailable') as ExecInteractiveMode,
  };
}

/** Parses kubeconfig text; `baseDir` resolves relative file names. Throws on what clientcmd refuses. */
export function parseKubeconfig(text: string, baseDir: string, overrides: KubeconfigOverrides = {}): LoadedKubeconfig {
  const domain = overrides.domain ?? defaultApiDomain.name;
  const doc = parseDocument(text, 'kubeconfig');
  const clusters = named(doc, 'clusters', 'cluster');
  const users = named(doc, 'users', 'user');
  const contexts = named(doc, 'contexts', 'context');
  const contextName = overrides.context || str(doc, 'current-context', 'kubeconfig');
  const errs: string[] = [];
  const context = contexts.get(contextName);
  if (!contextName && !overrides.cluster) throw aggregate(['no context chosen: current-context is not set and no context was given']);
  if (contextName && !context) errs.push(`context was not found for specified context: ${contextName}`);
  const clusterName = overrides.cluster || (context ? str(context, 'cluster', `contexts[${contextName}]`) : '');
  const userName = overrides.user || (context ? str(context, 'user', `contexts[${contextName}]`) : '');
  const cluster = clusters.get(clusterName);
  if (!cluster) errs.push(`cluster "${clusterName}" was not found for context "${contextName}"`);
  const user = users.get(userName);
  if (userName && !user) errs.push(`user "${userName}" was not found for context "${contextName}"`);
  const namespace = overrides.namespace || (context ? str(context, 'namespace', `contexts[${contextName}]`) : '') || 'default';
  const { path, readFile } = fileReader(baseDir, errs);

  const c = cluster ?? {};
  const cw = `clusters[${clusterName}].cluster`;
  const server = str(c, 'server', cw);
  if (cluster && !server) errs.push(`no server found for cluster "${clusterName}"`);
  const caFile = str(c, 'certificate-authority', cw);
  const caData = fromBase64(c, 'certificate-authority-data', cw);
  if (caFile && caData) errs.push(`certificate-authority-data and certificate-authority are both specified for ${clusterName}. certificate-authority-data will override.`);
  const insecure = c['insecure-skip-tls-verify'] ?? false;
  if (typeof insecure !== 'boolean') throw new Error(`${cw}.insecure-skip-tls-verify: expected a boolean`);
  const ca = caData || (caFile ? readFile(caFile, 'certificate-authority') : '');
  if (insecure && ca) errs.push('specifying a root certificates file with the insecure flag is not allowed');
  const tlsServerName = str(c, 'tls-server-name', cw);
  const proxyURL = str(c, 'proxy-url', cw);

  const u = user ?? {};
  const auth = readAuthInfo(u, userName, readFile, errs);
  let exec: ExecConfig | undefined;
  if (u.exec !== undefined && u.exec !== null) {
    if (!isObj(u.exec)) throw new Error(`users[${userName}].user.exec: expected an object`);
    exec = readExec(u.exec, userName, path, domain, errs);
  }
  if (errs.length) throw aggregate(errs);

  try {
    const url = new URL(server);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw new Error(`invalid server URL ${JSON.stringify(server)} for cluster "${clusterName}": an https or http URL is needed`);
  }

  const config: RestConfig = { server };
  if (ca) config.caData = ca;
  if (insecure) config.insecureSkipTLSVerify = true;
  if (tlsServerName) config.tlsServerName = tlsServerName;
  if (auth.cert) config.certData = auth.cert;
  if (auth.key) config.keyData = auth.key;
  if (auth.token) config.bearerToken = auth.token;
  else if (auth.tokenFile) config.bearerTokenFile = path(auth.tokenFile);
  if (auth.username || auth.password) {
    config.username = auth.username;
    config.password = auth.password;
  }
  if (exec) {
    config.exec = exec;
    const info: ExecClusterInfo = { server };
    if (tlsServerName) info.tlsServerName = tlsServerName;
    if (insecure) info.insecureSkipTLSVerify = true;
    if (ca) info.certificateAuthorityData = ca;
    if (proxyURL) info.proxyURL = proxyURL;
    const extension = named(c, 'extensions', 'extension').get(execExtensionName(domain));
    if (extension) info.config = extension;
    config.execCluster = info;
  }
  return { config, namespace, contextName, clusterName, userName };
}

/** Reads and parses a kubeconfig file (see parseKubeconfig). */
export function loadKubeconfig(file: string, overrides: KubeconfigOverrides = {}): LoadedKubeconfig {
  return parseKubeconfig(readFileSync(file, 'utf8'), dirname(resolve(file)), overrides);
}

/** The file a client reads without --kubeconfig: the first of $KUBECONFIG, else ~/.kube/config. */
export function defaultKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const first = (env.KUBECONFIG ?? '').split(delimiter).find((p) => p !== '');
  return first ?? join(homedir(), '.kube', 'config');
}
