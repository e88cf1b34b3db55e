// A real admission webhook for integration tests: an HTTPS server with its own CA that answers
// AdmissionReviews per path (allow by default) and keeps every review it received, plus the
// configuration objects that point the API server at it.
import type { ServerResponse } from 'node:http';
import { Etcd3 } from 'etcd3';
import { sendJSON, startTestHttpsServer, type TestHttpsServer, type TestRequest } from '../../../pkg/authentication/testing/https-server.js';
import { createTestCA, issueLoopbackServerCert, type KeyPairPem, type TestCA } from '../../../pkg/authentication/testing/pki.js';
import { pollUntil } from './authentication.js';
import type { Client } from './client.js';

export interface ReceivedReview {
  apiVersion: string;
  kind: string;
  request: {
    uid: string;
    kind: { group: string; version: string; kind: string };
    resource: { group: string; version: string; resource: string };
    subResource?: string;
    requestKind?: { group: string; version: string; kind: string };
    requestResource?: { group: string; version: string; resource: string };
    name?: string;
    namespace?: string;
    operation: string;
    userInfo: { username: string; groups?: string[] };
    object: Record<string, unknown> | null;
    oldObject: Record<string, unknown> | null;
    options: Record<string, unknown> | null;
    dryRun: boolean;
  };
}

/** Answers one review; `respond` writes an AdmissionReview response in the review's version. */
export type ReviewAnswer = (review: ReceivedReview, req: TestRequest, res: ServerResponse, respond: (response: Record<string, unknown>) => void) => void | Promise<void>;

export interface AdmissionWebhookServer {
  readonly url: string;
  readonly ca: TestCA;
  /** The CA bundle as a webhook's clientConfig.caBundle. */
  readonly caBundle: string;
  /** What `path` answers (default: allowed). */
  on(path: string, answer: ReviewAnswer): void;
  /** The reviews `path` received so far, in order. */
  reviews(path: string): ReceivedReview[];
  /** The raw requests `path` received so far. */
  requests(path: string): TestRequest[];
  close(): Promise<void>;
}

export const allowed: ReviewAnswer = (_review, _req, _res, respond) => respond({ allowed: true });

export function denied(status: Record<string, unknown> = {}): ReviewAnswer {
  return (_review, _req, _res, respond) => respond({ allowed: false, status });
}

export function patching(ops: unknown[], extra: Record<string, unknown> = {}): ReviewAnswer {
  return (_review, _req, _res, respond) => respond({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64'), ...extra });
}

/** Starts a webhook server on 127.0.0.1 with a certificate of `ca` (a new CA by default) for `cert`'s names or loopback. */
export async function startAdmissionWebhookServer(o: { ca?: TestCA; cert?: KeyPairPem; clientCA?: string; authorize?: (req: TestRequest) => boolean } = {}): Promise<AdmissionWebhookServer> {
  const ca = o.ca ?? createTestCA('admission-webhook-ca');
  const cert = o.cert ?? issueLoopbackServerCert(ca);
  const answers = new Map<string, ReviewAnswer>();
  const seen = new Map<string, { req: TestRequest; review: ReceivedReview }[]>();
  const server: TestHttpsServer = await startTestHttpsServer({
    ...cert,
    ...(o.clientCA ? { clientCA: o.clientCA } : {}),
    handler: async (req, res) => {
      const path = req.url.split('?')[0]!;
      if (o.authorize && !o.authorize(req)) {
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end('Unauthorized');
        return;
      }
      const review = JSON.parse(req.body) as ReceivedReview;
      let list = seen.get(path);
      if (!list) seen.set(path, (list = []));
      list.push({ req, review });
      const respond = (response: Record<string, unknown>) =>
        sendJSON(res, 200, { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, ...response } });
      await (answers.get(path) ?? allowed)(review, req, res, respond);
    },
  });
  return {
    url: server.url,
    ca,
    caBundle: Buffer.from(ca.cert).toString('base64'),
    on: (path, answer) => void answers.set(path, answer),
    reviews: (path) => (seen.get(path) ?? []).map((s) => s.review),
    requests: (path) => (seen.get(path) ?? []).map((s) => s.req),
    close: () => server.close(),
  };
}

export type WebhookKind = 'validating' | 'mutating';

/** The path of the configurations of `kind` in the admissionregistration group of `domain`. */
export function configurationsPath(domain: string, kind: WebhookKind, name = ''): string {
  return `/apis/admissionregistration.${domain}/v1/${kind}webhookconfigurations${name ? `/${name}` : ''}`;
}

/** Creates a configuration of `kind` named `name`; throws unless the server took it. */
export async function createConfiguration(client: Client, domain: string, kind: WebhookKind, name: string, webhooks: Record<string, unknown>[]): Promise<void> {
  const r = await client.post(configurationsPath(domain, kind), {
    apiVersion: `admissionregistration.${domain}/v1`,
    kind: kind === 'validating' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration',
    metadata: { name },
    webhooks,
  });
  if (r.status !== 201) throw new Error(`creating ${kind} configuration ${name}: ${r.status} ${r.text}`);
}

/** Retries `attempt` until `server`'s `path` has received a review (the configuration was picked up). */
export async function untilCalled<T>(server: AdmissionWebhookServer, path: string, attempt: () => Promise<T>): Promise<T> {
  const before = server.reviews(path).length;
  return pollUntil(attempt, () => server.reviews(path).length > before, `the webhook at ${path} to be called`);
}

/**
 * Writes an object into etcd as the server stores it, for what the API refuses to create (an
 * Endpoints at a loopback address, a configuration an older version accepted).
 */
export async function putStoredObject(etcdEndpoint: string, key: string, obj: Record<string, unknown>): Promise<void> {
  const etcd = new Etcd3({ hosts: etcdEndpoint });
  try {
    await etcd.put(key).value(JSON.stringify(obj));
  } finally {
    etcd.close();
  }
}

/** An Endpoints of `name` in `namespace` at 127.0.0.1:`port`, with port name `portName`, stored directly (validation refuses loopback). */
export async function putLoopbackEndpoints(etcdEndpoint: string, namespace: string, name: string, portName: string, port: number): Promise<void> {
  await putStoredObject(etcdEndpoint, `/registry/core/endpoints/${namespace}/${name}`, {
    apiVersion: 'v1', kind: 'Endpoints',
    metadata: { name, namespace, uid: `endpoints-${namespace}-${name}`, creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
    subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: portName, port, protocol: 'TCP' }] }],
  });
}
