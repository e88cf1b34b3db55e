// The join: discovery with the bootstrap token, TLS bootstrap, then the node's kubeconfig written
// and proven by asking the server who it now is.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { apiDomain } from '../../../api/domain.js';
import { Client } from '../../../pkg/client/index.js';
import type { Logger } from '../../../pkg/log/logger.js';
import { kubeconfigYAML } from '../../../pkg/util/kubeconfig/write.js';
import { discoverClusterInfo } from './discovery.js';
import type { JoinOptions } from './options.js';
import { requestNodeCertificate } from './tls-bootstrap.js';

export interface JoinResult {
  /** Who the written kubeconfig authenticates as, by the server's own account. */
  username: string;
  groups: string[];
  csrName: string;
}

export async function runJoin(o: JoinOptions, logger: Logger): Promise<JoinResult> {
  const deadline = Date.now() + o.timeoutMs;
  const domain = apiDomain(o.apiDomain);
  const info = await discoverClusterInfo({ ...o, deadline }, logger);
  const issued = await requestNodeCertificate({ server: o.server, caPEM: info.caPEM, token: o.token, nodeName: o.nodeName, domain, deadline }, logger);
  logger.info('certificate issued', { csr: issued.csrName });
  const text = kubeconfigYAML({ server: o.server, caPEM: info.caPEM, clusterName: 'default-cluster', user: { clientCertificatePEM: issued.certPEM, clientKeyPEM: issued.keyPEM } });
  // Written whole or not at all: a half-written kubeconfig would lock the node out.
  mkdirSync(dirname(o.kubeconfig), { recursive: true });
  const tmp = `${o.kubeconfig}.tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, o.kubeconfig);
  const client = new Client({ server: o.server, caData: info.caPEM, certData: issued.certPEM, keyData: issued.keyPEM, timeoutMs: 10_000 });
  try {
    const review = (await client.request('POST', `/apis/${domain.group('authentication')}/v1/selfsubjectreviews`, {
      apiVersion: `${domain.group('authentication')}/v1`, kind: 'SelfSubjectReview',
    })) as { status?: { userInfo?: { username?: string; groups?: string[] } } };
    const username = review.status?.userInfo?.username ?? '';
    const groups = review.status?.userInfo?.groups ?? [];
    logger.info('kubeconfig written', { path: o.kubeconfig, user: username });
    return { username, groups, csrName: issued.csrName };
  } finally {
    client.close();
  }
}
