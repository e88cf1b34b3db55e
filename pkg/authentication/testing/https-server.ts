// A real HTTPS server on 127.0.0.1 for tests of authenticators that call out (OIDC providers,
// token webhooks): its own certificate, optionally requiring client certificates, counting every
// request it sees so tests can assert how often the code under test called it.
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface TestRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The verified client certificate's subject CN, when the client presented one. */
  clientCN?: string;
}

export type TestHandler = (req: TestRequest, res: ServerResponse) => void | Promise<void>;

export interface TestHttpsServerOptions {
  /** PEM serving certificate and key. */
  cert: string;
  key: string;
  /** When set, clients must present a certificate issued by this PEM CA bundle. */
  clientCA?: string;
  handler: TestHandler;
}

export interface TestHttpsServer {
  /** `https://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request received so far, in order (including ones whose handler has not answered yet). */
  readonly requests: TestRequest[];
  /** Replaces the handler for later requests. */
  setHandler(h: TestHandler): void;
  close(): Promise<void>;
}

export async function startTestHttpsServer(opts: TestHttpsServerOptions): Promise<TestHttpsServer> {
  let handler = opts.handler;
  const requests: TestRequest[] = [];
  const server: Server = createServer(
    {
      cert: opts.cert,
      key: opts.key,
      ...(opts.clientCA ? { ca: opts.clientCA, requestCert: true, rejectUnauthorized: true } : {}),
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const peer = (req.socket as TLSSocket).getPeerCertificate?.();
        const cn = peer && typeof peer.subject?.CN === 'string' ? peer.subject.CN : undefined;
        const tr: TestRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), ...(cn ? { clientCN: cn } : {}) };
        requests.push(tr);
        Promise.resolve()
          .then(() => handler(tr, res))
          .catch(() => {
            if (!res.headersSent) res.writeHead(500);
            res.end();
          });
      });
    },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    setHandler(h) {
      handler = h;
    },
    async close() {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Writes a JSON answer. */
export function sendJSON(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
