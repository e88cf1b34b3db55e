// What the server answers when Node's HTTP parser cannot read a request (Node's 'clientError'):
// Go's net/http answers (431 for an oversized head, 505 for another protocol version, 400 for the
// rest) in Go's plain-text form, written after the connection's earlier responses, and the
// connection closed without a reset. A method Node's parser does not know is not an error to Go: that
// request is read here and served like any other.
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionResponses } from './connection-responses.js';
import { lingeringClose } from './lingering-close.js';
import { plainAnswerBytes, type PlainAnswer } from './plain-answers.js';
import { headEnd, isRequestHead, leadingMethod, parseRequestHead, type RequestHead } from './request-head.js';

export interface ClientErrorOptions {
  /** The server's limit on a request head, in bytes. */
  maxHeaderSize: number;
  /** How long a request head may take to arrive. */
  headersTimeoutMs: number;
  /** How long a closing connection is drained before it is destroyed. */
  lingerMs: number;
  responses: ConnectionResponses;
  /** Serves a request whose head was read here; the connection is the handler's from then on. */
  serve(head: RequestHead, socket: Socket): void;
  /** Told once of each request refused here, as its answer is sent. */
  refused?(answer: PlainAnswer, socket: Duplex): void;
}

/** The fields Node puts on a parser error. */
interface ParserError extends Error {
  code?: string;
  reason?: string;
  bytesParsed?: number;
  rawPacket?: Buffer;
}

/** Where the message the parser failed on starts in `packet`: after the last line break before the failure. */
function messageStart(packet: Buffer, at: number): number {
  const pos = Math.min(Math.max(at - 1, 0), packet.length - 1);
  return pos < 0 ? 0 : packet.lastIndexOf(0x0a, pos) + 1;
}

/** Go's answer to a request line with a version Node's parser refused: 505 for HTTP/x.y with x != 1, else 400. */
function versionAnswer(e: ParserError): PlainAnswer {
  const packet = e.rawPacket;
  if (!packet) return { code: 400 };
  const start = messageStart(packet, e.bytesParsed ?? 0);
  let end = packet.indexOf(0x0a, start);
  if (end < 0) end = packet.length;
  const line = packet.subarray(start, end).toString('latin1').replace(/\r$/, '');
  const version = /^HTTP\/(\d)\.\d$/.exec(line.slice(line.lastIndexOf(' ') + 1));
  return version && version[1] !== '1' ? { code: 505, text: 'unsupported protocol version' } : { code: 400 };
}

function answerFor(e: ParserError): PlainAnswer {
  switch (e.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 431 };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 408 };
    case 'HPE_INVALID_VERSION':
      return versionAnswer(e);
    case 'HPE_INVALID_HEADER_TOKEN':
      return /value/i.test(e.reason ?? '') ? { code: 400, text: 'invalid header value' } : { code: 400 };
    default:
      return { code: 400 };
  }
}

const pri = Buffer.from('PRI ');

/** Where a request line starting with `PRI ` begins in `packet`, at or before `at`. */
function priStart(packet: Buffer, at: number): number {
  for (let i = packet.lastIndexOf(pri, Math.min(at, packet.length - 1)); i >= 0; i = i > 0 ? packet.lastIndexOf(pri, i - 1) : -1) {
    if (i === 0 || packet[i - 1] === 0x0a) return i;
  }
  return -1;
}

export interface ClientErrors {
  /** The 'clientError' listener. */
  onClientError(err: Error, socket: Duplex): void;
  /**
   * Watches a new connection for a head Node's parser would wait on forever: `PRI <path>` with no
   * headers, which it takes for the start of an HTTP/2 preface. Go serves it as an ordinary method.
   */
  watch(socket: Duplex): void;
}

export function clientErrors(o: ClientErrorOptions): ClientErrors {
  // Node reports the same broken connection again for every chunk that follows; the first report decides.
  const handled = new WeakSet<Duplex>();

  const answer = (socket: Duplex, a: PlainAnswer) => {
    o.refused?.(a, socket);
    const open = o.responses.pending(socket);
    if (open.some((x) => !x.req.complete)) {
      // The failure is inside a request still being read (its body): answer now, unless its response has begun.
      lingeringClose(socket, open.some((x) => x.res.headersSent) ? undefined : plainAnswerBytes(a), o.lingerMs);
      return;
    }
    void o.responses.idle(socket).then(() => lingeringClose(socket, plainAnswerBytes(a), o.lingerMs));
  };

  const readUnknownMethod = (socket: Duplex, first: Buffer) => {
    let buf = first;
    let finished = false;
    const finish = () => {
      finished = true;
      clearTimeout(timer);
      socket.off('data', onData);
    };
    // Go closes a connection whose head does not arrive in time without an answer.
    const timer = setTimeout(() => {
      finish();
      lingeringClose(socket, undefined, o.lingerMs);
    }, o.headersTimeoutMs);
    timer.unref();
    const check = () => {
      if (finished) return;
      const end = headEnd(buf);
      if (end < 0 && buf.length <= o.maxHeaderSize) return;
      finish();
      if (end < 0 || end > o.maxHeaderSize) {
        answer(socket, { code: 431 });
        return;
      }
      const head = parseRequestHead(buf.subarray(0, end));
      if (!isRequestHead(head)) {
        answer(socket, head);
        return;
      }
      void o.responses.idle(socket).then(() => o.serve(head, socket as Socket));
    };
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      check();
    };
    socket.on('data', onData);
    socket.once('close', finish);
    check();
  };

  const onClientError = (err: Error, socket: Duplex) => {
    if (handled.has(socket)) return;
    handled.add(socket);
    const e = err as ParserError;
    const code = e.code ?? '';
    if (!code.startsWith('HPE_') && code !== 'ERR_HTTP_REQUEST_TIMEOUT') {
      // A transport failure (reset, TLS error): there is nobody left to answer.
      socket.destroy();
      return;
    }
    if (code === 'HPE_INVALID_METHOD' && e.rawPacket) {
      const first = e.rawPacket.subarray(messageStart(e.rawPacket, e.bytesParsed ?? 0));
      if (leadingMethod(first) !== undefined) {
        readUnknownMethod(socket, first);
        return;
      }
    }
    // `PRI <path>` followed by headers: Node's parser expected an HTTP/2 preface.
    if (code === 'HPE_INVALID_VERSION' && e.rawPacket && /preface/i.test(e.reason ?? '')) {
      const start = priStart(e.rawPacket, e.bytesParsed ?? 0);
      if (start >= 0) {
        readUnknownMethod(socket, e.rawPacket.subarray(start));
        return;
      }
    }
    answer(socket, answerFor(e));
  };

  const watch = (socket: Duplex) => {
    socket.on('data', (d: Buffer) => {
      if (d.length < 4 || d[0] !== pri[0] || handled.has(socket) || !d.subarray(0, 4).equals(pri)) return;
      // Only the start of a new message: no request on the connection may still be reading its body.
      if (o.responses.pending(socket).some((x) => !x.req.complete)) return;
      const lineEnd = d.indexOf('\r\n');
      if (lineEnd < 0 || headEnd(d) !== lineEnd + 4) return; // with headers, Node's parser reports an error itself
      if (d.subarray(0, lineEnd).toString('latin1') === 'PRI * HTTP/2.0') return;
      handled.add(socket);
      readUnknownMethod(socket, d);
    });
  };

  return { onClientError, watch };
}
