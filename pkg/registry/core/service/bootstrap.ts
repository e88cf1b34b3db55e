// Upstream's bootstrap controller: the `kubernetes` Service in `default` (the first IP of the
// service range, port 443 named https, to the secure port) and its Endpoints and EndpointSlice
// pointing at the advertise address, reconciled whenever the server starts.
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import type { ApiDomain } from '../../../../api/domain.js';
import type { Endpoints } from '../../../../api/core/v1/endpoints.js';
import type { EndpointSlice } from '../../../../api/discovery/v1/endpoint-slice.js';
import type { Service } from '../../../../api/core/v1/service.js';
import { formatTime } from '../../../../api/meta/v1/primitives.js';
import { storagePrefix } from '../../../runtime/scheme.js';
import type { Store } from '../../generic/store.js';
import type { Storage, StoredObject } from '../../../storage/interface.js';

export interface MasterService {
  /** The IP the Service takes, the first of the range. */
  clusterIP: string;
  /** The server's secure port (the target port and the endpoint port). */
  securePort: number;
  /** The address the endpoints advertise. */
  advertiseAddress: string;
}

const NAME = 'kubernetes';
const NAMESPACE = 'default';
const labels = { component: 'apiserver', provider: 'kubernetes' };

/** Creates the `kubernetes` Service, or puts its port back as it should be. */
export async function reconcileKubernetesService(services: Store, m: MasterService): Promise<void> {
  const ports = [{ name: 'https', protocol: 'TCP' as const, port: 443, targetPort: m.securePort }];
  let current: Service | null = null;
  try {
    current = (await services.get(NAMESPACE, NAME)) as Service;
  } catch (e) {
    if ((e as { code?: number }).code !== 404) throw e;
  }
  if (!current) {
    try {
      await services.create(NAMESPACE, {
        metadata: { name: NAME, namespace: NAMESPACE, labels },
        spec: { type: 'ClusterIP', clusterIP: m.clusterIP, ports, sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' },
      } as StoredObject);
      return;
    } catch (e) {
      if ((e as { code?: number }).code !== 409) throw e;
      return; // another server made it meanwhile
    }
  }
  const have = (current.spec?.ports ?? []).map((p) => ({ name: p.name, protocol: p.protocol, port: p.port, targetPort: p.targetPort }));
  if (isDeepStrictEqual(have, ports) && current.spec?.type === 'ClusterIP') return;
  await services.update(NAMESPACE, NAME, async (cur) => {
    const svc = structuredClone(cur) as Service;
    svc.spec = { ...svc.spec, type: 'ClusterIP', ports };
    return svc as StoredObject;
  });
}

/**
 * Points the `kubernetes` Endpoints at this server. Written straight to storage: a loopback
 * advertise address (a server bound to loopback) is true here, though Endpoints validation refuses
 * loopback addresses from clients, as upstream's does. Labelled skip-mirror: the server writes the
 * EndpointSlice itself.
 */
export async function reconcileKubernetesEndpoints(storage: Storage, m: MasterService, domain: ApiDomain): Promise<void> {
  const subsets: Endpoints['subsets'] = [{ addresses: [{ ip: m.advertiseAddress }], ports: [{ name: 'https', port: m.securePort, protocol: 'TCP' }] }];
  const skipMirror = domain.key('skip-mirror', 'endpointslice');
  await storage.guaranteedUpdate(`/core/endpoints/${NAMESPACE}/${NAME}`, async (current) => {
    if (current && isDeepStrictEqual(current.subsets, subsets) && current.metadata.labels?.[skipMirror] === 'true') return null;
    const metadata = current
      ? { ...current.metadata, labels: { ...current.metadata.labels, [skipMirror]: 'true' } }
      : { name: NAME, namespace: NAMESPACE, uid: randomUUID(), creationTimestamp: formatTime(new Date()), labels: { [skipMirror]: 'true' } };
    delete metadata.resourceVersion;
    return { apiVersion: 'v1', kind: 'Endpoints', metadata, subsets };
  }, { ignoreNotFound: true });
}

/**
 * The `kubernetes` EndpointSlice, as upstream's endpoints adapter writes it beside the Endpoints:
 * named after the service, labelled with its name only (no controller manages it), the advertise
 * address ready on the https port. Written straight to storage for the same reason.
 */
export async function reconcileKubernetesEndpointSlice(storage: Storage, m: MasterService, domain: ApiDomain): Promise<void> {
  const group = domain.group('discovery');
  const want: Pick<EndpointSlice, 'addressType' | 'endpoints' | 'ports'> = {
    addressType: isIP(m.advertiseAddress) === 6 ? 'IPv6' : 'IPv4',
    endpoints: [{ addresses: [m.advertiseAddress], conditions: { ready: true } }],
    ports: [{ name: 'https', port: m.securePort, protocol: 'TCP' }],
  };
  const labels = { [domain.key('service-name')]: NAME };
  await storage.guaranteedUpdate(`${storagePrefix(group, 'endpointslices')}${NAMESPACE}/${NAME}`, async (current) => {
    const same = current && isDeepStrictEqual({ addressType: current.addressType, endpoints: current.endpoints, ports: current.ports }, want) &&
      isDeepStrictEqual(current.metadata.labels, labels);
    if (same) return null;
    const metadata = current
      ? { ...current.metadata, labels, generation: (current.metadata.generation ?? 1) + 1 }
      : { name: NAME, namespace: NAMESPACE, uid: randomUUID(), creationTimestamp: formatTime(new Date()), labels, generation: 1 };
    delete metadata.resourceVersion;
    return { apiVersion: `${group}/v1`, kind: 'EndpointSlice', metadata, ...want };
  }, { ignoreNotFound: true });
}
