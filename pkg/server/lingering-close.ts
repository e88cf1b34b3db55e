// Closing a connection without losing the answer: destroying a socket while the peer is still
// sending makes the kernel answer with a reset, which can discard the response the peer has not
// read yet. So the answer is written, the write side ended, and whatever still arrives is read and
// dropped until the peer closes (or a grace period passes), as Go's closeWriteAndWait does.
import type { Duplex } from 'node:stream';

const noop = () => undefined;

/** Writes `answer` (if any), ends the socket and drains it until the peer closes or `graceMs` passes. */
export function lingeringClose(socket: Duplex, answer: string | undefined, graceMs: number): void {
  if (socket.destroyed) return;
  socket.on('error', noop);
  const timer = setTimeout(() => socket.destroy(), graceMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // Data may flow to another listener already (Node's parser); a listener of ours keeps it flowing
  // once that one is gone.
  socket.on('data', noop);
  socket.resume();
  if (!socket.writable || socket.writableEnded) return;
  if (answer === undefined) socket.end();
  else socket.end(answer);
}
