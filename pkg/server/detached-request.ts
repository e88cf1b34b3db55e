// Serving a request on a connection Node's HTTP parser has let go of: a CONNECT (Node hands over
// the socket for tunnelling) or a request with a method Node's parser does not know. Go serves both
// as ordinary requests, so they go through the same handler; the connection closes after the answer.
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { lingeringClose } from './lingering-close.js';
import type { RequestHead } from './request-head.js';

/** Headers whose first value wins when repeated, as Node merges them. */
const singleValued = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after',
  'server', 'user-agent',
]);

/** The body is never read on these connections, so the request is presented as having none. */
const bodyFraming = new Set(['content-length', 'transfer-encoding']);

function headersObject(raw: string[]): IncomingMessage['headers'] {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const prev = out[name];
    if (prev === undefined) out[name] = name === 'set-cookie' ? [value] : value;
    else if (Array.isArray(prev)) prev.push(value);
    else if (!singleValued.has(name)) out[name] = `${prev}, ${value}`;
  }
  return out;
}

function withoutBodyFraming(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!bodyFraming.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  return out;
}

/** A body-less request for a head read by request-head.ts. */
export function requestFromHead(head: RequestHead, socket: Socket): IncomingMessage {
  const req = new IncomingMessage(socket);
  req.method = head.method;
  req.url = head.url;
  req.httpVersionMajor = head.httpVersionMajor;
  req.httpVersionMinor = head.httpVersionMinor;
  req.httpVersion = `${head.httpVersionMajor}.${head.httpVersionMinor}`;
  req.rawHeaders = withoutBodyFraming(head.rawHeaders);
  req.headers = headersObject(req.rawHeaders);
  req.complete = true;
  req.push(null);
  return req;
}

/** Presents a request Node parsed but will not feed a body to (CONNECT) as body-less. */
export function dropBodyFraming(req: IncomingMessage): IncomingMessage {
  // Node builds `headers` and `headersDistinct` lazily from the parser's count of raw headers:
  // build them before the raw list shrinks.
  const { headers, headersDistinct } = req;
  req.rawHeaders = withoutBodyFraming(req.rawHeaders);
  for (const h of bodyFraming) {
    delete headers[h];
    delete headersDistinct[h];
  }
  return req;
}

/** Runs `handler` for `req` with a response on `socket`, then closes the connection once the answer is out. */
export function serveDetached(handler: (req: IncomingMessage, res: ServerResponse) => void, req: IncomingMessage, socket: Socket, lingerMs: number): void {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  try {
    res.assignSocket(socket);
  } catch {
    // Another response still owns the socket; the connection cannot be answered in order.
    lingeringClose(socket, undefined, lingerMs);
    return;
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    res.detachSocket(socket);
    lingeringClose(socket, undefined, lingerMs);
  };
  res.once('finish', close);
  socket.once('close', () => {
    closed = true;
  });
  handler(req, res);
}
