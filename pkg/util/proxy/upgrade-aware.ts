// Proxying one request to a backend (a node agent, a pod, a service endpoint) as upstream's
// upgrade-aware proxy does: a plain request is forwarded and its answer streamed back; a request
// asking for a protocol upgrade (the SPDY and WebSocket streams of exec, attach and port-forward)
// is written to the backend over a fresh connection, and once the backend switches protocols the
// two connections are joined byte for byte.
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';

/** TLS towards an https backend: the CA to verify it with (none: not verified) and our client certificate. */
export interface BackendTLS {
  ca?: string;
  cert?: string;
  key?: string;
  /** The name the backend's certificate is verified for (and sent as SNI) when it is not the URL's host. */
  serverName?: string;
}

export interface ProxyTarget {
  /** The backend URL, path and query included (http: or https:). */
  url: URL;
  tls?: BackendTLS;
  /** Refuse a backend's redirect (502), as upstream does for pods and services. */
  rejectRedirects?: boolean;
  /** How long dialling the backend may take. */
  dialTimeoutMs?: number;
  /** Headers this server adds (the front proxy's X-Remote-* identity); the client's own of those names never pass. */
  headers?: OutgoingHttpHeaders;
}

/** Why proxying failed before anything was sent to the client, worded as Go words network errors. */
export class ProxyError extends Error {}

/** Headers that belong to one hop (RFC 7230 6.1) and never cross the proxy on a plain request. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The client's credentials end at this server: the backend never sees them. */
function isCredential(name: string): boolean {
  return name === 'authorization' || name.startsWith('impersonate-') || name.startsWith('x-remote-');
}

/** The client's headers as the backend gets them; `keepUpgrade` keeps Connection/Upgrade for an upgrade. */
export function forwardedHeaders(headers: IncomingHttpHeaders, remoteAddress: string | undefined, host: string, keepUpgrade: boolean): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const listed = new Set(String(headers.connection ?? '').split(',').map((t) => t.trim().toLowerCase()).filter(Boolean));
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || isCredential(name) || name === 'host') continue;
    const oneHop = hopByHop.has(name) || listed.has(name);
    if (oneHop && !(keepUpgrade && name === 'upgrade')) continue;
    out[name] = value;
  }
  if (keepUpgrade) out.connection = 'Upgrade';
  out.host = host;
  if (remoteAddress) {
    const prior = headers['x-forwarded-for'];
    out['x-forwarded-for'] = prior ? `${Array.isArray(prior) ? prior.join(', ') : prior}, ${remoteAddress}` : remoteAddress;
  }
  return out;
}

/** Go's wording of a dial failure (`dial tcp 10.0.0.1:10250: connect: connection refused`). */
export function dialError(err: NodeJS.ErrnoException, hostPort: string): string {
  switch (err.code) {
    case 'ECONNREFUSED': return `dial tcp ${hostPort}: connect: connection refused`;
    case 'ETIMEDOUT': return `dial tcp ${hostPort}: i/o timeout`;
    case 'EHOSTUNREACH': return `dial tcp ${hostPort}: connect: no route to host`;
    case 'ENOTFOUND': return `dial tcp: lookup ${hostPort.replace(/:\d+$/, '')}: no such host`;
    default: return `dial tcp ${hostPort}: ${err.message}`;
  }
}

/** The host (IPv6 without brackets), port and `host:port` a backend URL is dialled at. */
export function hostPort(url: URL): { host: string; port: number; hostPort: string } {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port, hostPort: url.host.includes(':') ? url.host : `${url.host}:${port}` };
}

/** The TLS options of a connection to an https backend: its CA (or no verification), our client certificate, SNI for names. */
export function tlsOptions(target: ProxyTarget, host: string) {
  const t = target.tls ?? {};
  return {
    ...(t.ca ? { ca: t.ca, rejectUnauthorized: true } : { rejectUnauthorized: false }),
    ...(t.cert && t.key ? { cert: t.cert, key: t.key } : {}),
    // A backend named by IP address is verified against its IP SANs; SNI carries names only.
    ...(t.serverName ? { servername: t.serverName } : /^[\d.]+$|:/.test(host) ? {} : { servername: host }),
  };
}

/**
 * Forwards a plain request (its body already read) and streams the backend's answer to `res`.
 * Rejects with a ProxyError when the backend cannot be reached; nothing has been written then.
 */
export function proxyRequest(req: IncomingMessage, body: Buffer | undefined, res: ServerResponse, target: ProxyTarget): Promise<void> {
  const { host, hostPort: hp } = hostPort(target.url);
  const headers = { ...forwardedHeaders(req.headers, req.socket.remoteAddress, target.url.host, false), ...target.headers };
  if (body && body.length > 0) headers['content-length'] = body.length;
  else delete headers['content-length'];
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const out = send(target.url, {
      method: req.method,
      headers,
      agent: false,
      timeout: target.dialTimeoutMs ?? 30_000,
      ...(target.url.protocol === 'https:' ? tlsOptions(target, host) : {}),
    }, (backend) => {
      const code = backend.statusCode ?? 502;
      if (target.rejectRedirects && code >= 300 && code <= 399 && backend.headers.location) {
        backend.resume();
        const msg = 'the backend attempted to redirect this request, which is not permitted';
        res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(msg) });
        res.end(msg);
        resolve();
        return;
      }
      const answer: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(backend.headers)) {
        if (value !== undefined && !hopByHop.has(name)) answer[name] = value;
      }
      res.writeHead(code, answer);
      backend.pipe(res);
      backend.on('end', () => resolve());
      backend.on('error', () => {
        res.destroy();
        resolve();
      });
      res.on('close', () => backend.destroy());
    });
    out.on('timeout', () => out.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    out.on('error', (err: NodeJS.ErrnoException) => {
      if (res.headersSent) {
        res.destroy();
        resolve();
      } else {
        reject(new ProxyError(dialError(err, hp)));
      }
    });
    out.end(body && body.length > 0 ? body : undefined);
  });
}

/** Reads a response head (through the blank line) off `conn`; resolves with it and the bytes after it. */
function readHead(conn: Duplex): Promise<{ head: Buffer; rest: Buffer; status: number }> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buf.length > 64 * 1024) fail(new Error('the backend sent an oversized response head'));
        return;
      }
      cleanup();
      const head = buf.subarray(0, end + 4);
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1'));
      if (!m) {
        reject(new Error('malformed HTTP response from the backend'));
        return;
      }
      resolve({ head, rest: buf.subarray(end + 4), status: Number(m[1]) });
    };
    const fail = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onEnd = () => fail(new Error('unexpected EOF'));
    const cleanup = () => {
      conn.off('data', onData);
      conn.off('error', fail);
      conn.off('end', onEnd);
    };
    conn.on('data', onData);
    conn.once('error', fail);
    conn.once('end', onEnd);
  });
}

/** Opens a connection to the backend, TLS for https. */
function dial(target: ProxyTarget): Promise<Socket> {
  const { host, port, hostPort: hp } = hostPort(target.url);
  return new Promise((resolve, reject) => {
    const conn: Socket = target.url.protocol === 'https:'
      ? tlsConnect({ host, port, ...tlsOptions(target, host) })
      : netConnect({ host, port });
    const ready = target.url.protocol === 'https:' ? 'secureConnect' : 'connect';
    const timer = setTimeout(() => conn.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), target.dialTimeoutMs ?? 30_000);
    conn.once(ready, () => {
      clearTimeout(timer);
      conn.off('error', onError);
      resolve(conn);
    });
    const onError = (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new ProxyError(`error dialing backend: ${err.code ? dialError(err, hp) : err.message}`));
    };
    conn.once('error', onError);
  });
}

/**
 * Proxies an upgrade request whose connection (`client`, with `head` bytes already read after the
 * request head) this server has taken over. Rejects with a ProxyError, nothing written to the
 * client, when the backend cannot be reached or answers neither 101 nor an error; otherwise the
 * backend's answer goes to the client as it is and the connections are joined (101) or closed.
 */
export async function proxyUpgrade(req: IncomingMessage, client: Duplex, head: Buffer, target: ProxyTarget): Promise<void> {
  const backend = await dial(target);
  const headers = { ...forwardedHeaders(req.headers, req.socket.remoteAddress, target.url.host, true), ...target.headers };
  let text = `${req.method ?? 'GET'} ${target.url.pathname}${target.url.search} HTTP/1.1\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) text += `${name}: ${String(v)}\r\n`;
  }
  backend.write(`${text}\r\n`);
  if (head.length > 0) backend.write(head);
  let answer: Awaited<ReturnType<typeof readHead>>;
  try {
    answer = await readHead(backend);
  } catch (err) {
    backend.destroy();
    throw new ProxyError(err instanceof Error ? err.message : String(err));
  }
  if (answer.status !== 101 && answer.status < 400) {
    backend.destroy();
    throw new ProxyError(`invalid upgrade response: status code ${answer.status}`);
  }
  client.write(answer.head);
  if (answer.rest.length > 0) client.write(answer.rest);
  const close = () => {
    backend.destroy();
    client.destroy();
  };
  backend.on('error', close);
  client.on('error', close);
  backend.on('close', () => client.end());
  client.on('close', () => backend.destroy());
  backend.pipe(client);
  if (answer.status === 101) client.pipe(backend);
}
