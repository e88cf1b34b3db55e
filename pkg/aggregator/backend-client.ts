// One GET to an extension API server as this server itself (the availability check, discovery and
// OpenAPI documents): the front-proxy certificate, the aggregator's identity headers, a deadline,
// and failures worded as Go's HTTP client words them (`Get "<url>": dial tcp ...: connect: connection refused`).
import type { OutgoingHttpHeaders } from 'node:http';
import { getLocation } from '../util/proxy/location.js';
import type { Backend } from './service-resolver.js';

export interface BackendAnswer {
  status: number;
  body: Buffer;
}

/** The largest document read from a backend (OpenAPI documents of large servers run to a few MiB). */
const maxBodyBytes = 32 * 1024 * 1024;

/** GETs `path` (with its query) from `backend`; rejects with an Error worded as Go's client when no complete answer comes within `timeoutMs`. */
export async function getFromBackend(backend: Backend, path: string, headers: OutgoingHttpHeaders, timeoutMs: number): Promise<BackendAnswer> {
  const url = new URL(path, backend.origin);
  const signal = AbortSignal.timeout(timeoutMs);
  const res = await getLocation({ url, tls: backend.tls, dialTimeoutMs: timeoutMs, headers: { accept: 'application/json', ...headers } }, signal);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) {
      res.destroy();
      throw new Error(`Get "${url.toString()}": the answer is larger than ${maxBodyBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return { status: res.statusCode ?? 0, body: Buffer.concat(chunks) };
}
