// Where an APIService's requests go, as upstream's aggregator resolves a service with endpoint
// routing: the Service's port of the APIService's number, then a ready address of its Endpoints
// with the port of the same name; an ExternalName Service is reached at its external name. The
// caBundle verifies the backend as `<service>.<namespace>.svc`, whatever address it was reached at.
import { rootCertificates } from 'node:tls';
import type { APIService } from '../../api/apiregistration/v1/api-service.js';
import type { Endpoints } from '../../api/core/v1/endpoints.js';
import type { Service } from '../../api/core/v1/service.js';
import type { StoredObject } from '../storage/interface.js';
import { hostForURL } from '../registry/core/connect-locations.js';
import type { BackendTLS } from '../util/proxy/upgrade-aware.js';

/** Reads an object of the server's caches (or etcd when the cache has not seen it yet); undefined when there is none. */
export type ObjectReader = (namespace: string, name: string) => Promise<StoredObject | undefined>;

/** Why a service cannot be reached, in the terms of the Available condition. */
export class ResolveError extends Error {
  constructor(readonly reason: 'ServiceNotFound' | 'ServicePortError' | 'EndpointsNotFound' | 'MissingEndpoints', message: string) {
    super(message);
  }
}

export interface Backend {
  /** `https://host:port`, without a path. */
  origin: URL;
  tls: BackendTLS;
}

const rootCertificatesPem = () => rootCertificates.join('\n');
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

export class ServiceResolver {
  constructor(private readonly services: ObjectReader, private readonly endpoints: ObjectReader) {}

  /** The address an APIService with a service reference is reached at; throws a ResolveError worded as upstream's availability reasons. */
  async resolve(s: APIService): Promise<{ host: string; port: number }> {
    const ref = s.spec?.service ?? {};
    const ns = ref.namespace ?? '';
    const name = ref.name ?? '';
    const port = ref.port ?? 443;
    const svc = (await this.services(ns, name)) as Service | undefined;
    if (!svc) throw new ResolveError('ServiceNotFound', `service/${name} in "${ns}" is not present`);
    if (svc.spec?.type === 'ExternalName') return { host: svc.spec.externalName ?? '', port };
    const svcPort = (svc.spec?.ports ?? []).find((p) => p.port === port);
    if (!svcPort) throw new ResolveError('ServicePortError', `service/${name} in "${ns}" is not listening on port ${port}`);
    const eps = (await this.endpoints(ns, name)) as Endpoints | undefined;
    if (!eps) throw new ResolveError('EndpointsNotFound', `cannot find endpoints for service/${name} in "${ns}"`);
    const portName = svcPort.name ?? '';
    const candidates: { host: string; port: number }[] = [];
    for (const ss of eps.subsets ?? []) {
      const p = (ss.ports ?? []).find((x) => (x.name ?? '') === portName);
      if (!p) continue;
      for (const a of ss.addresses ?? []) if (a.ip) candidates.push({ host: a.ip, port: p.port });
    }
    if (candidates.length === 0) throw new ResolveError('MissingEndpoints', `endpoints for service/${name} in "${ns}" have no addresses with port name "${portName}"`);
    return pick(candidates);
  }

  /** The backend of an APIService: its resolved address, verified with its caBundle (or not, with insecureSkipTLSVerify), presenting `client`. */
  async backend(s: APIService, client: { cert?: string; key?: string }): Promise<Backend> {
    const { host, port } = await this.resolve(s);
    const ref = s.spec?.service ?? {};
    const ca = s.spec?.caBundle ? Buffer.from(s.spec.caBundle, 'base64').toString('utf8') : undefined;
    const verify = s.spec?.insecureSkipTLSVerify !== true;
    const tls: BackendTLS = {
      ...(client.cert && client.key ? { cert: client.cert, key: client.key } : {}),
      // Without a caBundle upstream verifies with the system roots; Node's default CAs are those.
      ...(verify ? { ca: ca ?? rootCertificatesPem(), serverName: `${ref.name ?? ''}.${ref.namespace ?? ''}.svc` } : {}),
    };
    return { origin: new URL(`https://${hostForURL(host)}:${port}`), tls };
  }
}
