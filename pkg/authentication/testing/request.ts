// AuthenticationRequests for unit tests, shaped as Node shapes a request: rawHeaders as they came,
// headers keyed by lower-case name with repeated values joined by ', '.
import type { X509Certificate } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthenticationRequest } from '../authenticator.js';

export function authRequest(headers: Array<[string, string]> = [], peerCertificates: X509Certificate[] = []): AuthenticationRequest {
  const parsed: IncomingHttpHeaders = {};
  const rawHeaders: string[] = [];
  for (const [name, value] of headers) {
    rawHeaders.push(name, value);
    const key = name.toLowerCase();
    const prev = parsed[key];
    parsed[key] = prev === undefined ? value : `${String(prev)}, ${value}`;
  }
  return { headers: parsed, rawHeaders, peerCertificates };
}
