// The authentication step of the handler chain (ARCHITECTURE section 4): the configured union of
// authenticators decides who the request is from; a refused credential is 401 with upstream's
// Status, and the user travels on with the request.
import { X509Certificate } from 'node:crypto';
import type { TLSSocket, DetailedPeerCertificate } from 'node:tls';
import type { NextFunction, Request, Response } from 'express';
import { authenticationRequest, type AuthenticationRequest } from '../authentication/authenticator.js';
import { setRequestUser } from '../endpoints/request-user.js';
import { writeError } from '../endpoints/responses.js';
import type { Logger } from '../log/logger.js';
import { StatusError } from '../runtime/errors.js';
import type { UserInfo } from '../runtime/user.js';

/**
 * What the union of authenticators concluded: a user (perhaps anonymous), or why the request is
 * refused; `credentialPresented` is false when nothing was presented and anonymous requests are
 * off, which upstream refuses without logging.
 */
export type AuthenticationOutcome = { user: UserInfo } | { error: string; credentialPresented: boolean };

export type RequestAuthentication = (req: AuthenticationRequest) => Promise<AuthenticationOutcome>;

/** The client certificate chain of a connection, leaf first, parsed once per connection. */
const chains = new WeakMap<object, X509Certificate[]>();

export function peerCertificates(socket: unknown): X509Certificate[] {
  const tls = socket as Partial<TLSSocket> & object;
  if (typeof tls.getPeerCertificate !== 'function') return [];
  const cached = chains.get(tls);
  if (cached) return cached;
  const chain: X509Certificate[] = [];
  let cert: DetailedPeerCertificate | undefined = tls.getPeerCertificate(true);
  const seen = new Set<DetailedPeerCertificate>();
  while (cert && cert.raw && !seen.has(cert)) {
    seen.add(cert);
    try {
      chain.push(new X509Certificate(cert.raw));
    } catch {
      break; // an unparsable certificate ends the chain; the verifier refuses what is left
    }
    cert = cert.issuerCertificate === cert ? undefined : cert.issuerCertificate;
  }
  chains.set(tls, chain);
  return chain;
}

const unauthorized = () => new StatusError(401, 'Unauthorized', 'Unauthorized');

/** Express middleware: authenticates every request, answering 401 when the credentials are refused. */
export function withAuthentication(authenticate: RequestAuthentication, logger: Logger, failed?: (req: Request, res: Response) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    authenticate(authenticationRequest(req, peerCertificates(req.socket))).then((outcome) => {
      if ('error' in outcome) {
        // The reason never holds the credential itself; it tells the operator which method refused and why.
        if (outcome.credentialPresented) logger.error('Unable to authenticate the request', { path: req.path, userAgent: req.headers['user-agent'] ?? '', err: outcome.error });
        failed?.(req, res);
        writeError(res, unauthorized());
        return;
      }
      setRequestUser(res, outcome.user);
      next();
    }, (err: unknown) => next(err));
  };
}
