// One API call: the request in the client's format, the answer decoded by its Content-Type, a
// non-2xx answer turned into a StatusError carrying the server's Status, and Warning headers handed
// to the caller's handler.
import type { IncomingHttpHeaders } from 'node:http';
import type { ResourceInfo } from '../runtime/scheme.js';
import type { ClientCodec, Json } from './codec.js';
import { statusErrorOf } from './errors.js';
import type { Transport } from './transport.js';
import { Watch } from './watch.js';

export interface CallOptions {
  /** The kind of the objects sent and answered, for protobuf; JSON is spoken without it. */
  info?: ResourceInfo;
  /** A JSON-encodable object sent in the client's format (create, update). */
  object?: Json;
  /** A body sent as is with its Content-Type (patches, DeleteOptions). */
  raw?: { body: Buffer | string; contentType: string };
  /** The answer is the kind's list. */
  list?: boolean;
  signal?: AbortSignal;
}

export type WarningHandler = (warning: string) => void;

/** The text of each `Warning: 299 - "text"` header entry. */
function warningsOf(headers: IncomingHttpHeaders): string[] {
  const h = headers.warning;
  if (!h) return [];
  const out: string[] = [];
  for (const m of (Array.isArray(h) ? h.join(', ') : h).matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) out.push(m[1]!.replace(/\\(.)/g, '$1'));
  return out;
}

export class Requester {
  constructor(
    readonly transport: Transport,
    readonly codec: ClientCodec,
    private readonly onWarning?: WarningHandler,
  ) {}

  async call(method: string, path: string, o: CallOptions = {}): Promise<Json> {
    const headers: Record<string, string> = { Accept: this.codec.accept(o.info) };
    let body: Buffer | string | undefined;
    if (o.object) {
      const enc = this.codec.encodeObject(o.info, o.object);
      body = enc.body;
      headers['Content-Type'] = enc.contentType;
    } else if (o.raw) {
      body = o.raw.body;
      headers['Content-Type'] = o.raw.contentType;
    }
    const res = await this.transport.do({ method, path, headers, ...(body !== undefined ? { body } : {}), ...(o.signal ? { signal: o.signal } : {}) });
    if (this.onWarning) for (const w of warningsOf(res.headers)) this.onWarning(w);
    const contentType = res.headers['content-type'];
    if (res.status < 200 || res.status > 299) {
      let status: Json | undefined;
      try {
        status = this.codec.decode(contentType, res.body, o.info);
      } catch {
        // not a Status: the error is made from the code and text
      }
      throw statusErrorOf(res.status, status, status ? '' : res.body.toString('utf8'));
    }
    return this.codec.decode(contentType, res.body, o.info, o.list);
  }

  /** Opens a watch; a refused one (401, 403, 410, …) is a StatusError. */
  async watch<T>(path: string, info: ResourceInfo | undefined, signal?: AbortSignal): Promise<Watch<T>> {
    const res = await this.transport.stream({ method: 'GET', path, headers: { Accept: this.codec.watchAccept(info) }, ...(signal ? { signal } : {}) });
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 299) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      let s: Json | undefined;
      try {
        s = this.codec.decode(res.headers['content-type'], body, info);
      } catch {
        // not a Status
      }
      throw statusErrorOf(status, s, s ? '' : body.toString('utf8'));
    }
    if (info && this.codec.isProtobuf(res.headers['content-type'])) {
      return new Watch<T>(res, (frame) => this.codec.decodeWatchFrame(info, frame));
    }
    return new Watch<T>(res);
  }
}
