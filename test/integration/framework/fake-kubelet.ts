// A node agent for tests: a real HTTPS server with its own serving certificate that requires a
// client certificate (the API server's --kubelet-client-certificate), and answers the agent's
// streaming paths the way the real one does. /exec over WebSocket (the channel protocols kubectl
// and the Python client speak) runs nothing: it writes the command it was asked to run to stdout
// and reports success. Any other upgrade (SPDY port-forward) becomes an echo tunnel. GET
// /containerLogs serves the lines a test wrote for a container, with the agent's options applied
// simply (tail, since, timestamps, byte limit, previous) and `follow` streaming each new line as it
// is written. Other plain requests are answered with what the agent saw, so tests can check what the
// proxy forwarded.
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
  /** The container logs the agent serves. */
  logs: ContainerLogs;
  stop(): Promise<void>;
}

interface LogLine {
  at: Date;
  text: string;
}

/** Logs by `<namespace>/<pod>/<container>`: the running instance's, and a previous (terminated) one's. */
export class ContainerLogs {
  private readonly current = new Map<string, LogLine[]>();
  private readonly previous = new Map<string, LogLine[]>();
  private readonly followers = new Map<string, Set<(line: LogLine) => void>>();

  /** Appends a line to a container's log (written `at`, now by default) and sends it to every follower. */
  write(key: string, text: string, at = new Date()): void {
    const line = { at, text };
    let lines = this.current.get(key);
    if (!lines) this.current.set(key, (lines = []));
    lines.push(line);
    for (const f of this.followers.get(key) ?? []) f(line);
  }

  /** Sets the log of the container's previous, terminated instance. */
  setPrevious(key: string, texts: string[]): void {
    this.previous.set(key, texts.map((text) => ({ at: new Date(), text })));
  }

  /** How many requests are following the container's log now. */
  following(key: string): number {
    return this.followers.get(key)?.size ?? 0;
  }

  /** @internal The lines of one instance, or undefined when the agent knows no such log. */
  lines(key: string, previous: boolean): LogLine[] | undefined {
    return (previous ? this.previous : this.current).get(key);
  }

  /** @internal Registers a follower; returns the function that removes it. */
  follow(key: string, f: (line: LogLine) => void): () => void {
    let set = this.followers.get(key);
    if (!set) this.followers.set(key, (set = new Set()));
    set.add(f);
    return () => set.delete(f);
  }
}

/** Serves GET /containerLogs/<namespace>/<pod>/<container> as a node agent does, its options applied simply. */
function serveContainerLogs(logs: ContainerLogs, url: URL, res: ServerResponse): void {
  const [namespace = '', pod = '', container = ''] = url.pathname.split('/').slice(2).map(decodeURIComponent);
  const key = `${namespace}/${pod}/${container}`;
  const q = url.searchParams;
  const previous = q.get('previous') === 'true';
  const lines = logs.lines(key, previous);
  if (!lines) {
    const why = previous ? `previous terminated container "${container}" in pod "${pod}" not found` : `pod "${pod}" does not exist`;
    res.writeHead(previous ? 400 : 404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(why);
    return;
  }
  const sinceSeconds = q.get('sinceSeconds');
  const sinceTime = q.get('sinceTime');
  const since = sinceSeconds !== null ? Date.now() - Number(sinceSeconds) * 1000 : sinceTime !== null ? Date.parse(sinceTime) : -Infinity;
  const tail = q.get('tailLines');
  let shown = lines.filter((l) => l.at.getTime() >= since);
  if (tail !== null) shown = shown.slice(Math.max(0, shown.length - Number(tail)));
  const timestamps = q.get('timestamps') === 'true';
  let budget = q.get('limitBytes') !== null ? Number(q.get('limitBytes')) : Infinity;
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
  /** Writes a line within the byte limit; false once the limit is reached. */
  const send = (l: LogLine): boolean => {
    const bytes = Buffer.from(`${timestamps ? `${l.at.toISOString()} ` : ''}${l.text}\n`);
    const part = bytes.subarray(0, Math.min(bytes.length, budget));
    budget -= part.length;
    res.write(part);
    return budget > 0;
  };
  for (const l of shown) {
    if (!send(l)) {
      res.end();
      return;
    }
  }
  if (q.get('follow') !== 'true') {
    res.end();
    return;
  }
  const unfollow = logs.follow(key, (l) => {
    if (!send(l)) res.end();
  });
  res.on('close', unfollow);
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
  const logs = new ContainerLogs();
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => channelProtocols.find((p) => offered.has(p)) ?? false,
  });
  const server: Server = createServer({ cert: serving.chainPem, key: serving.keyPem, ca: clientCA.certPem, requestCert: true, rejectUnauthorized: true },
    (req: IncomingMessage, res: ServerResponse) => {
      const r = record(req);
      requests.push(r);
      const url = new URL(req.url ?? '/', 'https://kubelet');
      if (req.method === 'GET' && url.pathname.startsWith('/containerLogs/')) {
        serveContainerLogs(logs, url, res);
        return;
      }
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
    logs,
    stop: () => new Promise((resolve) => {
      wss.close();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
