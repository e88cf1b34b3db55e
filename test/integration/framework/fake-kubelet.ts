// A node agent for tests: a real HTTPS server with its own serving certificate that requires a
// client certificate (the API server's --kubelet-client-certificate), and answers the agent's
// streaming paths the way the real one does. /exec over WebSocket (the channel protocols kubectl
// and the Python client speak) runs nothing: it writes the command it was asked to run to stdout
// and reports success. Any other upgrade (SPDY port-forward) becomes an echo tunnel. Plain requests
// are answered with what the agent saw, so tests can check what the proxy forwarded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { WebSocketServer } from 'ws';
import type { TestCA } from '../../../pkg/authentication/testing/ca.js';

/** What the agent was asked, for assertions. */
export interface KubeletRequest {
  method: string;
  url: string;
  /** The common name of the client certificate the caller presented. */
  clientCN: string;
  /** Whether an Authorization header reached the agent (it never should through the proxy). */
  authorization: boolean;
  upgrade: string;
}

export interface FakeKubelet {
  port: number;
  requests: KubeletRequest[];
  stop(): Promise<void>;
}

/** The first IPv4 address of this machine that upstream's proxies accept (not loopback). */
export function proxyableAddress(): string {
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  throw new Error('these tests need a non-loopback IPv4 address on this machine');
}

const channelProtocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];

function record(req: IncomingMessage): KubeletRequest {
  const cert = (req.socket as TLSSocket).getPeerCertificate?.();
  return {
    method: req.method ?? '',
    url: req.url ?? '',
    clientCN: String(cert?.subject?.CN ?? ''),
    authorization: req.headers.authorization !== undefined,
    upgrade: String(req.headers.upgrade ?? ''),
  };
}

/** Starts an agent on every interface, serving `hosts` (IPs) with a certificate of `ca`, trusting clients of `clientCA`. */
export async function startFakeKubelet(ca: TestCA, clientCA: TestCA, hosts: string[]): Promise<FakeKubelet> {
  const serving = ca.server(hosts);
  const requests: KubeletRequest[] = [];
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => channelProtocols.find((p) => offered.has(p)) ?? false,
  });
  const server: Server = createServer({ cert: serving.chainPem, key: serving.keyPem, ca: clientCA.certPem, requestCert: true, rejectUnauthorized: true },
    (req: IncomingMessage, res: ServerResponse) => {
      const r = record(req);
      requests.push(r);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ agent: 'fake-kubelet', ...r }));
    });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    requests.push(record(req));
    const url = new URL(req.url ?? '/', 'https://kubelet');
    if (String(req.headers.upgrade).toLowerCase() === 'websocket' && url.pathname.startsWith('/exec/')) {
      wss.handleUpgrade(req, socket, head, (ws) => {
        const command = url.searchParams.getAll('command').join(' ');
        // Paced as a process writes: the Python client polls the raw socket between frames and
        // would miss frames that arrive together in one TLS record.
        const frames = [Buffer.concat([Buffer.from([1]), Buffer.from(`${command}\n`)]), Buffer.concat([Buffer.from([3]), Buffer.from(JSON.stringify({ metadata: {}, status: 'Success' }))])];
        const next = () => {
          const f = frames.shift();
          if (f) ws.send(f, () => setTimeout(next, 50));
          else ws.close(1000);
        };
        next();
      });
      return;
    }
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${String(req.headers.upgrade)}\r\n\r\n`);
    if (head.length > 0) socket.write(head);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    requests,
    stop: () => new Promise((resolve) => {
      wss.close();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
