// Client certificate authentication (--client-ca-file, spec 5.1) and the chain verification the
// authenticating proxy reuses. Verification follows Go's crypto/x509 Verify with
// ExtKeyUsageClientAuth, which is what kube-apiserver runs: the leaf's validity first, then chains
// built through the presented intermediates to a configured root (issuer found by name, signature
// checked with the issuer's key, each issuer valid now, allowed to sign and within its path
// length), then the extended key usage of every certificate of a chain must allow clientAuth
// (Go 1.24/1.25, which kube-apiserver is built with, checks usage after building chains).
// The TLS server only requests a certificate; it never verifies one, so this is the only check.
import { createHash, X509Certificate } from 'node:crypto';
import { pemCertificates } from '../util/certificates/pem.js';
import { readFileSync } from 'node:fs';
import type { TLSSocket } from 'node:tls';
import type { ApiDomain } from '../../api/domain.js';
import { authenticated, failed, skipped, type AuthenticationRequest, type AuthenticationResult, type RequestAuthenticator } from './authenticator.js';
import { certificateFields, commonName, keyUsageCertSign, oids, organizations, type CertificateFields } from './certificate.js';
import type { UserInfo } from '../runtime/user.js';

/** Go's limit on signature checks while building chains for one certificate. */
const maxSignatureChecks = 100;

/** Go's time.RFC3339 rendering of an instant, in UTC. */
function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Why `cert` is not valid now, worded as Go's CertificateInvalidError{Reason: Expired}. */
function validityError(f: CertificateFields, now: Date): string | undefined {
  if (now < f.notBefore) return `x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is before ${rfc3339(f.notBefore)}`;
  if (now > f.notAfter) return `x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is after ${rfc3339(f.notAfter)}`;
  return undefined;
}

/** The error Go's CheckSignatureFrom reports when `parent` did not sign `child`, or undefined when it did. */
function signatureError(child: X509Certificate, parent: X509Certificate, pf: CertificateFields): string | undefined {
  // RFC 5280 4.2.1.9 and 4.2.1.3: only a CA certificate whose key usage allows it may sign.
  if ((pf.version === 3 && !pf.basicConstraintsValid) || (pf.basicConstraintsValid && !pf.isCA) || (pf.keyUsage !== 0 && (pf.keyUsage & keyUsageCertSign) === 0)) {
    return 'x509: invalid signature: parent certificate cannot sign this kind of certificate';
  }
  let ok = false;
  try {
    ok = child.verify(parent.publicKey);
  } catch {
    ok = false;
  }
  if (ok) return undefined;
  switch (parent.publicKey.asymmetricKeyType) {
    case 'ec':
      return 'x509: ECDSA verification failure';
    case 'ed25519':
      return 'x509: Ed25519 verification failure';
    default:
      return 'crypto/rsa: verification error';
  }
}

/** Go's name for a candidate authority in an UnknownAuthorityError hint. */
function hintName(f: CertificateFields): string {
  return commonName(f) || organizations(f)[0] || `serial:${f.serial}`;
}

function unknownAuthority(hint?: { error: string; cert: X509Certificate }): string {
  const base = 'x509: certificate signed by unknown authority';
  if (!hint) return base;
  return `${base} (possibly because of ${JSON.stringify(hint.error)} while trying to verify candidate authority certificate ${JSON.stringify(hintName(certificateFields(hint.cert)))})`;
}

function sameCertificate(a: X509Certificate, b: X509Certificate): boolean {
  return a.raw.equals(b.raw);
}

/** Go's alreadyInChain: the same certificate, or one with the same subject and key. */
function inChain(candidate: X509Certificate, chain: X509Certificate[]): boolean {
  const cf = certificateFields(candidate);
  return chain.some((c) => {
    if (sameCertificate(c, candidate)) return true;
    const f = certificateFields(c);
    return f.rawSubject === cf.rawSubject && f.publicKeyId === cf.publicKeyId;
  });
}

/** Go's checkChainForKeyUsage: every certificate restricting its usage must allow `usage` (or any). */
function chainAllows(chain: X509Certificate[], usage: string): boolean {
  return chain.every((c) => {
    const eku = certificateFields(c).extKeyUsage;
    return eku.length === 0 || eku.includes(oids.anyExtendedKeyUsage) || eku.includes(usage);
  });
}

export type VerifyResult = { ok: true; chains: X509Certificate[][] } | { ok: false; error: string };

export interface VerifierOptions {
  /** The trusted roots: every certificate of the CA bundle. */
  roots: readonly X509Certificate[];
  /** The clock; tests fix it. Default: the current time. */
  now?: () => Date;
}

/**
 * Verifies a presented chain (leaf first, then intermediates) for client authentication, as Go's
 * `leaf.Verify(VerifyOptions{Roots, Intermediates, KeyUsages: [ClientAuth]})`. Errors are Go's texts.
 */
export class ClientCertificateVerifier {
  private readonly roots: X509Certificate[];
  private readonly now: () => Date;

  constructor(opts: VerifierOptions) {
    this.roots = [...opts.roots];
    this.now = opts.now ?? (() => new Date());
  }

  verify(presented: readonly X509Certificate[]): VerifyResult {
    const [leaf, ...intermediates] = presented;
    if (!leaf) return { ok: false, error: 'x509: no certificate presented' };
    let fields: CertificateFields;
    try {
      fields = certificateFields(leaf);
      for (const c of [...intermediates, ...this.roots]) certificateFields(c);
    } catch {
      return { ok: false, error: 'x509: malformed certificate' };
    }
    const now = this.now();
    const invalid = validityError(fields, now);
    if (invalid) return { ok: false, error: invalid };
    let chains: X509Certificate[][];
    if (this.roots.some((r) => sameCertificate(r, leaf))) {
      chains = [[leaf]];
    } else {
      const built = this.buildChains([leaf], intermediates, now, { checks: 0 });
      if ('error' in built) return { ok: false, error: built.error };
      chains = built.chains;
    }
    const usable = chains.filter((c) => chainAllows(c, oids.clientAuth));
    if (usable.length === 0) return { ok: false, error: 'x509: certificate specifies an incompatible key usage' };
    return { ok: true, chains: usable };
  }

  /** Candidates for the issuer of `cert`: Go's findPotentialParents, key id matches first. */
  private parents(cert: X509Certificate, pool: readonly X509Certificate[]): X509Certificate[] {
    const f = certificateFields(cert);
    const byName = pool.filter((p) => certificateFields(p).rawSubject === f.rawIssuer);
    const rank = (p: X509Certificate) => {
      const skid = certificateFields(p).subjectKeyId;
      if (f.authorityKeyId.equals(skid)) return 0;
      return f.authorityKeyId.length === 0 || skid.length === 0 ? 1 : 2;
    };
    return byName.map((p, i) => ({ p, i, r: rank(p) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.p);
  }

  private buildChains(
    chain: X509Certificate[],
    intermediates: readonly X509Certificate[],
    now: Date,
    budget: { checks: number },
  ): { chains: X509Certificate[][] } | { error: string } {
    const cert = chain[chain.length - 1]!;
    const chains: X509Certificate[][] = [];
    let hint: { error: string; cert: X509Certificate } | undefined;
    let err: string | undefined;
    const consider = (candidate: X509Certificate, root: boolean) => {
      if (inChain(candidate, chain)) return;
      if (++budget.checks > maxSignatureChecks) {
        err = 'x509: signature check attempts limit reached while verifying certificate chain';
        return;
      }
      const cf = certificateFields(candidate);
      const badSignature = signatureError(cert, candidate, cf);
      if (badSignature) {
        hint ??= { error: badSignature, cert: candidate };
        return;
      }
      // As in Go, an issuer that signed but is not valid (expired, path too long) is the answer
      // itself, not a hint, unless a later candidate succeeds or fails otherwise.
      err = this.issuerInvalid(cf, chain, root, now);
      if (err) {
        hint ??= { error: err, cert: candidate };
        return;
      }
      if (root) {
        chains.push([...chain, candidate]);
        return;
      }
      const below = this.buildChains([...chain, candidate], intermediates, now, budget);
      err = 'error' in below ? below.error : undefined;
      if ('chains' in below) chains.push(...below.chains);
    };
    for (const r of this.parents(cert, this.roots)) consider(r, true);
    for (const i of this.parents(cert, intermediates)) consider(i, false);
    if (chains.length > 0) return { chains };
    return { error: err ?? unknownAuthority(hint) };
  }

  /** Go's isValid for an intermediate or root being appended to `chain`. */
  private issuerInvalid(f: CertificateFields, chain: X509Certificate[], root: boolean, now: Date): string | undefined {
    const invalid = validityError(f, now);
    if (invalid) return invalid;
    if (!root && (!f.basicConstraintsValid || !f.isCA)) return 'x509: certificate is not authorized to sign other certificates';
    if (f.basicConstraintsValid && f.maxPathLen >= 0 && chain.length - 1 > f.maxPathLen) return 'x509: too many intermediates for path length constraint';
    return undefined;
  }
}

/** Reads every certificate of a PEM bundle, as client-go's cert.ParseCertsPEM (other blocks are ignored). */
export function parseCABundle(pem: string): X509Certificate[] {
  const certs = pemCertificates(pem);
  if (certs.length === 0) throw new Error('data does not contain any valid RSA or ECDSA certificates');
  return certs;
}

/** A CA bundle file: its text as read (what is published of it) and its certificates. */
export interface CABundle {
  pem: string;
  certificates: X509Certificate[];
}

/** The CA bundle of a flag such as --client-ca-file; errors name the flag's file, as upstream's do. */
export function loadCABundle(file: string): CABundle {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`error reading ${file}: ${(e as Error).message}`);
  }
  try {
    return { pem, certificates: parseCABundle(pem) };
  } catch (e) {
    throw new Error(`error creating pool from ${file}: ${(e as Error).message}`);
  }
}

/**
 * The `ca` list for the TLS server (with `requestCert: true, rejectUnauthorized: false`): the
 * client CA and the request-header CA, each certificate once. Node advertises these names in the
 * certificate request so clients pick a matching certificate; acceptance is decided here, later.
 */
export function tlsClientCAs(...bundles: ReadonlyArray<readonly X509Certificate[] | undefined>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const bundle of bundles) {
    for (const c of bundle ?? []) {
      if (seen.has(c.fingerprint256)) continue;
      seen.add(c.fingerprint256);
      out.push(c.toString());
    }
  }
  return out;
}

/**
 * The rest of the chains clients sent with their certificates, by leaf fingerprint. A resumed TLS
 * session gives Node only the leaf (Go keeps the whole chain in its session state), so a client
 * whose certificate hangs below an intermediate would fail on every resumed connection. The
 * intermediates are only path-building hints: trust still comes from the roots alone.
 */
const presentedIntermediates = new Map<string, X509Certificate[]>();
const maxRememberedChains = 1024;

/**
 * The chain the TLS client presented, leaf first (Node's peer chain, each certificate once); on a
 * resumed session, the leaf with the intermediates it came with when the session was made.
 */
export function peerCertificateChain(socket: TLSSocket): X509Certificate[] {
  const out: X509Certificate[] = [];
  const seen = new Set<string>();
  let cur = socket.getPeerCertificate(true) as { raw?: Buffer; issuerCertificate?: unknown } | undefined;
  while (cur && cur.raw && cur.raw.length > 0) {
    const c = new X509Certificate(cur.raw);
    if (seen.has(c.fingerprint256)) break;
    seen.add(c.fingerprint256);
    out.push(c);
    cur = cur.issuerCertificate as typeof cur;
  }
  const leaf = out[0];
  if (!leaf) return out;
  if (out.length > 1) {
    presentedIntermediates.delete(leaf.fingerprint256);
    presentedIntermediates.set(leaf.fingerprint256, out.slice(1));
    if (presentedIntermediates.size > maxRememberedChains) presentedIntermediates.delete(presentedIntermediates.keys().next().value!);
  } else if (socket.isSessionReused()) {
    const rest = presentedIntermediates.get(leaf.fingerprint256);
    if (rest) out.push(...rest);
  }
  return out;
}

/** Upstream's certificateIdentifier: `SN=<decimal>, SKID=<AA:BB..>, AKID=<..>`. */
export function certificateIdentifier(cert: X509Certificate): string {
  const f = certificateFields(cert);
  const hex = (b: Buffer) => (b.toString('hex').toUpperCase().match(/../g) ?? []).join(':');
  return `SN=${f.serial}, SKID=${hex(f.subjectKeyId)}, AKID=${hex(f.authorityKeyId)}`;
}

export type UserFromCertificate = { user: UserInfo } | { error: string } | undefined;

/**
 * Upstream's CommonNameUserConversion: CN the user name, each O a group, the subject's single UID
 * attribute the uid (AllowParsingUserUIDFromCertAuth, on by default), and the certificate's SHA-256
 * as credential id. No CN: undefined (not this method's user).
 */
export function userFromCertificate(cert: X509Certificate, domain: ApiDomain): UserFromCertificate {
  const f = certificateFields(cert);
  const name = commonName(f);
  if (!name) return undefined;
  const uidAttrs = f.subject.filter((a) => a.oid === oids.userId);
  let uid: string | undefined;
  if (uidAttrs.some((a) => a.value === undefined)) return { error: 'unable to parse UID into a string' };
  if (uidAttrs.length > 1) return { error: `expected 1 UID, but found multiple: [${uidAttrs.map((a) => a.value).join(' ')}]` };
  if (uidAttrs.length === 1) {
    uid = uidAttrs[0]!.value!;
    if (uid === '') return { error: 'UID cannot be an empty string' };
  }
  const id = 'X509SHA256=' + createHash('sha256').update(cert.raw).digest('hex');
  return {
    user: {
      name,
      ...(uid !== undefined ? { uid } : {}),
      groups: organizations(f),
      extra: { [credentialIdKey(domain)]: [id] },
    },
  };
}

/** Upstream's `authentication.kubernetes.io/credential-id` extra key, in the platform's domain. */
export function credentialIdKey(domain: ApiDomain): string {
  return domain.key('credential-id', 'authentication');
}

export interface X509AuthenticatorOptions {
  /** The CAs of --client-ca-file (no default: without the flag there is no x509 authenticator). */
  clientCA: readonly X509Certificate[];
  /** --api-domain: names the credential-id extra key. */
  domain: ApiDomain;
  now?: () => Date;
}

/**
 * Authenticates the request's client certificate (spec 5.1). No certificate: skipped. A certificate
 * that does not verify: failed, as upstream words it (`verifying certificate SN=.. failed: x509: ..`).
 */
export function x509Authenticator(opts: X509AuthenticatorOptions): RequestAuthenticator & { verifier: ClientCertificateVerifier } {
  const verifier = new ClientCertificateVerifier({ roots: opts.clientCA, ...(opts.now ? { now: opts.now } : {}) });
  return {
    name: 'x509',
    verifier,
    async authenticate(req: AuthenticationRequest): Promise<AuthenticationResult> {
      const leaf = req.peerCertificates[0];
      if (!leaf) return skipped;
      const result = verifier.verify(req.peerCertificates);
      if (!result.ok) {
        let id = '';
        try {
          id = certificateIdentifier(leaf);
        } catch {
          id = 'SN=, SKID=, AKID=';
        }
        return failed(`verifying certificate ${id} failed: ${result.error}`);
      }
      const user = userFromCertificate(leaf, opts.domain);
      if (!user) return skipped;
      if ('error' in user) return failed(user.error);
      return authenticated(user.user);
    },
  };
}
