// The ConfigMap cluster-info in orch-public (upstream: written by kubeadm, read by `kubeadm join`):
// `kubeconfig` is a client configuration naming this server and the CA that verifies it, readable
// anonymously so a new machine can find the cluster with nothing but a bootstrap token. The API
// server keeps `kubeconfig` current at every start; the `jws-kubeconfig-*` keys are the bootstrap
// signer's and are never touched here.
import { isIP } from 'node:net';
import { kubeconfigYAML } from '../../util/kubeconfig/write.js';
import { ClusterInfo } from '../../../api/core/v1/bootstrap-token.js';
import type { Store } from '../generic/store.js';
import type { StoredObject } from '../../storage/interface.js';

/** `https://<address>:<port>`, an IPv6 address bracketed. */
export function serverURL(address: string, port: number): string {
  return `https://${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
}

/**
 * The kubeconfig document cluster-info carries, as kubeadm writes it: a v1 Config with one cluster
 * named "" holding `server` and `certificate-authority-data`, and nothing else.
 */
export function clusterInfoKubeconfig(server: string, caPem: string): string {
  return kubeconfigYAML({ server, caPEM: caPem });
}

const code = (e: unknown) => (e as { code?: number }).code;

/**
 * Creates cluster-info with `kubeconfig`, or sets `kubeconfig` when it differs (every other key
 * stays). Answers what it did.
 */
export async function reconcileClusterInfo(configMaps: Store, kubeconfig: string): Promise<'created' | 'updated' | 'unchanged'> {
  const { namespace, name, kubeconfigKey } = ClusterInfo;
  const dataOf = (o: StoredObject) => (o as { data?: Record<string, string> }).data ?? {};
  for (;;) {
    let current: StoredObject | undefined;
    try {
      current = await configMaps.get(namespace, name);
    } catch (e) {
      if (code(e) !== 404) throw e;
    }
    if (!current) {
      try {
        await configMaps.create(namespace, { metadata: { name, namespace }, data: { [kubeconfigKey]: kubeconfig } } as StoredObject);
        return 'created';
      } catch (e) {
        // Another server made it meanwhile: compare with theirs.
        if (code(e) === 409) continue;
        throw e;
      }
    }
    if (dataOf(current)[kubeconfigKey] === kubeconfig) return 'unchanged';
    try {
      // With the resourceVersion read: a signer writing meanwhile makes us read again, keeping its keys.
      await configMaps.update(namespace, name, async () => ({ ...structuredClone(current), data: { ...dataOf(current), [kubeconfigKey]: kubeconfig } }) as StoredObject);
      return 'updated';
    } catch (e) {
      if (code(e) === 409 || code(e) === 404) continue;
      throw e;
    }
  }
}
