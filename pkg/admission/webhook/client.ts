// The HTTPS calls to admission webhooks (upstream's ClientManager): one client per distinct
// clientConfig and timeout, kept in a bounded cache; `clientConfig.url` is called as written,
// `clientConfig.service` as https://<svc>.<ns>.svc:<port><path> (the name the webhook's
// certificate must carry) connected to an endpoint of the Service. caBundle verifies the webhook,
// the host's roots when absent; credentials come from the admission configuration's kubeconfig.
// The timeout is also sent as the `timeout` query parameter, as upstream's client does.
import { WebhookCallError, WebhookClient } from '../../util/webhook/client.js';
import type { WebhookClientConfig as HttpClientConfig } from '../../util/webhook/kubeconfig.js';
import type { AuthenticationInfoResolver } from './authentication-info.js';
import { CallingWebhookError } from './errors.js';
import type { ServiceResolver } from './service-resolver.js';
import type { WebhookAccessor } from './types.js';

/** Upstream's client cache size. */
const cacheSize = 200;
/** An answer larger than this is a failed call. */
const maxResponseBytes = 10 * 1024 * 1024;
/** A client dropped from the cache is closed this long after, when no call can still be using it. */
const closeDelayMs = 60_000;

interface CachedClient {
  client: WebhookClient;
  /** The service to connect to instead of the URL's host, for `clientConfig.service`. */
  service?: { namespace: string; name: string; port: number };
  url: string;
}

export class WebhookClientManager {
  private readonly clients = new Map<string, CachedClient>();

  constructor(private readonly auth: AuthenticationInfoResolver, private readonly services: ServiceResolver) {}

  /**
   * POSTs `body` to the webhook and resolves with the answer's body (a 2xx answer); rejects with a
   * CallingWebhookError worded as upstream (`failed calling webhook "<name>": ...`).
   */
  async post(hook: WebhookAccessor, body: string): Promise<string> {
    const c = this.client(hook);
    let connectTo: { host: string; port: number } | undefined;
    if (c.service) {
      try {
        connectTo = await this.services.resolve(c.service.namespace, c.service.name, c.service.port);
      } catch (e) {
        throw new CallingWebhookError(hook.name, `failed to call webhook: Post ${JSON.stringify(c.url)}: ${e instanceof Error ? e.message : String(e)}`, 400);
      }
    }
    try {
      const res = await c.client.post(body, { timeoutMs: hook.timeoutSeconds * 1000, maxResponseBytes, secret: '', timeoutKind: 'context', ...(connectTo ? { connectTo } : {}) });
      return res.body;
    } catch (e) {
      // An answer the webhook gave (a non-2xx) counts with its own code; no answer counts as 400, as upstream.
      const code = e instanceof WebhookCallError && e.code !== undefined ? e.code : 400;
      throw new CallingWebhookError(hook.name, `failed to call webhook: ${e instanceof Error ? e.message : String(e)}`, code);
    }
  }

  private client(hook: WebhookAccessor): CachedClient {
    const cc = hook.webhook.clientConfig;
    const key = JSON.stringify({ url: cc.url, service: cc.service, caBundle: cc.caBundle, timeout: hook.timeoutSeconds });
    const hit = this.clients.get(key);
    if (hit) {
      // Most recently used last: the first entry is the one to drop.
      this.clients.delete(key);
      this.clients.set(key, hit);
      return hit;
    }
    const made = this.make(hook);
    this.clients.set(key, made);
    if (this.clients.size > cacheSize) {
      const [oldestKey, oldest] = this.clients.entries().next().value as [string, CachedClient];
      this.clients.delete(oldestKey);
      setTimeout(() => oldest.client.close(), closeDelayMs).unref();
    }
    return made;
  }

  private make(hook: WebhookAccessor): CachedClient {
    const cc = hook.webhook.clientConfig;
    const ca = cc.caBundle ? Buffer.from(cc.caBundle, 'base64').toString('utf8') : '';
    const timeout = `timeout=${hook.timeoutSeconds}s`;
    let url: string;
    let service: CachedClient['service'];
    let cfg: HttpClientConfig;
    if (cc.service) {
      const port = cc.service.port ?? 443;
      const serverName = `${cc.service.name}.${cc.service.namespace}.svc`;
      const path = cc.service.path ?? '/';
      url = `https://${serverName}:${port}${path.startsWith('/') ? path : `/${path}`}?${timeout}`;
      service = { namespace: cc.service.namespace, name: cc.service.name, port };
      cfg = { server: url, insecureSkipTLSVerify: false, serverName, ...this.auth.forService(cc.service.name, cc.service.namespace, port) };
    } else if (cc.url) {
      let parsed: URL;
      try {
        parsed = new URL(cc.url);
      } catch (e) {
        throw new CallingWebhookError(hook.name, `Unparsable URL: ${e instanceof Error ? e.message : String(e)}`, 400);
      }
      url = `${cc.url}${parsed.search ? '&' : '?'}${timeout}`;
      cfg = { server: url, insecureSkipTLSVerify: false, ...this.auth.forURL(parsed) };
    } else {
      throw new CallingWebhookError(hook.name, 'webhook configuration must have either service or URL', 400);
    }
    if (ca) cfg.ca = ca;
    return { client: new WebhookClient(cfg, { userAgent: 'orch-apiserver-admission' }), url, ...(service ? { service } : {}) };
  }
}
