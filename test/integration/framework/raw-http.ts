// A raw HTTP/1.1-over-TLS connection for tests that must control the request line and headers byte
// for byte (hostile input) and see exactly what comes back: status lines, framing, and whether the
// connection is kept, closed cleanly or reset. Every wait has a deadline, so a hang fails the test.
import { connect, type TLSSocket } from 'node:tls';

export interface RawResponse {
  statusLine: string;
  code: number;
  /** Header names lower-cased, in order, repeated names kept. */
  headers: [string, string][];
  body: Buffer;
  /** The body as text (UTF-8). */
  text: string;
  header(name: string): string | undefined;
  all(name: string): string[];
}

export class DeadlineExceeded extends Error {}

function parseHead(head: string): { statusLine: string; code: number; headers: [string, string][] } {
  const lines = head.split('\r\n');
  const statusLine = lines[0]!;
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
  if (!m) throw new Error(`not an HTTP/1.x status line: ${JSON.stringify(statusLine.slice(0, 200))}`);
  const headers: [string, string][] = lines.slice(1).map((l) => {
    const i = l.indexOf(':');
    return [l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim()];
  });
  return { statusLine, code: Number(m[1]), headers };
}

function response(statusLine: string, code: number, headers: [string, string][], body: Buffer): RawResponse {
  return {
    statusLine, code, headers, body, text: body.toString('utf8'),
    header: (n) => headers.find(([k]) => k === n.toLowerCase())?.[1],
    all: (n) => headers.filter(([k]) => k === n.toLowerCase()).map(([, v]) => v),
  };
}

/** Decodes a complete chunked body starting at `at`; undefined while incomplete. */
function chunked(buf: Buffer, at: number): { body: Buffer; end: number } | undefined {
  const parts: Buffer[] = [];
  let pos = at;
  for (;;) {
    const eol = buf.indexOf('\r\n', pos);
    if (eol < 0) return undefined;
    const size = parseInt(buf.subarray(pos, eol).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('bad chunk size');
    if (size === 0) {
      const end = buf.indexOf('\r\n\r\n', eol);
      return end < 0 ? undefined : { body: Buffer.concat(parts), end: end + 4 };
    }
    if (buf.length < eol + 2 + size + 2) return undefined;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    pos = eol + 2 + size + 2;
  }
}

export class RawConnection {
  private buf = Buffer.alloc(0);
  private wake: (() => void)[] = [];
  /** Set once the server ended or closed the connection. */
  closed = false;
  /** A transport error seen on the connection (ECONNRESET, EPIPE, ...). */
  error: string | undefined;

  private constructor(private readonly socket: TLSSocket) {
    socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.notify();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      this.error ??= e.code ?? e.message;
      this.notify();
    });
    socket.on('end', () => {
      this.closed = true;
      this.notify();
    });
    socket.on('close', () => {
      this.closed = true;
      this.notify();
    });
  }

  static open(port: number, ca: string): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port, ca, ALPNProtocols: ['http/1.1'] });
      s.once('secureConnect', () => resolve(new RawConnection(s)));
      s.once('error', reject);
    });
  }

  private notify(): void {
    const w = this.wake;
    this.wake = [];
    for (const f of w) f();
  }

  private async until<T>(what: string, deadline: number, probe: () => T | undefined): Promise<T> {
    for (;;) {
      const v = probe();
      if (v !== undefined) return v;
      const left = deadline - Date.now();
      if (left <= 0) throw new DeadlineExceeded(`${what}: nothing after the deadline (got ${JSON.stringify(this.buf.toString('latin1').slice(0, 300))})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends bytes; strings are sent as Latin-1 so every code unit is one byte. */
  write(data: string | Buffer): void {
    if (this.socket.destroyed || this.socket.writableEnded) return;
    this.socket.write(typeof data === 'string' ? Buffer.from(data, 'latin1') : data, (e) => {
      if (e) this.error ??= (e as NodeJS.ErrnoException).code ?? e.message;
    });
  }

  /**
   * The next complete response (interim 1xx skipped), or undefined when the connection closed before
   * one arrived. `head` marks the answer to a HEAD request (no body).
   */
  async response(opts: { timeoutMs: number; head?: boolean }): Promise<RawResponse | undefined> {
    const deadline = Date.now() + opts.timeoutMs;
    return this.until('response', deadline, (): RawResponse | null | undefined => {
      for (;;) {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) return this.closed ? null : undefined;
        const { statusLine, code, headers } = parseHead(this.buf.subarray(0, end).toString('latin1'));
        const rest = end + 4;
        if (code >= 100 && code < 200) {
          this.buf = this.buf.subarray(rest);
          continue;
        }
        const get = (n: string) => headers.find(([k]) => k === n)?.[1];
        let body: Buffer;
        let next: number;
        if (opts.head || code === 204 || code === 304) {
          body = Buffer.alloc(0);
          next = rest;
        } else if (get('transfer-encoding')?.toLowerCase().includes('chunked')) {
          const c = chunked(this.buf, rest);
          if (!c) return this.closed ? null : undefined;
          body = c.body;
          next = c.end;
        } else if (get('content-length') !== undefined) {
          const n = Number(get('content-length'));
          if (this.buf.length < rest + n) return this.closed ? null : undefined;
          body = this.buf.subarray(rest, rest + n);
          next = rest + n;
        } else {
          // Delimited by the close of the connection.
          if (!this.closed) return undefined;
          body = this.buf.subarray(rest);
          next = this.buf.length;
        }
        this.buf = this.buf.subarray(next);
        return response(statusLine, code, headers, Buffer.from(body));
      }
    }).then((r) => r ?? undefined);
  }

  /** Resolves once the server has closed the connection; rejects at the deadline. */
  async closedWithin(timeoutMs: number): Promise<void> {
    await this.until('close', Date.now() + timeoutMs, () => (this.closed ? true : undefined));
  }

  destroy(): void {
    this.socket.destroy();
  }
}
