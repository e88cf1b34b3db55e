// Kubernetes' IP and CIDR libraries (library/ip.go, library/cidr.go, new in 1.30): addresses and
// prefixes parsed as Go's netip parses them, IPv4-mapped IPv6 addresses and zones refused.
import { isIPv4, isIPv6 } from 'node:net';
import type { Environment } from '@marcbachmann/cel-js';
import { formatIPBytes } from '../../util/ip.js';
import { fail } from './errors.js';

/** An IP address as 4 or 16 bytes. */
export class KubeIP {
  constructor(readonly bytes: Uint8Array) {}
  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }
  equals(o: unknown): boolean {
    return o instanceof KubeIP && Buffer.compare(this.bytes, o.bytes) === 0;
  }
  toString(): string {
    return formatIPBytes(this.bytes);
  }
}

/** A network prefix: an address and a length. */
export class KubeCIDR {
  constructor(readonly ip: KubeIP, readonly bits: number) {}
  masked(): KubeCIDR {
    const b = Uint8Array.from(this.ip.bytes);
    for (let i = 0; i < b.length; i++) {
      const keep = Math.max(0, Math.min(8, this.bits - i * 8));
      b[i]! &= (0xff << (8 - keep)) & 0xff;
    }
    return new KubeCIDR(new KubeIP(b), this.bits);
  }
  contains(ip: KubeIP): boolean {
    return ip.family === this.ip.family && new KubeCIDR(ip, this.bits).masked().ip.equals(this.masked().ip);
  }
  equals(o: unknown): boolean {
    return o instanceof KubeCIDR && o.bits === this.bits && o.ip.equals(this.ip);
  }
  toString(): string {
    return `${this.ip.toString()}/${this.bits}`;
  }
}

function v4Bytes(s: string): number[] {
  return s.split('.').map(Number);
}

/** Go's netip.ParseAddr, as far as its results and refusals matter here. */
function parseAddr(raw: string): KubeIP | { error: string; zone?: boolean } {
  if (raw.includes('%')) {
    const addr = raw.slice(0, raw.indexOf('%'));
    if (isIPv6(addr) && raw.length > addr.length + 1) return { error: 'zone', zone: true };
    return { error: `ParseAddr(${JSON.stringify(raw)}): unable to parse IP` };
  }
  if (isIPv4(raw)) return new KubeIP(Uint8Array.from(v4Bytes(raw)));
  if (!isIPv6(raw)) return { error: `ParseAddr(${JSON.stringify(raw)}): unable to parse IP` };
  let text = raw;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v = v4Bytes(last);
    text = `${text.slice(0, lastColon + 1)}${((v[0]! << 8) | v[1]!).toString(16)}:${((v[2]! << 8) | v[3]!).toString(16)}`;
  }
  const [head, rest] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const h = head === '' ? [] : head.split(':').map((x) => parseInt(x, 16));
  const r = rest === undefined || rest === '' ? [] : rest.split(':').map((x) => parseInt(x, 16));
  const words = rest === undefined ? h : [...h, ...new Array<number>(8 - h.length - r.length).fill(0), ...r];
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => { bytes[2 * i] = w >> 8; bytes[2 * i + 1] = w & 0xff; });
  return new KubeIP(bytes);
}

const isV4Mapped = (ip: KubeIP) => ip.family === 6 && ip.bytes.slice(0, 10).every((b) => b === 0) && ip.bytes[10] === 0xff && ip.bytes[11] === 0xff;

/** The address, or the error text of upstream's parseIPAddr. */
export function parseIP(raw: string): KubeIP | string {
  const a = parseAddr(raw);
  if (!(a instanceof KubeIP)) {
    if (a.zone) return `IP address ${JSON.stringify(raw)} with zone value is not allowed`;
    return `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ${a.error}`;
  }
  if (isV4Mapped(a)) return `IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`;
  return a;
}

/** The prefix, or the error text of upstream's parseCIDR. */
export function parseCIDR(raw: string): KubeCIDR | string {
  const slash = raw.lastIndexOf('/');
  const bad = `netip.ParsePrefix(${JSON.stringify(raw)}): `;
  if (slash < 0) return `network address parse error during conversion from string: ${bad}no '/'`;
  const a = parseAddr(raw.slice(0, slash));
  if (!(a instanceof KubeIP)) return `network address parse error during conversion from string: ${bad}${a.zone ? 'IPv6 zones cannot be present in a prefix' : a.error}`;
  const bitsText = raw.slice(slash + 1);
  const bits = /^(0|[1-9][0-9]*)$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!(bits >= 0 && bits <= a.bytes.length * 8)) return `network address parse error during conversion from string: ${bad}bad bits after slash: ${JSON.stringify(bitsText)}`;
  if (isV4Mapped(a)) return `IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`;
  return new KubeCIDR(a, bits);
}

class IPNamespace {}

const inRange = (ip: KubeIP, cidr: string) => (parseCIDR(cidr) as KubeCIDR).contains(ip);

/** Registers the IP and CIDR functions on `env`. */
export function registerIPAndCIDR(env: Environment): void {
  const IP = 'net.IP';
  const CIDR = 'net.CIDR';
  env.registerType(IP, KubeIP);
  env.registerType(CIDR, KubeCIDR);
  const ip = (s: string): KubeIP => {
    const r = parseIP(s);
    return typeof r === 'string' ? fail(r) : r;
  };
  const cidr = (s: string): KubeCIDR => {
    const r = parseCIDR(s);
    return typeof r === 'string' ? fail(r) : r;
  };
  env.registerFunction(`ip(string): ${IP}`, ip);
  env.registerFunction('isIP(string): bool', (s: string) => typeof parseIP(s) !== 'string');
  env.registerFunction(`string(${IP}): string`, (a: KubeIP) => a.toString());
  env.registerFunction(`${IP}.family(): int`, (a: KubeIP) => BigInt(a.family));
  env.registerFunction(`${IP}.isUnspecified(): bool`, (a: KubeIP) => a.bytes.every((b) => b === 0));
  env.registerFunction(`${IP}.isLoopback(): bool`, (a: KubeIP) => a.family === 4 ? a.bytes[0] === 127 : a.toString() === '::1');
  env.registerFunction(`${IP}.isLinkLocalMulticast(): bool`, (a: KubeIP) => a.family === 4 ? inRange(a, '224.0.0.0/24') : a.bytes[0] === 0xff && (a.bytes[1]! & 0x0f) === 0x02);
  env.registerFunction(`${IP}.isLinkLocalUnicast(): bool`, (a: KubeIP) => a.family === 4 ? inRange(a, '169.254.0.0/16') : inRange(a, 'fe80::/10'));
  env.registerFunction(`${IP}.isGlobalUnicast(): bool`, (a: KubeIP) => {
    if (a.family === 4) {
      if (a.bytes.every((b) => b === 255)) return false;
      return !(a.bytes.every((b) => b === 0) || a.bytes[0] === 127 || inRange(a, '224.0.0.0/4') || inRange(a, '169.254.0.0/16'));
    }
    return !(a.bytes.every((b) => b === 0) || a.toString() === '::1' || a.bytes[0] === 0xff || inRange(a, 'fe80::/10'));
  });
  // ip.isCanonical is a namespaced function: `ip` is also a constant whose type carries it.
  env.registerType('kubernetes.internal.IPNamespace', IPNamespace);
  env.registerConstant('ip', 'kubernetes.internal.IPNamespace', new IPNamespace());
  env.registerFunction('kubernetes.internal.IPNamespace.isCanonical(string): bool', (_ns: IPNamespace, s: string) => ip(s).toString() === s);
  env.registerFunction(`cidr(string): ${CIDR}`, cidr);
  env.registerFunction('isCIDR(string): bool', (s: string) => typeof parseCIDR(s) !== 'string');
  env.registerFunction(`string(${CIDR}): string`, (c: KubeCIDR) => c.toString());
  env.registerFunction(`${CIDR}.containsIP(${IP}): bool`, (c: KubeCIDR, a: KubeIP) => c.contains(a));
  env.registerFunction(`${CIDR}.containsIP(string): bool`, (c: KubeCIDR, s: string) => c.contains(ip(s)));
  const containsCIDR = (c: KubeCIDR, o: KubeCIDR) => c.bits <= o.bits && c.contains(o.ip);
  env.registerFunction(`${CIDR}.containsCIDR(${CIDR}): bool`, containsCIDR);
  env.registerFunction(`${CIDR}.containsCIDR(string): bool`, (c: KubeCIDR, s: string) => containsCIDR(c, cidr(s)));
  env.registerFunction(`${CIDR}.ip(): ${IP}`, (c: KubeCIDR) => c.ip);
  env.registerFunction(`${CIDR}.masked(): ${CIDR}`, (c: KubeCIDR) => c.masked());
  env.registerFunction(`${CIDR}.prefixLength(): int`, (c: KubeCIDR) => BigInt(c.bits));
  for (const T of [IP, CIDR]) {
    env.registerOperator(`${T} == ${T}`, (a: KubeIP | KubeCIDR, b: KubeIP | KubeCIDR) => a.equals(b));
  }
}
