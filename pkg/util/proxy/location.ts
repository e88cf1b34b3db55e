// Reading a stream from a backend location (a node agent's container log), as upstream's
// LocationStreamer reads it with Go's HTTP client: one GET, the answer handed over unread to be
// streamed on; a failure to get an answer worded as Go's client words it.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { dialError, hostPort, ProxyError, tlsOptions, type ProxyTarget } from './upgrade-aware.js';

/** Node's codes for a serving certificate no trusted CA signed. */
const unknownAuthority = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'CERT_UNTRUSTED']);

/** Why a GET failed, as Go's url.Error prints it: `Get "<url>": <reason>`. */
function getError(url: URL, err: NodeJS.ErrnoException): ProxyError {
  let reason: string;
  if (err.code && unknownAuthority.has(err.code)) reason = 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  else if (err.code === 'ERR_TLS_CERT_ALTNAME_INVALID' || err.code === 'CERT_HAS_EXPIRED') reason = `tls: failed to verify certificate: x509: ${err.message}`;
  else if (err.code && /^E[A-Z]+$/.test(err.code)) reason = dialError(err, hostPort(url).hostPort);
  else if (err.name === 'AbortError' || err.name === 'TimeoutError') reason = 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';
  else reason = err.message;
  return new ProxyError(`Get "${url.toString()}": ${reason}`);
}

/**
 * GETs `target.url` and resolves with the backend's answer, unread. Rejects with a ProxyError when
 * no answer comes: the backend cannot be dialled within `dialTimeoutMs`, its certificate is not
 * trusted, or `signal` aborts first. Only dialling is timed: a stream may then idle as long as it likes.
 */
export function getLocation(target: ProxyTarget, signal: AbortSignal): Promise<IncomingMessage> {
  const { url } = target;
  const https = url.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const out = send(url, {
      method: 'GET',
      headers: { ...target.headers, 'Accept-Encoding': 'identity' },
      agent: false,
      signal,
      ...(https ? tlsOptions(target, hostPort(url).host) : {}),
    }, resolve);
    out.on('socket', (socket: Socket) => {
      const timer = setTimeout(() => out.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })), target.dialTimeoutMs ?? 30_000);
      socket.once(https ? 'secureConnect' : 'connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    out.on('error', (err: NodeJS.ErrnoException) => reject(getError(url, err)));
    out.end();
  });
}
