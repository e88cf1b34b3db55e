// Token discovery (kubeadm's discovery/token, with spec 2.12's key): fetch `cluster-info` from
// `orch-public` anonymously without trusting the server yet, verify its detached JWS with the
// bootstrap token, check the CA against the operator's pins, and fetch it again over TLS verified
// by that CA to be sure the server holding the CA's key serves the same document.
import { createHash, X509Certificate } from 'node:crypto';
import { parse as parseYAML } from 'yaml';
import { BootstrapTokenPattern, ClusterInfo as ClusterInfoNames } from '../../../api/core/v1/bootstrap-token.js';
import { Client, isNotFound, isStatusError, type KubeObject } from '../../../pkg/client/index.js';
import type { Logger } from '../../../pkg/log/logger.js';
import { verifyDetached } from '../../../pkg/util/bootstrap/jws.js';
import { pemCertificates } from '../../../pkg/util/certificates/pem.js';

const { namespace: publicNamespace, name: clusterInfoName, kubeconfigKey, signatureKeyPrefix: jwsKeyPrefix } = ClusterInfoNames;

/** What the cluster told us, once verified: where it is and which CA vouches for it. */
export interface ClusterInfo {
  /** The `server` cluster-info names (informational: the join keeps the endpoint it was given). */
  server: string;
  /** PEM bundle of the cluster CA. */
  caPEM: string;
}

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

/** `sha256:<hex>` of a certificate's SubjectPublicKeyInfo, as kubeadm pins a CA. */
export function caCertHash(cert: X509Certificate): string {
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
  return `sha256:${createHash('sha256').update(spki).digest('hex')}`;
}

/** The CA and server of cluster-info's kubeconfig (its first cluster), or why it has none. */
export function readClusterKubeconfig(text: string): ClusterInfo {
  let doc: unknown;
  try {
    doc = parseYAML(text);
  } catch (e) {
    throw new Error(`cluster-info's kubeconfig could not be parsed: ${(e as Error).message}`);
  }
  const clusters = (doc as { clusters?: { cluster?: Record<string, unknown> }[] } | null)?.clusters;
  const cluster = Array.isArray(clusters) ? clusters[0]?.cluster : undefined;
  const caData = cluster?.['certificate-authority-data'];
  if (typeof caData !== 'string' || caData === '') throw new Error("cluster-info's kubeconfig has no cluster with certificate-authority-data");
  const caPEM = Buffer.from(caData, 'base64').toString('utf8');
  let certs: X509Certificate[];
  try {
    certs = pemCertificates(caPEM);
  } catch (e) {
    throw new Error(`cluster-info's certificate-authority-data is not a PEM certificate bundle: ${(e as Error).message}`);
  }
  if (certs.length === 0) throw new Error("cluster-info's certificate-authority-data holds no certificate");
  return { server: typeof cluster?.server === 'string' ? cluster.server : '', caPEM };
}

/** Whether any certificate of `caPEM` has one of the pinned public key hashes. */
export function matchesPins(caPEM: string, pins: readonly string[]): boolean {
  const wanted = new Set(pins.map((p) => p.toLowerCase()));
  return pemCertificates(caPEM).some((c) => wanted.has(caCertHash(c)));
}

export interface DiscoveryOptions {
  server: string;
  token: string;
  caCertHashes: readonly string[];
  unsafeSkipCAVerification: boolean;
  /** Absolute time (ms) after which discovery gives up. */
  deadline: number;
  /** Between attempts while cluster-info or its signature is not there yet. */
  retryMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The verified cluster-info. Keeps trying while the ConfigMap or the token's signature is missing
 * (the bootstrap signer may not have signed a new token yet) or the server cannot be reached;
 * refuses at once a signature that does not verify or a CA that matches no pin.
 */
export async function discoverClusterInfo(o: DiscoveryOptions, logger: Logger): Promise<ClusterInfo> {
  const m = BootstrapTokenPattern.exec(o.token);
  if (!m) throw new Error('the bootstrap token does not match the required format "[a-z0-9]{6}.[a-z0-9]{16}"');
  const tokenId = m[1]!;
  const insecure = new Client({ server: o.server, insecureSkipTLSVerify: true, timeoutMs: 10_000 });
  let kubeconfig: string;
  let signature: string;
  try {
    for (;;) {
      const found = await fetchSigned(insecure, tokenId).catch((e: unknown) => ({ error: describe(e) }));
      if ('kubeconfig' in found) {
        ({ kubeconfig, signature } = found);
        break;
      }
      if (Date.now() >= o.deadline) throw new Error(`could not get a signed cluster-info from ${o.server}: ${found.error}`);
      logger.info('waiting for cluster-info', { server: o.server, reason: found.error });
      await sleep(Math.min(o.retryMs ?? 2_000, Math.max(0, o.deadline - Date.now())));
    }
  } finally {
    insecure.close();
  }
  const verified = await verifyDetached(signature, kubeconfig, { tokenId, tokenSecret: m[2]! });
  if (!verified.valid) {
    throw new Error(`failed to verify JWS signature of received cluster info object, can't trust this API Server: ${verified.reason}`);
  }
  const info = readClusterKubeconfig(kubeconfig);
  if (o.caCertHashes.length > 0) {
    if (!matchesPins(info.caPEM, o.caCertHashes)) {
      throw new Error(`cluster CA found in cluster-info ConfigMap is invalid: none of the public keys ${JSON.stringify(pemCertificates(info.caPEM).map(caCertHash))} are pinned`);
    }
  } else if (!o.unsafeSkipCAVerification) {
    throw new Error('refusing to trust cluster-info without a CA pin (give --discovery-token-ca-cert-hash or --discovery-token-unsafe-skip-ca-verification)');
  } else {
    logger.warn('trusting the cluster CA on the bootstrap token signature alone (no --discovery-token-ca-cert-hash)');
  }
  // Now that the CA is trusted, the server must prove it holds the CA's certificate key and serve the same document.
  const secure = new Client({ server: o.server, caData: info.caPEM, timeoutMs: 10_000 });
  try {
    const again = await secure.resource<ConfigMap>('', 'v1', 'configmaps').namespace(publicNamespace).get(clusterInfoName);
    if (again.data?.[kubeconfigKey] !== kubeconfig) throw new Error('the cluster-info fetched over verified TLS differs from the one the token signature verified');
  } catch (e) {
    throw new Error(`could not validate cluster-info over TLS verified by its CA: ${describe(e)}`);
  } finally {
    secure.close();
  }
  logger.info('cluster-info verified with the bootstrap token', { tokenID: tokenId, server: o.server, clusterServer: info.server });
  return info;
}

async function fetchSigned(client: Client, tokenId: string): Promise<{ kubeconfig: string; signature: string } | { error: string }> {
  let cm: ConfigMap;
  try {
    cm = await client.resource<ConfigMap>('', 'v1', 'configmaps').namespace(publicNamespace).get(clusterInfoName);
  } catch (e) {
    if (isNotFound(e)) return { error: `there is no ${clusterInfoName} ConfigMap in ${publicNamespace}` };
    throw e;
  }
  const kubeconfig = cm.data?.[kubeconfigKey];
  if (kubeconfig === undefined) return { error: `the ${clusterInfoName} ConfigMap has no ${kubeconfigKey} key` };
  const signature = cm.data?.[`${jwsKeyPrefix}${tokenId}`];
  if (signature === undefined) {
    return { error: `token id ${JSON.stringify(tokenId)} is invalid for this cluster or it has expired (cluster-info holds no signature for it)` };
  }
  return { kubeconfig, signature };
}

function describe(e: unknown): string {
  if (isStatusError(e)) return e.message;
  return e instanceof Error ? e.message : String(e);
}
