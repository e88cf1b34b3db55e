// A real token webhook (spec 5.7) for tests: HTTPS with a certificate of its own CA, requiring the
// API server's client certificate, answering TokenReviews by the token under review, and the
// kubeconfig file that points the API server at it (--authentication-token-webhook-config-file).
import type { ServerResponse } from 'node:http';
import { stringify } from 'yaml';
import { TestCA } from '../../../pkg/authentication/testing/ca.js';
import { sendJSON, startTestHttpsServer, type TestHttpsServer, type TestRequest } from '../../../pkg/authentication/testing/https-server.js';

/** The user the webhook vouches for. */
export interface WebhookUser {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** How the webhook answers a token. */
export type WebhookBehaviour =
  | { authenticated: WebhookUser }
  /** 200 with authenticated false, with status.error when given. */
  | { refused: string | undefined }
  /** An HTTP status with a text body. */
  | { status: number }
  /** 200 with a body that is not a TokenReview. */
  | { garbage: string }
  /** The connection is closed without an answer. */
  | { reset: true };

export interface TokenWebhook {
  server: TestHttpsServer;
  /** The kubeconfig naming the webhook, its CA and the API server's client certificate. */
  kubeconfigPath: string;
  /** The common name of the client certificate the API server presents. */
  clientName: string;
  /** Sets how a token is answered; tokens without a behaviour are refused without an error. */
  answer(token: string, behaviour: WebhookBehaviour): void;
  /** Makes every answer wait this long (0 by default), as a busy token service does. */
  delay(ms: number): void;
  /** The requests received carrying a TokenReview of this token, with the review parsed. */
  reviewsOf(token: string): Array<{ request: TestRequest; review: Record<string, any> }>;
  close(): Promise<void>;
}

/** Starts the webhook; `write(name, content)` stores its kubeconfig and PEM files, returning their paths. */
export async function startTokenWebhook(write: (name: string, content: string) => string): Promise<TokenWebhook> {
  const servingCA = TestCA.root({ commonName: 'token-webhook-ca' });
  const serving = servingCA.server(['127.0.0.1']);
  const clientCA = TestCA.root({ commonName: 'token-webhook-client-ca' });
  const clientName = 'orch-apiserver';
  const client = clientCA.client(clientName);
  const behaviours = new Map<string, WebhookBehaviour>();
  let delayMs = 0;

  const reply = (res: ServerResponse, review: Record<string, any>, b: WebhookBehaviour | undefined) => {
    const answer = (status: Record<string, unknown>) => sendJSON(res, 200, { apiVersion: review.apiVersion, kind: 'TokenReview', status });
    if (!b) return answer({ authenticated: false });
    if ('authenticated' in b) return answer({ authenticated: true, user: b.authenticated });
    if ('refused' in b) return answer({ authenticated: false, ...(b.refused ? { error: b.refused } : {}) });
    if ('status' in b) {
      res.writeHead(b.status, { 'content-type': 'text/plain' });
      res.end('the token service is not available');
      return;
    }
    if ('garbage' in b) return sendJSON(res, 200, b.garbage);
    res.socket?.destroy();
  };

  const server = await startTestHttpsServer({
    cert: serving.certPem,
    key: serving.keyPem,
    clientCA: clientCA.certPem,
    handler: async (req, res) => {
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      let review: Record<string, any>;
      try {
        review = JSON.parse(req.body) as Record<string, any>;
      } catch {
        res.writeHead(400);
        res.end();
        return;
      }
      reply(res, review, behaviours.get(String(review.spec?.token ?? '')));
    },
  });

  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'token-webhook', cluster: { server: `${server.url}/authenticate`, 'certificate-authority': write('webhook-ca.pem', servingCA.certPem) } }],
    users: [{ name: 'apiserver', user: { 'client-certificate': write('webhook-client.pem', client.certPem), 'client-key': write('webhook-client-key.pem', client.keyPem) } }],
    contexts: [{ name: 'webhook', context: { cluster: 'token-webhook', user: 'apiserver' } }],
    'current-context': 'webhook',
  };
  return {
    server,
    kubeconfigPath: write('webhook.kubeconfig', stringify(kubeconfig)),
    clientName,
    answer: (token, behaviour) => void behaviours.set(token, behaviour),
    delay: (ms) => {
      delayMs = ms;
    },
    reviewsOf: (token) =>
      server.requests
        .map((request) => {
          try {
            return { request, review: JSON.parse(request.body) as Record<string, any> };
          } catch {
            return { request, review: {} };
          }
        })
        .filter((r) => r.review.spec?.token === token),
    close: () => server.close(),
  };
}
