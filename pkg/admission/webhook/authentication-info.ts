// The API server's credentials for admission webhooks (spec 10, rule 6): the plug-ins'
// WebhookAdmissionConfiguration (from --admission-control-config-file) names a kubeconfig whose
// users are named for the webhooks they authenticate to. A user is found for a webhook as
// upstream's resolver finds it: the exact `<host>:<port>` (for a service `<svc>.<ns>.svc:<port>`),
// then `*.<suffix>` wildcards, then both again without a :443, then the lone `*`, then the
// kubeconfig's current context; none means no credentials.
import { isAbsolute } from 'node:path';
import { loadKubeconfigUsers, type KubeconfigUsers, type WebhookCredentials } from '../../util/webhook/kubeconfig.js';

/** The configuration group/versions and kinds upstream registers for the plug-ins' configuration. */
const kinds: Record<string, string> = { v1: 'WebhookAdmissionConfiguration', v1alpha1: 'WebhookAdmission' };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The kubeconfig file the plug-in's configuration names ('' when there is no configuration).
 * Accepts apiserver.config.<domain> and upstream's apiserver.config.k8s.io; the path must be absolute.
 */
export function webhookKubeconfigFile(configuration: unknown, domain: string): string {
  if (configuration === undefined || configuration === null) return '';
  if (!isObj(configuration)) throw new Error('the webhook admission configuration must be an object');
  const apiVersion = typeof configuration['apiVersion'] === 'string' ? configuration['apiVersion'] : '';
  const kind = typeof configuration['kind'] === 'string' ? configuration['kind'] : '';
  const json = JSON.stringify(configuration);
  if (!kind) throw new Error(`Object 'Kind' is missing in '${json}'`);
  if (!apiVersion) throw new Error(`Object 'apiVersion' is missing in '${json}'`);
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
  if (![`apiserver.config.${domain}`, 'apiserver.config.k8s.io'].includes(group) || kinds[version] !== kind) {
    throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  const file = configuration['kubeConfigFile'];
  if (file !== undefined && file !== null && typeof file !== 'string') throw new Error('kubeConfigFile: must be a string');
  const path = file ?? '';
  if (!isAbsolute(path)) throw new Error(`kubeConfigFile: Invalid value: ${JSON.stringify(path)}: must be an absolute file path`);
  return path;
}

/** Finds the credentials for a webhook's host and port (upstream's defaultAuthenticationInfoResolver). */
export class AuthenticationInfoResolver {
  private readonly users: KubeconfigUsers;

  constructor(users: KubeconfigUsers = { users: new Map(), currentUser: '' }) {
    this.users = users;
  }

  /** Reads the kubeconfig at `file` ('' means no credentials for any webhook). */
  static fromFile(file: string): AuthenticationInfoResolver {
    return new AuthenticationInfoResolver(file ? loadKubeconfigUsers(file) : undefined);
  }

  /** For `clientConfig.url`: the URL's host and port (443 when the URL names none). */
  forURL(url: URL): WebhookCredentials {
    return this.find(`${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${url.port || '443'}`);
  }

  /** For `clientConfig.service`: `<name>.<namespace>.svc:<port>`. */
  forService(name: string, namespace: string, port: number): WebhookCredentials {
    return this.find(`${name}.${namespace}.svc:${port}`);
  }

  private find(target: string): WebhookCredentials {
    const users = this.users.users;
    const byNameOrWildcard = (t: string): WebhookCredentials | undefined => {
      const exact = users.get(t);
      if (exact) return exact;
      const steps = t.split('.');
      for (let i = 1; i < steps.length; i++) {
        const wildcard = users.get(`*.${steps.slice(i).join('.')}`);
        if (wildcard) return wildcard;
      }
      return undefined;
    };
    const found = byNameOrWildcard(target);
    if (found) return found;
    if (target.endsWith(':443')) {
      const withoutPort = byNameOrWildcard(target.slice(0, -':443'.length).replace(/^\[(.*)\]$/, '$1'));
      if (withoutPort) return withoutPort;
    }
    return users.get('*') ?? (this.users.currentUser ? users.get(this.users.currentUser) : undefined) ?? {};
  }
}
