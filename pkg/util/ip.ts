// IP addresses as Go's net package reads and prints them: the bytes of either family (an
// IPv4-mapped IPv6 address is IPv4, as To4 says), and the canonical text of an address.
import { isIP } from 'node:net';

/** The 16 bytes of an IPv6 address, or the 4 of an IPv4 one (IPv4-mapped IPv6 included); null when not an IP. */
export function ipBytes(ip: string): number[] | null {
  if (ip.includes('%')) return null;
  const family = isIP(ip);
  if (family === 4) return ip.split('.').map(Number);
  if (family !== 6) return null;
  let text = ip;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tail = text.slice(lastColon + 1).split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : bytes;
}

/**
 * The family and canonical text of an address (Go's ParseIP then String): IPv4 dotted, IPv4-mapped
 * IPv6 as IPv4, IPv6 lower-case with the longest run of zero groups compressed; undefined when not an IP.
 */
export function canonicalIP(ip: string): { family: 4 | 6; text: string } | undefined {
  const b = ipBytes(ip);
  return b ? { family: b.length === 4 ? 4 : 6, text: formatIPBytes(b) } : undefined;
}

/** Go's printing of an address's bytes: 4 as dotted decimal, 16 as RFC 5952 IPv6 (no IPv4-mapped form). */
export function formatIPBytes(b: ArrayLike<number>): string {
  if (b.length === 4) return Array.from(b).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  // RFC 5952, as Go: the longest run of at least two zero groups (the first of equals) becomes '::'.
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  return best < 0 ? hex(groups) : `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}
