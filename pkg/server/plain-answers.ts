// Answers to requests that never reach the handler chain, worded and framed as Go's net/http
// writes them (upstream's server is a Go http.Server): a text/plain status line echoed as the body,
// and the connection closed.
import { STATUS_CODES, type ServerResponse } from 'node:http';

/** A protocol-level refusal: the status code and Go's optional detail (`400 Bad Request: too many Host headers`). */
export interface PlainAnswer {
  code: number;
  text?: string;
}

export function plainAnswerLine(a: PlainAnswer): string {
  return `${a.code} ${STATUS_CODES[a.code] ?? 'Unknown'}${a.text ? `: ${a.text}` : ''}`;
}

/** The whole response, for a socket whose request Node's parser could not read. */
export function plainAnswerBytes(a: PlainAnswer): string {
  const line = plainAnswerLine(a);
  return `HTTP/1.1 ${line}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${line}`;
}

/** Writes the answer on a parsed request's response; the connection closes after it. */
export function writePlainAnswer(res: ServerResponse, a: PlainAnswer): void {
  const line = plainAnswerLine(a);
  res.shouldKeepAlive = false;
  res.writeHead(a.code, line.slice(String(a.code).length + 1), {
    'Content-Type': 'text/plain; charset=utf-8',
    Connection: 'close',
    'Content-Length': Buffer.byteLength(line),
  });
  res.end(line);
}
