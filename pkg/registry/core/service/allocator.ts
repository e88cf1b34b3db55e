// What kube-apiserver's service registry does around a Service write: allocate its cluster IP
// from --service-cluster-ip-range and its node ports from --service-node-port-range before the
// write, undo that when the write fails, and release what the Service no longer uses after an
// update or a delete. Allocation state lives in etcd (see key-allocator.ts).
import type { Service, ServicePort } from '../../../../api/core/v1/service.js';
import { newInvalid } from '../../../runtime/errors.js';
import { invalid, Path, type FieldError } from '../../../runtime/field-errors.js';
import type { Storage } from '../../../storage/interface.js';
import { KeyAllocator, type Holder } from './key-allocator.js';
import type { IPRange, PortRange } from './ranges.js';

/** Finishes a write begun by an allocation hook: true when it was stored, false to undo. */
export type FinishWrite = (stored: boolean) => Promise<void>;

/** Storage key prefixes of the allocations, beside upstream's /registry/ranges/ objects. */
export const serviceIPsPrefix = '/ranges/serviceips/';
export const nodePortsPrefix = '/ranges/servicenodeports/';

export const needsClusterIP = (s: Service) => (s.spec?.type ?? 'ClusterIP') !== 'ExternalName';
export const needsNodePorts = (s: Service) => {
  const t = s.spec?.type;
  return t === 'NodePort' || (t === 'LoadBalancer' && s.spec?.allocateLoadBalancerNodePorts !== false);
};
export const needsHealthCheckNodePort = (s: Service) => s.spec?.type === 'LoadBalancer' && s.spec.externalTrafficPolicy === 'Local';

/** Reads a Service as stored, or null; used to tell whether an old allocation is still in use. */
export type ServiceLookup = (namespace: string, name: string) => Promise<Service | null>;

const spec = Path.root('spec');

/** The IPs a stored Service holds ("None" is no IP). */
function heldIPs(s: Service): string[] {
  if (!needsClusterIP(s)) return [];
  const ips = s.spec?.clusterIPs ?? (s.spec?.clusterIP ? [s.spec.clusterIP] : []);
  return ips.filter((ip) => ip !== '' && ip !== 'None');
}

/** The node ports a stored Service holds, its health check port included. */
function heldPorts(s: Service): number[] {
  const ports = new Set<number>();
  for (const p of s.spec?.ports ?? []) if (p.nodePort) ports.add(p.nodePort);
  if (s.spec?.healthCheckNodePort) ports.add(s.spec.healthCheckNodePort);
  return [...ports];
}

export class ServiceAllocator {
  private readonly ips: KeyAllocator;
  private readonly ports: KeyAllocator;
  /** Dynamic allocation prefers the upper part of the range and leaves the lower band to static requests (upstream KEP-3070). */
  private readonly ipBands: string[][];
  private readonly portBands: string[][];

  constructor(storage: Storage, readonly ipRange: IPRange, readonly portRange: PortRange, lookup: ServiceLookup) {
    const holderOf = async (h: Holder) => {
      const svc = await lookup(h.namespace, h.name);
      return svc && svc.metadata?.uid === h.uid ? svc : null;
    };
    this.ips = new KeyAllocator(storage, serviceIPsPrefix, async (h, item) => {
      const svc = await holderOf(h);
      return !!svc && heldIPs(svc).some((ip) => ipRange.canonical(ip) === item);
    });
    this.ports = new KeyAllocator(storage, nodePortsPrefix, async (h, item) => {
      const svc = await holderOf(h);
      return !!svc && heldPorts(svc).includes(Number(item));
    });
    this.ipBands = bands(ipRange.size, 1, Math.min(Math.max(16, Math.floor(ipRange.size / 16)), 256), (o) => ipRange.ipAt(o));
    this.portBands = bands(portRange.size, portRange.base, Math.min(Math.max(16, Math.floor(portRange.size / 32)), 128), String);
  }

  /** The first IP of the range, which the `kubernetes` Service takes. */
  firstIP(): string {
    return this.ipRange.ipAt(1);
  }

  /** Allocates what a new Service needs, filling in clusterIP(s), ipFamilies and node ports. */
  async beginCreate(svc: Service, dryRun: boolean): Promise<FinishWrite> {
    return this.allocateFor(svc, null, dryRun);
  }

  /** Allocates what an updated Service needs beyond the old one; the finish releases what it dropped. */
  async beginUpdate(svc: Service, old: Service, dryRun: boolean): Promise<FinishWrite> {
    return this.allocateFor(svc, old, dryRun);
  }

  /** Releases everything a deleted Service held. */
  async release(svc: Service): Promise<void> {
    const holder = holderOf(svc);
    for (const ip of heldIPs(svc)) await this.ips.release(this.ipRange.canonical(ip), holder);
    for (const port of heldPorts(svc)) await this.ports.release(String(port), holder);
  }

  private async allocateFor(svc: Service, old: Service | null, dryRun: boolean): Promise<FinishWrite> {
    const holder = holderOf(svc);
    const s = (svc.spec ??= {});
    const gotIPs: string[] = [];
    const gotPorts: string[] = [];
    const undo = async () => {
      if (dryRun) return;
      for (const ip of gotIPs) await this.ips.release(ip, holder);
      for (const p of gotPorts) await this.ports.release(p, holder);
    };
    const errs: FieldError[] = [];
    try {
      if (needsClusterIP(svc)) {
        this.checkFamilies(svc, errs);
        const oldIPs = old ? heldIPs(old).map((ip) => this.ipRange.canonical(ip)) : [];
        const wanted = s.clusterIP ?? '';
        if (wanted === 'None') {
          s.clusterIPs = ['None'];
        } else if (errs.length === 0) {
          let ip: string | null = wanted === '' ? null : this.ipRange.canonical(wanted);
          if (ip !== null && oldIPs.includes(ip)) {
            // Kept as it was.
          } else if (ip !== null) {
            const problem = this.ipRange.offsetOf(ip) === null
              ? `provided IP is not in the valid range. The range of valid IPs is ${this.ipRange.cidr}`
              : !(dryRun ? await this.ips.available(ip, holder) : await this.ips.allocate(ip, holder)) ? 'provided IP is already allocated' : '';
            if (problem) errs.push(invalid(spec.child('clusterIPs'), s.clusterIPs ?? [wanted], `failed to allocate IP ${wanted}: ${problem}`));
            else if (!dryRun) gotIPs.push(ip);
          } else {
            ip = await this.ips.allocateAny(this.ipBands, holder, dryRun);
            if (ip === null) errs.push(invalid(spec.child('clusterIPs'), [], `failed to allocate a serviceIP: range is full`));
            else if (!dryRun) gotIPs.push(ip);
          }
          if (ip !== null && errs.length === 0) {
            s.clusterIP = ip;
            s.clusterIPs = [ip];
          }
        }
      }
      if (errs.length === 0) await this.allocatePorts(svc, old, holder, dryRun, gotPorts, errs);
    } catch (e) {
      await undo();
      throw e;
    }
    if (errs.length > 0) {
      await undo();
      throw newInvalid('Service', '', svc.metadata?.name ?? '', errs);
    }
    return async (stored) => {
      if (!stored) return undo();
      if (!old || dryRun) return;
      // Stored: let go of what the old Service held and the new one does not.
      const keepIPs = new Set(heldIPs(svc).map((ip) => this.ipRange.canonical(ip)));
      const keepPorts = new Set(heldPorts(svc));
      for (const ip of heldIPs(old).map((i) => this.ipRange.canonical(i))) if (!keepIPs.has(ip)) await this.ips.release(ip, holder);
      for (const p of heldPorts(old)) if (!keepPorts.has(p)) await this.ports.release(String(p), holder);
    };
  }

  /** Single-stack clusters: the range's family, and no dual-stack requirement. */
  private checkFamilies(svc: Service, errs: FieldError[]): void {
    const s = svc.spec!;
    const family = this.ipRange.family;
    if (!s.ipFamilies || s.ipFamilies.length === 0) s.ipFamilies = [family];
    s.ipFamilyPolicy ??= 'SingleStack';
    s.ipFamilies.forEach((f, i) => {
      if (f !== family) errs.push(invalid(spec.child('ipFamilies').index(i), f, 'not configured on this cluster'));
    });
    if (s.ipFamilyPolicy === 'RequireDualStack') {
      errs.push(invalid(spec.child('ipFamilyPolicy'), s.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'));
    }
    const ip = s.clusterIP ?? '';
    if (ip !== '' && ip !== 'None' && this.ipRange.offsetOf(ip) === null && (ip.includes(':') ? 'IPv6' : 'IPv4') !== family) {
      errs.push(invalid(spec.child('clusterIPs'), s.clusterIPs ?? [ip], `failed to allocate IP ${ip}: provided IP is not in the valid range. The range of valid IPs is ${this.ipRange.cidr}`));
    }
  }

  private async allocatePorts(svc: Service, old: Service | null, holder: Holder, dryRun: boolean, got: string[], errs: FieldError[]): Promise<void> {
    const s = svc.spec!;
    const oldPorts = new Set(old ? heldPorts(old) : []);
    const take = async (port: number, path: Path): Promise<boolean> => {
      if (oldPorts.has(port) || got.includes(String(port))) return true;
      let problem = '';
      if (!this.portRange.contains(port)) problem = `provided port is not in the valid range. The range of valid ports is ${this.portRange}`;
      else if (!(dryRun ? await this.ports.available(String(port), holder) : await this.ports.allocate(String(port), holder))) problem = 'provided port is already allocated';
      if (problem) {
        errs.push(invalid(path, port, problem));
        return false;
      }
      if (!dryRun) got.push(String(port));
      return true;
    };
    const any = async (path: Path): Promise<number | null> => {
      const p = await this.ports.allocateAny(this.portBands, holder, dryRun);
      if (p === null) {
        errs.push(invalid(path, 0, 'failed to allocate a nodePort: range is full'));
        return null;
      }
      if (!dryRun) got.push(p);
      return Number(p);
    };
    if (needsNodePorts(svc)) {
      // The same port number under several protocols shares one node port, as upstream does.
      const byPort = new Map<number, number>();
      const ports: ServicePort[] = s.ports ?? [];
      for (const p of ports) if (p.nodePort) byPort.set(p.port, p.nodePort);
      for (const [i, p] of ports.entries()) {
        const path = spec.child('ports').index(i).child('nodePort');
        if (p.nodePort) {
          await take(p.nodePort, path);
        } else {
          const reuse = byPort.get(p.port);
          const n = reuse ?? (await any(path));
          if (n !== null) {
            p.nodePort = n;
            byPort.set(p.port, n);
          }
        }
      }
    }
    if (needsHealthCheckNodePort(svc)) {
      const path = spec.child('healthCheckNodePort');
      if (s.healthCheckNodePort) await take(s.healthCheckNodePort, path);
      else {
        const n = await any(path);
        if (n !== null) s.healthCheckNodePort = n;
      }
    }
  }
}

function holderOf(svc: Service): Holder {
  return { namespace: svc.metadata?.namespace ?? '', name: svc.metadata?.name ?? '', uid: svc.metadata?.uid ?? '' };
}

/** Offsets 0..size-1 (shifted by `base`) split into [upper band, lower band]. */
function bands(size: number, base: number, lowerSize: number, name: (n: number) => string): string[][] {
  const lower: string[] = [];
  const upper: string[] = [];
  const cut = size > lowerSize * 2 ? lowerSize : 0;
  for (let i = 0; i < size; i++) (i < cut ? lower : upper).push(name(base + i));
  return [upper, lower];
}
