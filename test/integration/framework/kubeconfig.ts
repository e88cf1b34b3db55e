// A kubeconfig file for a test server, as a user of the real clients would have: the server's URL,
// its CA, and a bearer token (servers started without a token file serve it as anonymous) or a
// client certificate.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { ClientCertificate } from './client.js';

export interface Kubeconfig {
  /** A private temporary directory: the kubeconfig, and the clients' caches beside it. */
  dir: string;
  path: string;
  server: string;
  context: string;
  /** Removes the directory. */
  remove(): void;
}

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

/** For a server in this process (TestServer) or a binary (BinaryServer): its port and certificate. */
export function writeKubeconfig(t: { server: { port: number; cert: { cert: string } } }, credential: string | ClientCertificate = 'orch-test-token'): Kubeconfig {
  const dir = mkdtempSync(join(tmpdir(), 'orch-kubeconfig-'));
  const path = join(dir, 'config');
  const server = `https://127.0.0.1:${t.server.port}`;
  const context = 'orch-test';
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'orch-test', cluster: { server, 'certificate-authority-data': b64(t.server.cert.cert) } }],
    users: [{ name: 'tester', user: typeof credential === 'string' ? { token: credential } : { 'client-certificate-data': b64(credential.cert), 'client-key-data': b64(credential.key) } }],
    contexts: [{ name: context, context: { cluster: 'orch-test', user: 'tester', namespace: 'default' } }],
    'current-context': context,
    preferences: {},
  };
  writeFileSync(path, stringify(doc), { mode: 0o600 });
  return { dir, path, server, context, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
