// The ranges services take their addresses from: a CIDR of cluster IPs
// (--service-cluster-ip-range) and a span of node ports (--service-node-port-range).
import ipaddr from 'ipaddr.js';
import { parseCidr } from '../../networking/cidr.js';

/** A CIDR of service IPs; offsets count from the network address. */
export class IPRange {
  readonly family: 'IPv4' | 'IPv6';
  private readonly base: bigint;
  private readonly bits: number;
  /** Usable offsets are 1..size (the network address, and for IPv4 the broadcast address, are never handed out). */
  readonly size: number;

  private constructor(readonly cidr: string, addr: ipaddr.IPv4 | ipaddr.IPv6, prefix: number) {
    this.family = addr.kind() === 'ipv4' ? 'IPv4' : 'IPv6';
    this.bits = this.family === 'IPv4' ? 32 : 128;
    const hostBits = this.bits - prefix;
    const mask = (1n << BigInt(hostBits)) - 1n;
    this.base = toBigInt(addr) & ~mask;
    const total = 1n << BigInt(hostBits);
    const usable = this.family === 'IPv4' ? total - 2n : total - 1n;
    // Upstream caps a range's bitmap the same way; nobody needs more than a /12's worth of services.
    this.size = Number(usable > 1048576n ? 1048576n : usable < 0n ? 0n : usable);
  }

  /** Parses `10.0.0.0/24`; throws with an operator-facing message when it is not a usable range. */
  static parse(text: string): IPRange {
    const c = parseCidr(text.trim());
    if (!c) throw new Error(`${JSON.stringify(text)} is not a valid CIDR (e.g. 10.0.0.0/24)`);
    const r = new IPRange(text.trim(), c.addr, c.bits);
    if (r.size < 1) throw new Error(`${text} is too small: it has no address to hand out`);
    // The CIDR as written may carry host bits; name the range by its network address, as upstream prints it.
    return Object.assign(r, { cidr: `${r.ipAt(0)}/${c.bits}` });
  }

  /** The IP at `offset` from the network address. */
  ipAt(offset: number): string {
    const v = this.base + BigInt(offset);
    if (this.family === 'IPv4') return ipaddr.fromByteArray(bigToBytes(v, 4)).toString();
    return ipaddr.fromByteArray(bigToBytes(v, 16)).toString();
  }

  /** The offset of `ip` in the range, or null when it is not a usable address of the range. */
  offsetOf(ip: string): number | null {
    if (!ipaddr.isValid(ip)) return null;
    let addr = ipaddr.parse(ip);
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
    if ((addr.kind() === 'ipv4') !== (this.family === 'IPv4')) return null;
    const off = toBigInt(addr) - this.base;
    if (off < 1n || off > BigInt(this.size)) return null;
    return Number(off);
  }

  /** The canonical text of an IP of this range (IPv6 compressed, as upstream prints it). */
  canonical(ip: string): string {
    const off = this.offsetOf(ip);
    return off === null ? ip : this.ipAt(off);
  }
}

function toBigInt(addr: ipaddr.IPv4 | ipaddr.IPv6): bigint {
  return addr.toByteArray().reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
}

function bigToBytes(v: bigint, n: number): number[] {
  const out = new Array<number>(n);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** A span of node ports, `30000-32767` (upstream also takes `base+size`). */
export class PortRange {
  private constructor(readonly base: number, readonly size: number) {}

  static parse(text: string): PortRange {
    const t = text.trim();
    let m = /^(\d+)-(\d+)$/.exec(t);
    if (m) {
      const lo = Number(m[1]);
      const hi = Number(m[2]);
      if (lo < 1 || hi > 65535 || hi < lo) throw new Error(`${JSON.stringify(text)} is not a valid port range: the ports must be 1-65535, the first no greater than the last`);
      return new PortRange(lo, hi - lo + 1);
    }
    m = /^(\d+)\+(\d+)$/.exec(t);
    if (m) {
      const lo = Number(m[1]);
      const hi = lo + Number(m[2]);
      if (lo < 1 || hi > 65535) throw new Error(`${JSON.stringify(text)} is not a valid port range: the ports must be 1-65535`);
      return new PortRange(lo, hi - lo + 1);
    }
    m = /^(\d+)$/.exec(t);
    if (m && Number(m[1]) >= 1 && Number(m[1]) <= 65535) return new PortRange(Number(m[1]), 1);
    throw new Error(`${JSON.stringify(text)} is not a valid port range (e.g. 30000-32767)`);
  }

  contains(port: number): boolean {
    return port >= this.base && port < this.base + this.size;
  }

  toString(): string {
    return `${this.base}-${this.base + this.size - 1}`;
  }
}
