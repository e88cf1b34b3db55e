// A plain HTTPS client for tests, verifying the server's certificate like a real client does.
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** Response bodies are whatever JSON the server sent; tests assert on their shape. */
type Json = any;

export interface Response<T = Json> {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: T;
}

export interface RequestOpts {
  body?: unknown;
  /** A raw body, sent as it is. */
  raw?: string | Buffer;
  contentType?: string;
  /** Extra request headers; a list sends the header once per value. */
  headers?: Record<string, string | string[]>;
  /** A client certificate for this request only (a fresh connection is made for each request anyway). */
  tls?: ClientCertificate;
}

/** A client certificate presented in the TLS handshake. */
export interface ClientCertificate {
  /** PEM certificate, followed by any intermediates the server should see. */
  cert: string;
  /** PEM private key of the certificate. */
  key: string;
}

/** What a client presents on every request: a client certificate and/or headers (e.g. Authorization). */
export interface ClientCredentials {
  tls?: ClientCertificate;
  headers?: Record<string, string | string[]>;
}

export interface WatchEvent {
  type: string;
  object: Json;
}

export interface WatchStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Resolves with the next event, or undefined when the stream ended. */
  next(timeoutMs?: number): Promise<WatchEvent | undefined>;
  /** Collects events until `count` arrived or the timeout passed. */
  take(count: number, timeoutMs?: number): Promise<WatchEvent[]>;
  ended(): boolean;
  close(): void;
}

export class Client {
  constructor(
    readonly baseUrl: string,
    private readonly ca: string,
    private readonly credentials: ClientCredentials = {},
  ) {}

  /** The same server, spoken to with these credentials on every request (none: anonymous). */
  withCredentials(credentials: ClientCredentials): Client {
    return new Client(this.baseUrl, this.ca, credentials);
  }

  /** The same server with `Authorization: Bearer <token>` on every request. */
  withToken(token: string): Client {
    return this.withCredentials({ headers: { Authorization: `Bearer ${token}` } });
  }

  private options(method: string, path: string, headers: Record<string, string | string[]>, tls?: ClientCertificate): RequestOptions {
    const url = new URL(path, this.baseUrl);
    const cert = tls ?? this.credentials.tls;
    return {
      method, hostname: url.hostname, port: url.port, path: url.pathname + url.search, ca: this.ca,
      headers: { ...this.credentials.headers, ...headers }, agent: false,
      ...(cert ? { cert: cert.cert, key: cert.key } : {}),
    };
  }

  async request(method: string, path: string, opts: RequestOpts = {}): Promise<Response> {
    const headers: Record<string, string | string[]> = { Accept: 'application/json', ...opts.headers };
    let payload: Buffer | undefined;
    if (opts.raw !== undefined) payload = Buffer.from(opts.raw);
    else if (opts.body !== undefined) payload = Buffer.from(JSON.stringify(opts.body));
    if (payload) {
      headers['Content-Type'] = opts.contentType ?? 'application/json';
      headers['Content-Length'] = String(payload.length);
    }
    return new Promise((resolve, reject) => {
      const req = httpsRequest(this.options(method, path, headers, opts.tls), (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  get(path: string, opts?: RequestOpts) { return this.request('GET', path, opts); }

  /** A GET whose response is handed over unread, paused: the caller reads it (or not) as it likes. */
  openStream(path: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(this.options('GET', path, { Accept: 'application/json', ...headers }), (res) => {
        res.pause();
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** A GET whose body is kept as bytes (protobuf, watch streams that end). */
  getRaw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(this.options('GET', path, headers), (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }
  post(path: string, body: unknown, opts?: RequestOpts) { return this.request('POST', path, { ...opts, body }); }
  put(path: string, body: unknown, opts?: RequestOpts) { return this.request('PUT', path, { ...opts, body }); }
  delete(path: string, opts?: RequestOpts) { return this.request('DELETE', path, opts); }
  patch(path: string, body: unknown, contentType = 'application/merge-patch+json') {
    return this.request('PATCH', path, { body, contentType });
  }

  /** Opens a watch and parses its newline-delimited JSON events. */
  watch(path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(this.options('GET', path, { Accept: 'application/json', ...headers }), (res) => {
        const queue: WatchEvent[] = [];
        const waiters: ((e: WatchEvent | undefined) => void)[] = [];
        let buf = '';
        let done = false;
        const push = (e: WatchEvent | undefined) => {
          const w = waiters.shift();
          if (w) w(e);
          else if (e) queue.push(e);
        };
        res.on('data', (c: Buffer) => {
          buf += c.toString('utf8');
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i).trim();
            buf = buf.slice(i + 1);
            if (line) push(JSON.parse(line) as WatchEvent);
          }
        });
        const end = () => {
          if (done) return;
          done = true;
          if (buf.trim() && res.statusCode !== 200) {
            push({ type: 'HTTP', object: JSON.parse(buf) });
          }
          while (waiters.length) waiters.shift()!(undefined);
        };
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
        const stream: WatchStream = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          ended: () => done && queue.length === 0,
          next: (timeoutMs = 10_000) => {
            const e = queue.shift();
            if (e) return Promise.resolve(e);
            if (done) return Promise.resolve(undefined);
            return new Promise((r) => {
              const t = setTimeout(() => {
                const idx = waiters.indexOf(w);
                if (idx >= 0) waiters.splice(idx, 1);
                r(undefined);
              }, timeoutMs);
              const w = (ev: WatchEvent | undefined) => {
                clearTimeout(t);
                r(ev);
              };
              waiters.push(w);
            });
          },
          take: async (count, timeoutMs = 10_000) => {
            const out: WatchEvent[] = [];
            const deadline = Date.now() + timeoutMs;
            while (out.length < count) {
              const e = await stream.next(Math.max(1, deadline - Date.now()));
              if (!e) break;
              out.push(e);
            }
            return out;
          },
          close: () => {
            req.destroy();
          },
        };
        resolve(stream);
      });
      req.on('error', reject);
      req.end();
    });
  }
}
