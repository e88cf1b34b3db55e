// Upstream's bootstrap controller: the `kubernetes` Service in `default` (the first IP of the
// service range, port 443 named https, to the secure port) and its Endpoints pointing at the
// advertise address, reconciled whenever the server starts.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Endpoints } from '../../../../api/core/v1/endpoints.js';
import type { Service } from '../../../../api/core/v1/service.js';
import { formatTime } from '../../../../api/meta/v1/primitives.js';
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
 * loopback addresses from clients, as upstream's does.
 */
export async function reconcileKubernetesEndpoints(storage: Storage, m: MasterService): Promise<void> {
  const subsets: Endpoints['subsets'] = [{ addresses: [{ ip: m.advertiseAddress }], ports: [{ name: 'https', port: m.securePort, protocol: 'TCP' }] }];
  await storage.guaranteedUpdate(`/core/endpoints/${NAMESPACE}/${NAME}`, async (current) => {
    if (current && isDeepStrictEqual(current.subsets, subsets)) return null;
    const metadata = current
      ? { ...current.metadata }
      : { name: NAME, namespace: NAMESPACE, uid: randomUUID(), creationTimestamp: formatTime(new Date()), labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } };
    delete metadata.resourceVersion;
    return { apiVersion: 'v1', kind: 'Endpoints', metadata, subsets };
  }, { ignoreNotFound: true });
}
