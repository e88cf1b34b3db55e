// A real HTTPS server on 127.0.0.1 that requests (never requires) a client certificate, as the API
// server does, and hands each request to a test's handler as an AuthenticationRequest built from
// the real IncomingMessage; plus a client that calls it with chosen certificates and headers.
import type { X509Certificate } from 'node:crypto';
import { createServer, request, type Agent, type Server } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { authenticationRequest, type AuthenticationRequest } from '../authenticator.js';
import { peerCertificateChain, tlsClientCAs } from '../x509.js';
import { TestCA } from './ca.js';

export interface TestTLSServer {
  port: number;
  /** The CA of the server's certificate, for clients. */
  servingCA: TestCA;
  /** Sends a GET with the given client certificate chain and headers; resolves with the handler's JSON answer. */
  call(o?: { cert?: { chainPem: string; keyPem: string }; headers?: Record<string, string | string[]>; agent?: Agent }): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Starts the server. `clientCAs` are advertised in the certificate request (as tlsClientCAs builds
 * them); `handle` gets the request as an authenticator sees it, plus the raw message, and returns
 * the JSON the client receives.
 */
export async function startTLSServer(
  clientCAs: ReadonlyArray<readonly X509Certificate[]>,
  handle: (req: AuthenticationRequest, raw: IncomingMessage) => Promise<unknown>,
): Promise<TestTLSServer> {
  const servingCA = TestCA.root({ commonName: 'test-serving-ca' });
  const serving = servingCA.server(['127.0.0.1']);
  const server: Server = createServer(
    { cert: serving.certPem, key: serving.keyPem, ca: tlsClientCAs(...clientCAs), requestCert: true, rejectUnauthorized: false },
    (rq, rs) => {
      const ar = authenticationRequest(rq, peerCertificateChain(rq.socket as TLSSocket));
      handle(ar, rq).then(
        (body) => rs.end(JSON.stringify(body)),
        (e: unknown) => {
          rs.statusCode = 500;
          rs.end(JSON.stringify({ error: String(e) }));
        },
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    servingCA,
    call: (o = {}) =>
      new Promise((resolve, reject) => {
        const r = request(
          { host: '127.0.0.1', port, path: '/', ca: servingCA.certPem, agent: o.agent ?? false, headers: o.headers ?? {}, ...(o.cert ? { cert: o.cert.chainPem, key: o.cert.keyPem } : {}) },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (d: string) => (body += d));
            res.on('end', () => {
              try {
                resolve(JSON.parse(body));
              } catch (e) {
                reject(e as Error);
              }
            });
          },
        );
        r.on('error', reject);
        r.end();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
