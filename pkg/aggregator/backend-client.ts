// One GET to an extension API server as this server itself (the availability check, discovery and
// OpenAPI documents), with the front-proxy certificate and the aggregator's identity headers, and
// failures worded as Go's HTTP client words them (`Get "<url>": dial tcp ...: connect: connection refused`).
import { request } from 'node:https';
import type { OutgoingHttpHeaders } from 'node:http';
import { dialError, hostPort, tlsOptions } from '../util/proxy/upgrade-aware.js';
import type { Backend } from './service-resolver.js';

export interface BackendAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** The largest document read from a backend (OpenAPI documents of large servers run to a few MiB). */
const maxBodyBytes = 32 * 1024 * 1024;

/** GETs `path` (with its query) from `backend`; rejects with an Error worded as Go's client when no complete answer comes within `timeoutMs`. */
export function getFromBackend(backend: Backend, path: string, headers: OutgoingHttpHeaders, timeoutMs: number): Promise<BackendAnswer> {
  const url = new URL(path, backend.origin);
  const { host, hostPort: hp } = hostPort(url);
  return new Promise((resolve, reject) => {
    const fail = (why: string) => reject(new Error(`Get "${url.toString()}": ${why}`));
    const req = request(url, {
      method: 'GET', agent: false, headers: { ...headers, accept: headers.accept ?? 'application/json' },
      ...tlsOptions({ url, tls: backend.tls }, host),
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBodyBytes) req.destroy(new Error('response body too large'));
        else chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) });
      });
      res.on('error', (e) => fail(e.message));
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('context deadline exceeded (Client.Timeout exceeded while awaiting headers)'), { code: 'TIMEOUT' })), timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (err.code === 'TIMEOUT') fail(err.message);
      else if (err.code && /^E[A-Z]+$/.test(err.code)) fail(dialError(err, hp));
      else fail(err.code?.includes('CERT') || err.code?.includes('SIGNATURE') || err.code?.includes('ALTNAME') ? `tls: failed to verify certificate: ${err.message}` : err.message);
    });
    req.end();
  });
}
