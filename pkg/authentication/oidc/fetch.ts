// GET of a JSON document from the provider (discovery, key set) over https, trusting either the
// configured CA bundle or the host's roots, with an absolute timeout and a size limit so a slow
// or hostile provider can neither hang start-up nor fill memory.
import { get } from 'node:https';

export interface FetchJSONOptions {
  ca?: string;
  timeoutMs: number;
  maxBytes: number;
}

/** Resolves the parsed document; rejects with a message that names the URL and what went wrong. */
export function fetchJSON(url: string, opts: FetchJSONOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      reject(new Error(`invalid URL ${JSON.stringify(url)}`));
      return;
    }
    if (u.protocol !== 'https:') {
      reject(new Error(`Get ${JSON.stringify(url)}: only https URLs are fetched`));
      return;
    }
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const fail = (msg: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(new Error(`Get ${JSON.stringify(url)}: ${msg}`));
    };
    const req = get(u, { ...(opts.ca ? { ca: opts.ca } : {}), headers: { accept: 'application/json' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > opts.maxBytes) fail(`response exceeds ${opts.maxBytes} bytes`);
        else chunks.push(c);
      });
      res.on('error', (e) => fail(e.message));
      res.on('end', () => {
        if (settled) return;
        const body = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          // go-oidc reports the status line and the body; bodies are the provider's public documents.
          fail(`${status} ${res.statusMessage ?? ''}: ${body.slice(0, 512)}`);
          return;
        }
        let doc: unknown;
        try {
          doc = JSON.parse(body);
        } catch {
          fail(`expected a JSON document, got ${JSON.stringify(res.headers['content-type'] ?? '')}`);
          return;
        }
        settled = true;
        clearTimeout(timer);
        resolve(doc);
      });
    });
    req.on('error', (e) => fail(e.message));
    timer = setTimeout(() => fail('context deadline exceeded (Client.Timeout exceeded while awaiting headers)'), opts.timeoutMs);
    timer.unref();
  });
}
