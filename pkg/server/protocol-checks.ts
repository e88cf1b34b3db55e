// The checks Go's net/http makes on a request head before any handler sees it (protocol version,
// Host), which Node's parser leaves to the application.
import type { PlainAnswer } from './plain-answers.js';

/** What the checks read: Node's IncomingMessage, or a head read by request-head.ts. */
export interface HeadFacts {
  method?: string | undefined;
  url?: string | undefined;
  httpVersionMajor: number;
  httpVersionMinor: number;
  /** Alternating names and values. */
  rawHeaders: string[];
}

/** Host bytes Go accepts (golang.org/x/net/http/httpguts): letters, digits and a few URI punctuation marks. */
const validHost = /^[0-9A-Za-z!$%&'()*+,\-.:;=[\]_~]*$/;

/** The head's size on the wire (without optional whitespace), as Go's limit counts it. */
function headBytes(h: HeadFacts): number {
  let n = (h.method?.length ?? 0) + (h.url?.length ?? 0) + 12;
  for (let i = 0; i + 1 < h.rawHeaders.length; i += 2) n += h.rawHeaders[i]!.length + h.rawHeaders[i + 1]!.length + 3;
  return n + 2;
}

/**
 * The refusal Go would give this head, or undefined when it may be served. `maxHeadBytes` is checked
 * again here because Node's own limit leaves out the separators, so a flood of tiny headers can
 * pass it at several times the size Go accepts.
 */
export function protocolViolation(h: HeadFacts, maxHeadBytes: number): PlainAnswer | undefined {
  if (headBytes(h) > maxHeadBytes) return { code: 431 };
  if (h.httpVersionMajor !== 1) {
    // Node reads a request line without a version as HTTP/0.9; Go calls that a malformed request.
    if (h.httpVersionMajor === 0 && h.httpVersionMinor === 9) return { code: 400 };
    return { code: 505, text: 'unsupported protocol version' };
  }
  const hosts: string[] = [];
  for (let i = 0; i + 1 < h.rawHeaders.length; i += 2) {
    if (h.rawHeaders[i]!.toLowerCase() === 'host') hosts.push(h.rawHeaders[i + 1]!);
  }
  if (hosts.length === 0 && h.httpVersionMinor >= 1 && h.method !== 'CONNECT') return { code: 400, text: 'missing required Host header' };
  if (hosts.length > 1) return { code: 400, text: 'too many Host headers' };
  if (hosts.length === 1 && !validHost.test(hosts[0]!)) return { code: 400, text: 'malformed Host header' };
  return undefined;
}

/**
 * Whether Node's parser took this request for a protocol switch (an `Upgrade` header and `upgrade`
 * among the `Connection` tokens). Node serves it as a plain request when nobody listens for
 * upgrades, but its parser is left unable to report errors in the connection's later requests.
 */
export function asksForUpgrade(h: HeadFacts): boolean {
  let upgrade = false;
  let connectionUpgrade = false;
  for (let i = 0; i + 1 < h.rawHeaders.length; i += 2) {
    const name = h.rawHeaders[i]!.toLowerCase();
    if (name === 'upgrade') upgrade = true;
    else if (name === 'connection' && h.rawHeaders[i + 1]!.split(',').some((t) => t.trim().toLowerCase() === 'upgrade')) connectionUpgrade = true;
  }
  return upgrade && connectionUpgrade;
}
