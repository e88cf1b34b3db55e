// Where a webhook's `clientConfig.service` is reached (upstream's endpoint service resolver): the
// Service's port of that number, then an address of its Endpoints with the port of the same
// name, both read from the server's caches (live when the cache has not seen them yet).
import { newNotFound, newServiceUnavailable } from '../../runtime/errors.js';
import type { AdmissionObject, ObjectLister } from '../interfaces.js';

interface ServicePort { name?: string; port?: number }
interface Service { spec?: { type?: string; ports?: ServicePort[] } }
interface EndpointSubset { addresses?: { ip?: string }[]; ports?: { name?: string; port?: number }[] }
interface Endpoints { subsets?: EndpointSubset[] }

export interface ResolvedEndpoint {
  host: string;
  port: number;
}

async function read(lister: ObjectLister | undefined, namespace: string, name: string): Promise<AdmissionObject | undefined> {
  if (!lister) return undefined;
  return lister.get(namespace, name) ?? (await lister.fetch(namespace, name));
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

export class ServiceResolver {
  constructor(private readonly services: ObjectLister | undefined, private readonly endpoints: ObjectLister | undefined) {}

  /** An endpoint of the Service's port `port`; throws an Error worded as upstream's when there is none. */
  async resolve(namespace: string, name: string, port: number): Promise<ResolvedEndpoint> {
    const svc = (await read(this.services, namespace, name)) as Service | undefined;
    // Upstream's listers word a missing object with the singular resource.
    if (!svc) throw newNotFound({ group: '', resource: 'service' }, name);
    const type = svc.spec?.type ?? 'ClusterIP';
    if (!['ClusterIP', 'LoadBalancer', 'NodePort'].includes(type)) throw new Error(`unsupported service type ${JSON.stringify(type)}`);
    const svcPort = (svc.spec?.ports ?? []).find((p) => p.port === port);
    if (!svcPort) throw newServiceUnavailable(`no service port ${port} found for service ${JSON.stringify(name)}`);
    const eps = (await read(this.endpoints, namespace, name)) as Endpoints | undefined;
    if (!eps) throw newNotFound({ group: '', resource: 'endpoints' }, name);
    const subsets = eps.subsets ?? [];
    if (subsets.length === 0) throw newServiceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
    // Start at a random subset, as upstream spreads calls over them.
    const seed = Math.floor(Math.random() * subsets.length);
    for (let i = 0; i < subsets.length; i++) {
      const ss = subsets[(seed + i) % subsets.length]!;
      const addresses = (ss.addresses ?? []).filter((a) => a.ip);
      if (addresses.length === 0) continue;
      const p = (ss.ports ?? []).find((sp) => (sp.name ?? '') === (svcPort.name ?? ''));
      if (p?.port) return { host: pick(addresses).ip!, port: p.port };
    }
    throw newServiceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
  }
}
