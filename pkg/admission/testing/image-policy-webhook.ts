// A real image policy webhook for tests: HTTPS with a certificate of its own CA, requiring the API
// server's client certificate, answering ImageReviews as the test decides (allow by default), and
// the kubeconfig that points ImagePolicyWebhook at it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { TestCA } from '../../authentication/testing/ca.js';
import { sendJSON, startTestHttpsServer, type TestHttpsServer } from '../../authentication/testing/https-server.js';
import type { WebhookClientConfig } from '../../util/webhook/kubeconfig.js';

/** How the webhook answers one review: an ImageReview status, or an HTTP error with a text body. */
export type ImagePolicyAnswer = { allowed: boolean; reason?: string; auditAnnotations?: Record<string, string> } | { httpStatus: number };

/** A review as the webhook received it. */
export interface ReceivedReview {
  apiVersion: string;
  kind: string;
  spec: { containers?: Array<{ image?: string }>; annotations?: Record<string, string>; namespace?: string };
  /** The CN of the client certificate the caller presented. */
  clientCN: string | undefined;
}

export interface TestImagePolicyWebhook {
  server: TestHttpsServer;
  /** The client configuration of the webhook (its URL, CA and the caller's client certificate). */
  client: WebhookClientConfig;
  /** How reviews are answered from now on. */
  decide(answer: (review: ReceivedReview) => ImagePolicyAnswer): void;
  /** Every review received so far. */
  reviews(): ReceivedReview[];
  /** Writes the kubeconfig naming the webhook (and its PEM files) into `dir`; returns its path. */
  writeKubeconfig(dir: string): string;
  close(): Promise<void>;
}

/** The images a review asks about, in order. */
export const imagesOf = (r: ReceivedReview): string[] => (r.spec.containers ?? []).map((c) => c.image ?? '');

export async function startImagePolicyWebhook(): Promise<TestImagePolicyWebhook> {
  const servingCA = TestCA.root({ commonName: 'image-policy-ca' });
  const serving = servingCA.server(['127.0.0.1']);
  const clientCA = TestCA.root({ commonName: 'image-policy-client-ca' });
  const caller = clientCA.client('orch-apiserver');
  let answer: (review: ReceivedReview) => ImagePolicyAnswer = () => ({ allowed: true });
  const parse = (body: string, clientCN: string | undefined): ReceivedReview => ({ ...(JSON.parse(body) as Omit<ReceivedReview, 'clientCN'>), clientCN });
  const server = await startTestHttpsServer({
    cert: serving.certPem,
    key: serving.keyPem,
    clientCA: clientCA.certPem,
    handler: (req, res) => {
      const review = parse(req.body, req.clientCN);
      const a = answer(review);
      if ('httpStatus' in a) {
        res.writeHead(a.httpStatus, { 'content-type': 'text/plain' });
        res.end('the image policy service is not available');
        return;
      }
      sendJSON(res, 200, { apiVersion: review.apiVersion, kind: 'ImageReview', status: a });
    },
  });
  const client: WebhookClientConfig = { server: `${server.url}/review`, ca: servingCA.certPem, cert: caller.certPem, key: caller.keyPem, insecureSkipTLSVerify: false };
  return {
    server,
    client,
    decide: (a) => void (answer = a),
    reviews: () => server.requests.map((r) => parse(r.body, r.clientCN)),
    writeKubeconfig(dir) {
      const file = (name: string, content: string) => {
        writeFileSync(join(dir, name), content);
        return join(dir, name);
      };
      return file('image-policy.kubeconfig', stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'image-policy', cluster: { server: client.server, 'certificate-authority': file('image-policy-ca.pem', servingCA.certPem) } }],
        users: [{ name: 'apiserver', user: { 'client-certificate': file('image-policy-client.pem', caller.certPem), 'client-key': file('image-policy-client-key.pem', caller.keyPem) } }],
        contexts: [{ name: 'webhook', context: { cluster: 'image-policy', user: 'apiserver' } }],
        'current-context': 'webhook',
      }));
    },
    close: () => server.close(),
  };
}
