// Writing a kubeconfig (clientcmd's v1 Config) with one cluster, one user and one context, its
// certificates and keys embedded: what cluster-info publishes (the cluster alone) and what a
// joined node keeps.
import { stringify } from 'yaml';

export interface KubeconfigUser {
  /** PEM, embedded as client-certificate-data / client-key-data. */
  clientCertificatePEM?: string;
  clientKeyPEM?: string;
  token?: string;
}

export interface KubeconfigSpec {
  server: string;
  /** PEM bundle, embedded as certificate-authority-data. */
  caPEM: string;
  /** The cluster's name; kubeadm's cluster-info leaves it empty. */
  clusterName?: string;
  /** Without a user the document names a cluster only (cluster-info). */
  user?: KubeconfigUser;
  userName?: string;
  contextName?: string;
}

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

/** The kubeconfig as YAML. */
export function kubeconfigYAML(s: KubeconfigSpec): string {
  const clusterName = s.clusterName ?? '';
  const cluster = { cluster: { 'certificate-authority-data': b64(s.caPEM), server: s.server }, name: clusterName };
  if (!s.user) return goYAML({ apiVersion: 'v1', clusters: [cluster], contexts: null, 'current-context': '', kind: 'Config', preferences: {}, users: null });
  const userName = s.userName ?? 'default-auth';
  const contextName = s.contextName ?? 'default-context';
  const user: Record<string, string> = {};
  if (s.user.clientCertificatePEM) user['client-certificate-data'] = b64(s.user.clientCertificatePEM);
  if (s.user.clientKeyPEM) user['client-key-data'] = b64(s.user.clientKeyPEM);
  if (s.user.token) user.token = s.user.token;
  return goYAML({
    apiVersion: 'v1',
    clusters: [cluster],
    contexts: [{ context: { cluster: clusterName, user: userName }, name: contextName }],
    'current-context': contextName,
    kind: 'Config',
    preferences: {},
    users: [{ name: userName, user }],
  });
}

/** Keys in Go's (alphabetical) order, no folding (base64 stays on one line), list items level with their key, as Go's YAML writes them. */
function goYAML(doc: unknown): string {
  return stringify(doc, { lineWidth: 0, indentSeq: false });
}
