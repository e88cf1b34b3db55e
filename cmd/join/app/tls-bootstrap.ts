// TLS bootstrapping (the kubelet's bootstrap client, upstream pkg/kubelet/certificate/bootstrap):
// as the bootstrap token's identity, ask for a node client certificate with a
// CertificateSigningRequest to the kube-apiserver-client-kubelet signer, wait until it is approved
// and issued (or denied, or failed), and check the certificate is for our key.
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { ApiDomain } from '../../../api/domain.js';
import { Client, isAlreadyExists, type KubeObject, type ResourceClient } from '../../../pkg/client/index.js';
import type { Logger } from '../../../pkg/log/logger.js';
import { createCSR } from '../../../pkg/util/certificates/csr.js';
import { pemCertificates } from '../../../pkg/util/certificates/pem.js';
import { nodesGroup, nodeUserPrefix } from '../../../pkg/util/certificates/signers.js';

/** What the kubelet asks for with an ECDSA key: no key encipherment. */
export const nodeClientUsages = ['digital signature', 'client auth'];

interface Condition {
  type: string;
  status?: string;
  reason?: string;
  message?: string;
}

interface CertificateSigningRequest extends KubeObject {
  spec: { request: string; signerName: string; usages: string[] };
  status?: { conditions?: Condition[]; certificate?: string };
}

export interface IssuedCredentials {
  /** PEM; the key never leaves this process but in the kubeconfig written for it. */
  certPEM: string;
  keyPEM: string;
  csrName: string;
}

export interface BootstrapOptions {
  server: string;
  caPEM: string;
  /** Holds a credential: never log it. */
  token: string;
  nodeName: string;
  domain: ApiDomain;
  deadline: number;
}

/**
 * A name that is the same for the same key and request, so a retried join finds its own request
 * instead of filing another (the kubelet's digestedName).
 */
function digestedName(publicKey: KeyObject, commonName: string, organizations: string[], usages: string[]): string {
  const h = createHash('sha512');
  h.update(publicKey.export({ type: 'spki', format: 'der' }));
  h.update(`${commonName}|${organizations.join('|')}|${usages.join('|')}`);
  return `node-csr-${h.digest('base64url').slice(0, 43)}`;
}

export async function requestNodeCertificate(o: BootstrapOptions, logger: Logger): Promise<IssuedCredentials> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const commonName = `${nodeUserPrefix}${o.nodeName}`;
  const organizations = [nodesGroup];
  const request = createCSR({ key: privateKey, commonName, organizations });
  const name = digestedName(publicKey, commonName, organizations, nodeClientUsages);
  const client = new Client({ server: o.server, caData: o.caPEM, bearerToken: o.token, timeoutMs: 10_000 });
  try {
    const csrs = client.resource<CertificateSigningRequest>(o.domain.group('certificates'), 'v1', 'certificatesigningrequests');
    const body: CertificateSigningRequest = {
      metadata: { name },
      spec: { request: Buffer.from(request).toString('base64'), signerName: o.domain.key('kube-apiserver-client-kubelet'), usages: nodeClientUsages },
    };
    try {
      await csrs.create(body);
      logger.info('certificate signing request created', { name, signer: body.spec.signerName, node: o.nodeName });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      logger.info('certificate signing request already exists; waiting for it', { name });
    }
    const certPEM = await waitForCertificate(csrs, name, o.deadline, logger);
    const cert = pemCertificates(certPEM)[0];
    if (!cert?.publicKey.equals(publicKey)) throw new Error(`the certificate issued for ${name} is not for this request's key`);
    return { certPEM, keyPEM: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), csrName: name };
  } finally {
    client.close();
  }
}

/** The issued certificate, once the request is approved and signed; an error when it is denied or fails, or at the deadline. */
async function waitForCertificate(csrs: ResourceClient<CertificateSigningRequest>, name: string, deadline: number, logger: Logger): Promise<string> {
  let rv = '';
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`timed out waiting for the certificate signing request ${name} to be approved and signed`);
    if (rv === '') {
      const csr = await csrs.get(name);
      const done = outcome(csr);
      if (done !== undefined) return done;
      rv = csr.metadata.resourceVersion ?? '';
    }
    const watch = await csrs.watch({ fieldSelector: `metadata.name=${name}`, resourceVersion: rv, timeoutSeconds: Math.max(1, Math.ceil(left / 1000)) });
    try {
      for await (const ev of watch) {
        if (ev.type === 'ERROR') {
          rv = '';
          break;
        }
        if (ev.type === 'DELETED') throw new Error(`the certificate signing request ${name} was deleted before it was issued`);
        const csr = ev.object as CertificateSigningRequest;
        rv = csr.metadata.resourceVersion ?? rv;
        const done = outcome(csr);
        if (done !== undefined) return done;
        logger.v(2).info('certificate signing request changed, still waiting', { name });
      }
    } finally {
      watch.stop();
    }
  }
}

/** The certificate when issued; throws on Denied or Failed; undefined while pending. */
function outcome(csr: CertificateSigningRequest): string | undefined {
  const name = csr.metadata.name;
  for (const c of csr.status?.conditions ?? []) {
    if (c.type === 'Denied' && c.status !== 'False') throw new Error(`certificate signing request ${name} is denied, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}`);
    if (c.type === 'Failed' && c.status !== 'False') throw new Error(`certificate signing request ${name} failed, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}`);
  }
  const approved = (csr.status?.conditions ?? []).some((c) => c.type === 'Approved' && c.status !== 'False');
  if (approved && csr.status?.certificate) return Buffer.from(csr.status.certificate, 'base64').toString('utf8');
  return undefined;
}
