// Strict CIDR parsing for policy peers: four-part decimal IPv4 without leading zeros or IPv6
// without a zone, and a decimal prefix length within the family's size.
import ipaddr from 'ipaddr.js';

export interface Cidr {
  addr: ipaddr.IPv4 | ipaddr.IPv6;
  bits: number;
}

/** The parsed CIDR, or null when `text` is not one. */
export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const ip = text.slice(0, slash);
  const bitsText = text.slice(slash + 1);
  if (!/^(0|[1-9]\d{0,2})$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  if (ip.includes(':')) {
    if (ip.includes('%') || !ipaddr.IPv6.isValid(ip) || bits > 128) return null;
    return { addr: ipaddr.IPv6.parse(ip), bits };
  }
  if (!ipaddr.IPv4.isValidFourPartDecimal(ip) || bits > 32) return null;
  return { addr: ipaddr.IPv4.parse(ip), bits };
}

/** Whether `inner` is a strictly smaller range inside `outer`. */
export function isStrictSubset(inner: Cidr, outer: Cidr): boolean {
  if (inner.addr.kind() !== outer.addr.kind()) return false;
  return inner.bits > outer.bits && inner.addr.match(outer.addr, outer.bits);
}
