// The HTTP(S) connection to the API server for one RestConfig: TLS from the config, the user's
// credentials on every request (client certificate, bearer token or token file, basic auth, or an
// exec plug-in's), the client-side rate limit, and client-go's retry of answers that carry
// Retry-After. When an exec plug-in hands out another certificate or key, the old connections are
// closed and new ones made with it (spec 5.11).
import { createHash } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tokenFileSource } from '../util/kubeconfig/document.js';
import { ExecCredentialProvider, type ExecCredentials, type ExecProviderOptions } from './exec-credential.js';
import { defaultBurst, defaultQPS, type RestConfig } from './rest-config.js';
import { TokenBucket } from '../util/token-bucket.js';

export interface HttpRequest {
  method: string;
  /** Path and query below the server URL's path prefix, e.g. `/api/v1/namespaces?limit=5`. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Bearer tokens from code rather than from the config (client-go's oauth2 TokenSource, as the
 * controller manager's per-controller service account tokens): asked before every request, in
 * place of any credentials the config holds, and told when a token was refused.
 */
export interface TokenSource {
  token(): Promise<string>;
  /** The server answered 401 to `token`: the next token() should not hand it out again. */
  refused(token: string): void;
}

export interface TransportOptions {
  exec?: ExecProviderOptions;
  tokenSource?: TokenSource;
  /** How many times an answer with Retry-After (429, 5xx) is retried; client-go's 10 when absent. */
  maxRetries?: number;
}

/** client-go's User-Agent shape: name/version (os/arch). */
const defaultUserAgent = `orch-client/v0.1.0 (${process.platform}/${process.arch})`;

/** The credentials of one request, kept so a 401 can be traced back to what was sent. */
interface Credentials {
  token?: string;
  basic?: string;
  cert?: string;
  key?: string;
  exec?: ExecCredentials;
  /** The token came from the transport's TokenSource. */
  sourced?: boolean;
}

export class Transport {
  private readonly url: URL;
  private readonly limiter: TokenBucket;
  private readonly exec: ExecCredentialProvider | undefined;
  private readonly tokenSource: (() => string) | undefined;
  private readonly sourcedTokens: TokenSource | undefined;
  private agent: HttpAgent | undefined;
  private agentKey = '';
  private readonly maxRetries: number;
  private closed = false;

  constructor(readonly config: RestConfig, options: TransportOptions = {}) {
    this.url = new URL(config.server);
    this.limiter = new TokenBucket(config.qps ?? defaultQPS, config.burst ?? defaultBurst);
    this.exec = config.exec ? new ExecCredentialProvider(config.exec, config.execCluster, options.exec) : undefined;
    if (config.bearerToken) {
      const token = config.bearerToken;
      this.tokenSource = () => token;
    } else if (config.bearerTokenFile) {
      this.tokenSource = tokenFileSource(config.bearerTokenFile);
    }
    this.sourcedTokens = options.tokenSource;
    this.maxRetries = options.maxRetries ?? 10;
  }

  private async credentials(): Promise<Credentials> {
    if (this.sourcedTokens) return { token: await this.sourcedTokens.token(), sourced: true };
    const out: Credentials = {};
    if (this.config.certData && this.config.keyData) {
      out.cert = this.config.certData;
      out.key = this.config.keyData;
    }
    if (this.tokenSource) out.token = this.tokenSource();
    else if (this.config.username || this.config.password) {
      out.basic = Buffer.from(`${this.config.username ?? ''}:${this.config.password ?? ''}`).toString('base64');
    }
    if (this.exec) {
      // As client-go: the plug-in's credentials take the place of the kubeconfig's own.
      const e = await this.exec.credentials();
      out.exec = e;
      if (e.token) out.token = e.token;
      if (e.certData && e.keyData) {
        out.cert = e.certData;
        out.key = e.keyData;
      }
    }
    return out;
  }

  /** The agent for this client certificate; a changed certificate closes the old agent's connections. */
  private agentFor(c: Credentials): HttpAgent {
    const key = c.cert ? createHash('sha256').update(c.cert).update('\0').update(c.key ?? '').digest('hex') : '';
    if (this.agent && key === this.agentKey) return this.agent;
    this.agent?.destroy();
    this.agentKey = key;
    if (this.url.protocol === 'http:') {
      this.agent = new HttpAgent({ keepAlive: true });
    } else {
      this.agent = new HttpsAgent({
        keepAlive: true,
        ...(this.config.caData ? { ca: this.config.caData } : {}),
        ...(c.cert ? { cert: c.cert, key: c.key } : {}),
        ...(this.config.tlsServerName ? { servername: this.config.tlsServerName } : {}),
        rejectUnauthorized: !this.config.insecureSkipTLSVerify,
      });
    }
    return this.agent;
  }

  private open(req: HttpRequest, c: Credentials, timeoutMs: number): Promise<IncomingMessage> {
    if (this.closed) return Promise.reject(new Error('the client is closed'));
    const headers: Record<string, string> = { 'User-Agent': this.config.userAgent ?? defaultUserAgent, ...req.headers };
    if (c.token) headers.Authorization = `Bearer ${c.token}`;
    else if (c.basic) headers.Authorization = `Basic ${c.basic}`;
    if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
    const prefix = this.url.pathname.replace(/\/+$/, '');
    const send = this.url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const r = send({
        protocol: this.url.protocol,
        hostname: this.url.hostname.replace(/^\[|\]$/g, ''),
        port: this.url.port || (this.url.protocol === 'http:' ? 80 : 443),
        method: req.method,
        path: prefix + req.path,
        headers,
        agent: this.agentFor(c),
        ...(req.signal ? { signal: req.signal } : {}),
      }, (res) => {
        if (res.statusCode === 401 && c.exec) this.exec?.unauthorized(c.exec);
        if (res.statusCode === 401 && c.sourced && c.token) this.sourcedTokens?.refused(c.token);
        resolve(res);
      });
      r.on('error', reject);
      if (timeoutMs > 0) r.setTimeout(timeoutMs, () => r.destroy(new Error(`request timed out after ${timeoutMs}ms`)));
      r.end(req.body);
    });
  }

  /** One request, its whole answer read; 429 and 5xx answers with Retry-After are retried after the wait they ask for. */
  async do(req: HttpRequest): Promise<HttpResponse> {
    for (let attempt = 0; ; attempt++) {
      await this.limiter.wait(req.signal);
      const c = await this.credentials();
      const res = await this.open(req, c, this.config.timeoutMs ?? 0);
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      const status = res.statusCode ?? 0;
      const retryAfter = res.headers['retry-after'];
      if ((status === 429 || status >= 500) && retryAfter && /^\d+$/.test(retryAfter) && attempt < this.maxRetries) {
        await sleep(Number(retryAfter) * 1000, req.signal);
        continue;
      }
      return { status, headers: res.headers, body: Buffer.concat(chunks) };
    }
  }

  /** A request whose answer is read as it arrives (a watch); the caller consumes or destroys it. */
  async stream(req: HttpRequest): Promise<IncomingMessage> {
    await this.limiter.wait(req.signal);
    const c = await this.credentials();
    // No per-request timeout on a stream: the server ends a watch at its timeoutSeconds.
    return this.open(req, c, 0);
  }

  /** Closes every connection; later requests fail. */
  close(): void {
    this.closed = true;
    this.agent?.destroy();
    this.agent = undefined;
  }
}

/** Waits `ms`; rejects when `signal` aborts first. Either way its listener leaves the signal. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
