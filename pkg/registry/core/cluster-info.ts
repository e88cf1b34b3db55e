// The ConfigMap cluster-info in orch-public (upstream: written by kubeadm, read by `kubeadm join`):
// `kubeconfig` is a client configuration naming this server and the CA that verifies it, readable
// anonymously so a new machine can find the cluster with nothing but a bootstrap token. The API
// server keeps `kubeconfig` current at every start; the `jws-kubeconfig-*` keys are the bootstrap
// signer's and are never touched here.
import { isIP } from 'node:net';
import { kubeconfigYAML } from '../../util/kubeconfig/write.js';
import { ClusterInfo } from '../../../api/core/v1/bootstrap-token.js';
import type { Store } from '../generic/store.js';
import { reconcileConfigMapKeys } from './config-map-keys.js';

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

/**
 * Creates cluster-info with `kubeconfig`, or sets `kubeconfig` when it differs (every other key
 * stays). Answers what it did.
 */
export async function reconcileClusterInfo(configMaps: Store, kubeconfig: string): Promise<'created' | 'updated' | 'unchanged'> {
  const { namespace, name, kubeconfigKey } = ClusterInfo;
  return reconcileConfigMapKeys(configMaps, namespace, name, { [kubeconfigKey]: kubeconfig });
}
