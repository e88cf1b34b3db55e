// One POST of a JSON body to a webhook (the token webhook, the authorization webhook), with the kubeconfig's TLS and credentials, an
// absolute timeout (upstream's webhook client: 30s including the body) and a size limit on the
// answer. Errors are worded as client-go words them and say whether upstream's retry policy
// (DefaultShouldRetry) would try again: connection resets, 429, 5xx read as InternalError or
// Timeout, and any 429/5xx carrying a Retry-After.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { WebhookClientConfig } from './kubeconfig.js';

export class WebhookCallError extends Error {
  constructor(
    message: string,
    /** Whether upstream's DefaultShouldRetry would retry this failure. */
    readonly retryable: boolean,
    /** The HTTP code of a non-2xx answer (a Status answer's own code); undefined when there was no answer. */
    readonly code?: number,
  ) {
    super(message);
  }
}

export interface WebhookResponse {
  status: number;
  body: string;
}

export interface PostOptions {
  timeoutMs: number;
  maxResponseBytes: number;
  /** Text that must never appear in an error (the token under review); replaced before any message is built. '' when nothing is secret. */
  secret: string;
  /**
   * Where to connect instead of the URL's host and port (a service's endpoint); the URL's host
   * still names the server in the Host header, in TLS and in messages.
   */
  connectTo?: { host: string; port: number };
  /**
   * How a timeout is worded: `client` as client-go's own timeout (the default), `context` as a
   * deadline of the caller's context (the admission webhooks' timeoutSeconds).
   */
  timeoutKind?: 'client' | 'context';
}

/** client-go caps the text of an unstructured error answer at this many bytes. */
const maxErrorTextBytes = 2048;

function redact(text: string, secret: string): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}

/** The URL as shown in messages: never with credentials in it. */
function shownURL(server: string): string {
  try {
    const u = new URL(server);
    // As written (URL would drop a :443 Go keeps), unless it carries credentials.
    if (!u.username && !u.password) return server;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '<invalid URL>';
  }
}

/** The message and retry decision client-go and DefaultShouldRetry give a non-2xx answer. */
export function classifyStatus(status: number, contentType: string, body: string, retryAfter: string | undefined, secret: string): WebhookCallError {
  const retryAfterSeconds = retryAfter && /^\d+$/.test(retryAfter) && (status === 429 || status >= 500) ? Number(retryAfter) : 0;
  // A Status object in the body is the server's own account of the error: use its reason and message.
  try {
    const s = JSON.parse(body) as { kind?: unknown; message?: unknown; reason?: unknown; details?: { retryAfterSeconds?: unknown } };
    if (s && s.kind === 'Status') {
      const reason = typeof s.reason === 'string' ? s.reason : '';
      const detailsRetry = typeof s.details?.retryAfterSeconds === 'number' ? s.details.retryAfterSeconds : 0;
      const retry = ['InternalError', 'Timeout', 'TooManyRequests', 'ServerTimeout'].includes(reason) || status === 429 || detailsRetry > 0 || retryAfterSeconds > 0;
      const msg = typeof s.message === 'string' && s.message ? s.message : `the server responded with the status code ${status} but did not return more information`;
      const code = typeof (s as { code?: unknown }).code === 'number' && (s as { code: number }).code !== 0 ? (s as { code: number }).code : status;
      return new WebhookCallError(redact(msg, secret), retry, code);
    }
  } catch {
    // not JSON: an unstructured answer
  }
  const text = contentType.toLowerCase().startsWith('text/') ? redact(body, secret).slice(0, maxErrorTextBytes).trim() : 'unknown';
  let message = `the server responded with the status code ${status} but did not return more information`;
  let retry = retryAfterSeconds > 0;
  switch (status) {
    case 400:
      message = 'the server rejected our request for an unknown reason';
      break;
    case 401:
      message = 'the server has asked for the client to provide credentials';
      break;
    case 403:
      message = text;
      break;
    case 404:
      message = 'the server could not find the requested resource';
      break;
    case 405:
      message = 'the server does not allow this method on the requested resource';
      break;
    case 409:
      message = 'the server reported a conflict';
      break;
    case 422:
      message = 'the server rejected our request due to an error in our request';
      break;
    case 429:
      message = 'the server has received too many requests and has asked us to try again later';
      retry = true;
      break;
    case 503:
      message = 'the server is currently unable to handle the request';
      break;
    case 504:
      message = 'the server was unable to return a response in the time allotted, but may still be processing the request';
      retry = true;
      break;
    default:
      if (status >= 500) {
        message = `an error on the server (${JSON.stringify(text)}) has prevented the request from succeeding`;
        retry = true;
      }
  }
  return new WebhookCallError(message, retry, status);
}

export class WebhookClient {
  private readonly agent: HttpAgent | HttpsAgent;
  private readonly url: URL;
  private readonly shown: string;

  private readonly userAgent: string;

  /** `userAgent` names the caller to the service; the token authenticator's by default. */
  constructor(private readonly cfg: WebhookClientConfig, opts: { userAgent?: string } = {}) {
    this.userAgent = opts.userAgent ?? 'orch-apiserver/webhook-token-authenticator';
    this.url = new URL(cfg.server);
    this.shown = shownURL(cfg.server);
    this.agent =
      this.url.protocol === 'https:'
        ? new HttpsAgent({
            keepAlive: true,
            ...(cfg.ca ? { ca: cfg.ca } : {}),
            ...(cfg.cert ? { cert: cfg.cert, key: cfg.key } : {}),
            ...(cfg.serverName ? { servername: cfg.serverName } : {}),
            rejectUnauthorized: !cfg.insecureSkipTLSVerify,
          })
        : new HttpAgent({ keepAlive: true });
  }

  /** POSTs `body`; resolves a 2xx answer, rejects with a WebhookCallError otherwise. Never leaks `secret`. */
  post(body: string, opts: PostOptions): Promise<WebhookResponse> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, */*',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': this.userAgent,
    };
    const token = this.cfg.bearerToken?.();
    if (token) headers.authorization = `Bearer ${token}`;
    else if (this.cfg.basicAuth) headers.authorization = `Basic ${Buffer.from(`${this.cfg.basicAuth.username}:${this.cfg.basicAuth.password}`).toString('base64')}`;
    const request = this.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const target = opts.connectTo ? { hostname: opts.connectTo.host, port: opts.connectTo.port } : {};
    if (opts.connectTo) headers.host = this.url.host;
    return new Promise((resolve, reject) => {
      let settled = false;
      let stage = 'awaiting headers';
      const fail = (err: WebhookCallError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(err);
      };
      const req = request(this.url, { method: 'POST', agent: this.agent, headers, ...target, ...(opts.connectTo ? { servername: this.cfg.serverName ?? this.url.hostname } : {}) }, (res: IncomingMessage) => {
        stage = 'reading body';
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > opts.maxResponseBytes) fail(new WebhookCallError(`the webhook response exceeds ${opts.maxResponseBytes} bytes`, false));
          else chunks.push(c);
        });
        res.on('error', (e) => fail(new WebhookCallError(`Post ${JSON.stringify(this.shown)}: ${redact(e.message, opts.secret).trim()}`, false)));
        res.on('end', () => {
          if (settled) return;
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          if (status < 200 || status > 299) {
            const retryAfter = res.headers['retry-after'];
            fail(classifyStatus(status, String(res.headers['content-type'] ?? ''), text, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, opts.secret));
            return;
          }
          settled = true;
          clearTimeout(timer);
          resolve({ status, body: text });
        });
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        // upstream retries only connection resets (and lost HTTP/2 connections), not refusals or TLS errors
        fail(new WebhookCallError(`Post ${JSON.stringify(this.shown)}: ${redact(e.message, opts.secret).trim()}`, e.code === 'ECONNRESET'));
      });
      const timer = setTimeout(
        () => fail(new WebhookCallError(`Post ${JSON.stringify(this.shown)}: context deadline exceeded${opts.timeoutKind === 'context' ? '' : ` (Client.Timeout exceeded while ${stage})`}`, false)),
        opts.timeoutMs,
      );
      req.end(body);
    });
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}
