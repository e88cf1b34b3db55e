// The responses still open on each connection. HTTP/1.1 answers requests in order, so an answer
// the server writes on the raw socket (to a request Node's parser could not read) waits for them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export interface OpenResponse {
  req: IncomingMessage;
  res: ServerResponse;
}

export class ConnectionResponses {
  private readonly open = new WeakMap<Duplex, Set<OpenResponse>>();
  private readonly waiters = new WeakMap<Duplex, (() => void)[]>();

  /** Counts the response as open until it finishes or its connection closes. */
  track(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    let set = this.open.get(socket);
    if (!set) this.open.set(socket, (set = new Set()));
    const entry: OpenResponse = { req, res };
    set.add(entry);
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      set.delete(entry);
      if (set.size > 0) return;
      const ws = this.waiters.get(socket) ?? [];
      this.waiters.delete(socket);
      for (const w of ws) w();
    };
    res.once('finish', release);
    res.once('close', release);
  }

  pending(socket: Duplex): OpenResponse[] {
    return [...(this.open.get(socket) ?? [])];
  }

  /** Resolves once no response is open on the connection. */
  idle(socket: Duplex): Promise<void> {
    if ((this.open.get(socket)?.size ?? 0) === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const ws = this.waiters.get(socket) ?? [];
      ws.push(resolve);
      this.waiters.set(socket, ws);
    });
  }
}
