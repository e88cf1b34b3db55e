// Reads one HTTP/1.x request head the way Go's net/http does. Node's parser knows a fixed list of
// methods and refuses the rest; Go accepts any token as a method and lets the handler answer (405 on
// API paths), so for those requests the server reads the head itself.
import type { PlainAnswer } from './plain-answers.js';
import type { HeadFacts } from './protocol-checks.js';

export interface RequestHead extends HeadFacts {
  method: string;
  /** The request target as sent (`/api/v1/...?...`). */
  url: string;
}

const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Control characters other than horizontal tab, which neither a target nor a header value may hold. */
const ctl = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Where the blank line that ends the head finishes in `buf`, or -1 while the head is incomplete. */
export function headEnd(buf: Buffer): number {
  const crlf = buf.indexOf('\r\n\r\n');
  const lf = buf.indexOf('\n\n');
  const end = Math.min(crlf < 0 ? Infinity : crlf + 4, lf < 0 ? Infinity : lf + 2);
  return end === Infinity ? -1 : end;
}

/** The method a head starts with, if it starts with something Go would take for one. */
export function leadingMethod(buf: Buffer): string | undefined {
  const sp = buf.indexOf(' ');
  if (sp <= 0) return undefined;
  const m = buf.subarray(0, sp).toString('latin1');
  return token.test(m) ? m : undefined;
}

/** Parses a complete head (through its blank line); anything Go would refuse gives its answer instead. */
export function parseRequestHead(buf: Buffer): RequestHead | PlainAnswer {
  const bad: PlainAnswer = { code: 400 };
  const lines = buf.toString('latin1').split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const requestLine = lines[0] ?? '';
  const sp1 = requestLine.indexOf(' ');
  const sp2 = sp1 < 0 ? -1 : requestLine.indexOf(' ', sp1 + 1);
  if (sp1 < 0 || sp2 < 0) return bad;
  const method = requestLine.slice(0, sp1);
  const url = requestLine.slice(sp1 + 1, sp2);
  const proto = requestLine.slice(sp2 + 1);
  const version = /^HTTP\/(\d)\.(\d)$/.exec(proto);
  if (!version) return bad;
  if (!token.test(method)) return bad;
  if (!(url.startsWith('/') || url === '*' || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(url) || (method === 'CONNECT' && url !== '')) || ctl.test(url)) return bad;
  const rawHeaders: string[] = [];
  for (const line of lines.slice(1)) {
    if (line === '') break;
    const colon = line.indexOf(':');
    if (colon <= 0) return bad;
    const name = line.slice(0, colon);
    if (!token.test(name)) return bad;
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (ctl.test(value)) return { code: 400, text: 'invalid header value' };
    rawHeaders.push(name, value);
  }
  return { method, url, httpVersionMajor: Number(version[1]), httpVersionMinor: Number(version[2]), rawHeaders };
}

export function isRequestHead(x: RequestHead | PlainAnswer): x is RequestHead {
  return 'method' in x;
}
