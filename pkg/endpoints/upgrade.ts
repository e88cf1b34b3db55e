// A request asking for a protocol upgrade arrives with its connection handed over by Node's
// server; the server records that connection here so the one handler that can take it (a CONNECT
// sub-resource proxying to a backend) finds it. Every other handler answers on the response as usual.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

export interface UpgradeConnection {
  socket: Duplex;
  /** Bytes the client sent after the request head, already read off the socket. */
  head: Buffer;
}

const connections = new WeakMap<IncomingMessage, UpgradeConnection>();

export function setUpgradeConnection(req: IncomingMessage, conn: UpgradeConnection): void {
  connections.set(req, conn);
}

/** The connection of an upgrade request, once: whoever takes it answers on the raw connection. */
export function takeUpgradeConnection(req: IncomingMessage): UpgradeConnection | undefined {
  const conn = connections.get(req);
  connections.delete(req);
  return conn;
}
