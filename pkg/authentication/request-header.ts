// The authenticating proxy (spec 5.8, --requestheader-*): a front proxy that has authenticated the
// user itself passes the identity in headers. Only a client certificate that verifies against the
// request-header CA (for client authentication) and, when allowed names are set, carries one of
// those common names makes the headers trusted. From anyone else they are never read: without a
// certificate this method answers "not mine"; with a certificate it does not trust it fails, as
// upstream's x509 Verifier in front of the header authenticator does, which still lets another
// method (x509, a bearer token) authenticate the request but keeps it from being anonymous.
// stripRequestHeaders removes the headers either way, so nothing later reads them.
import type { X509Certificate } from 'node:crypto';
import { authenticated, failed, skipped, type AuthenticationRequest, type AuthenticationResult, type RequestAuthenticator } from './authenticator.js';
import { certificateFields, commonName } from './certificate.js';
import { deleteHeaders, headerNames, headerValue, headerValues } from './headers.js';
import { ClientCertificateVerifier } from './x509.js';

/** The header names and prefixes of the proxy protocol. */
export interface RequestHeaderNames {
  /**
   * --requestheader-username-headers: checked in order, case-insensitively; the first with a value
   * names the user. The spec calls the flag required; without names every request is "not mine".
   */
  usernameHeaders: string[];
  /** --requestheader-uid-headers: as the username headers, for the uid. Default: none. */
  uidHeaders?: string[];
  /** --requestheader-group-headers: every value of every one is a group. Default: none. */
  groupHeaders?: string[];
  /** --requestheader-extra-headers-prefix: headers starting with one of these (any case) become extra. Default: none. */
  extraHeaderPrefixes?: string[];
}

export interface RequestHeaderOptions extends RequestHeaderNames {
  /** The CAs of --requestheader-client-ca-file (no default: without it there is no proxy authentication). */
  clientCA: readonly X509Certificate[];
  /** --requestheader-allowed-names: common names a proxy certificate may have. Default: empty, any. */
  allowedNames?: string[];
  now?: () => Date;
}

/** The headers upstream's authentication filter always removes after authentication (the aggregation protocol's). */
export const standardRequestHeaderNames: Required<RequestHeaderNames> = {
  usernameHeaders: ['X-Remote-User'],
  uidHeaders: ['X-Remote-Uid'],
  groupHeaders: ['X-Remote-Group'],
  extraHeaderPrefixes: ['X-Remote-Extra-'],
};

/** Upstream's trimHeaders: names are trimmed; a blank one is a configuration error. */
function trimmed(names: readonly string[] | undefined): string[] {
  return (names ?? []).map((name) => {
    const t = name.trim();
    if (!t) throw new Error(`empty header ${JSON.stringify(name)}`);
    return t;
  });
}

/** url.PathUnescape: %XX escapes decoded (as UTF-8); a malformed escape leaves the key as it came. */
function pathUnescape(s: string): string {
  if (!s.includes('%')) return s;
  if (/%(?![0-9a-fA-F]{2})/.test(s)) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const b of Buffer.from(s[i]!, 'utf8')) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function lowerAll(names: readonly string[] | undefined): string[] {
  return (names ?? []).map((n) => n.trim().toLowerCase()).filter((n) => n);
}

function matcher(names: RequestHeaderNames): (lowerName: string) => boolean {
  const exact = new Set([...lowerAll(names.usernameHeaders), ...lowerAll(names.uidHeaders), ...lowerAll(names.groupHeaders)]);
  const prefixes = lowerAll(names.extraHeaderPrefixes);
  return (n) => exact.has(n) || prefixes.some((p) => n.startsWith(p));
}

/**
 * Removes the identity headers of the proxy protocol from the request: the standard X-Remote-*
 * set and, when given, the configured names and prefixes. Upstream's filter does this after every
 * successful authentication; calling it for every request also keeps headers from an untrusted
 * sender away from everything after authentication.
 */
export function stripRequestHeaders(req: Pick<AuthenticationRequest, 'headers' | 'rawHeaders'>, names?: RequestHeaderNames): void {
  const standard = matcher(standardRequestHeaderNames);
  const configured = names ? matcher(names) : () => false;
  deleteHeaders(req, (n) => standard(n) || configured(n));
}

/** The proxy authenticator, with the verifier of its CA (exposed for tests and the TLS ca list). */
export function requestHeaderAuthenticator(opts: RequestHeaderOptions): RequestAuthenticator & { verifier: ClientCertificateVerifier } {
  const usernameHeaders = trimmed(opts.usernameHeaders);
  const uidHeaders = trimmed(opts.uidHeaders);
  const groupHeaders = trimmed(opts.groupHeaders);
  const extraPrefixes = trimmed(opts.extraHeaderPrefixes).map((p) => p.toLowerCase());
  const allowed = (opts.allowedNames ?? []).filter((n) => n.trim());
  const verifier = new ClientCertificateVerifier({ roots: opts.clientCA, ...(opts.now ? { now: opts.now } : {}) });
  const ours = matcher({ usernameHeaders, uidHeaders, groupHeaders, extraHeaderPrefixes: extraPrefixes });

  /**
   * Whether the request comes from a trusted proxy, as upstream's x509 Verifier decides before the
   * header authenticator runs: no certificate is "not mine", an untrusted one Go's reason.
   */
  const untrusted = (req: AuthenticationRequest): AuthenticationResult | undefined => {
    const leaf = req.peerCertificates[0];
    if (!leaf) return skipped;
    const verified = verifier.verify(req.peerCertificates);
    if (!verified.ok) return failed(verified.error);
    if (allowed.length === 0) return undefined;
    const cn = commonName(certificateFields(leaf));
    return allowed.includes(cn) ? undefined : failed(`x509: subject with cn=${cn} is not in the allowed list`);
  };

  return {
    name: 'requestheader',
    verifier,
    async authenticate(req: AuthenticationRequest): Promise<AuthenticationResult> {
      const refusal = untrusted(req);
      if (refusal) return refusal;
      const first = (names: string[]) => {
        for (const n of names) {
          const v = headerValue(req, n);
          if (v) return v;
        }
        return '';
      };
      const name = first(usernameHeaders);
      if (!name) return skipped;
      const uid = first(uidHeaders);
      const groups = groupHeaders.flatMap((h) => headerValues(req, h).filter((v) => v));
      const extra: Record<string, string[]> = {};
      for (const prefix of extraPrefixes) {
        for (const header of headerNames(req, (n) => n.startsWith(prefix))) {
          const key = pathUnescape(header.slice(prefix.length));
          (extra[key] ??= []).push(...headerValues(req, header));
        }
      }
      // Cleared as upstream does, so no later layer reads the proxy's identity headers again.
      deleteHeaders(req, ours);
      return authenticated({ name, ...(uid ? { uid } : {}), groups, extra });
    },
  };
}
