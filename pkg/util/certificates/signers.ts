// The built-in signers and the rules each puts on what it signs (upstream's
// pkg/controller/certificates/signer: isKubeletServing, isKubeletClient, isKubeAPIServerClient,
// legacy-unknown, and pkg/apis/certificates' ValidateKubeletServingCSR/ValidateKubeletClientCSR).
// The csrsigning controller fails a request that breaks its signer's rule with the rule's message;
// csrapproving recognises node client requests with the same rule.
import { signerNames } from '../../../api/certificates/v1/register.js';

/** What the rules read of a parsed PKCS#10 request. */
export interface RequestNames {
  /** Subject CN; empty when absent. */
  commonName: string;
  /** Subject O attributes, in order. */
  organizations: readonly string[];
  dnsNames: readonly string[];
  emailAddresses: readonly string[];
  /** IP SANs in text form. */
  ipAddresses: readonly string[];
  uris: readonly string[];
}

/** The names of the built-in signers, as the API declares them. */
export type BuiltInSigners = ReturnType<typeof signerNames>;

/** The group every node certificate must name as its only organization, and its CN prefix. */
export const nodesGroup = 'system:nodes';
export const nodeUserPrefix = 'system:node:';

const sameSet = (a: ReadonlySet<string>, b: readonly string[]) => a.size === b.length && b.every((u) => a.has(u));
/** Go's `%v` of a sorted []string, as upstream's messages print the usage sets. */
const goList = (l: readonly string[]) => `[${[...l].sort().join(' ')}]`;

// Upstream accepts either set: with `key encipherment` for RSA keys, without it for the others.
const kubeletServingUsages = ['digital signature', 'key encipherment', 'server auth'];
const kubeletServingUsagesNoRSA = ['digital signature', 'server auth'];
const kubeletClientUsages = ['digital signature', 'key encipherment', 'client auth'];
const kubeletClientUsagesNoRSA = ['digital signature', 'client auth'];

/** Why `req` with `usages` cannot be a kubelet serving certificate; undefined when it can. */
export function kubeletServingViolation(req: RequestNames, usages: readonly string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== nodesGroup) return 'subject organization is not system:nodes';
  if (req.dnsNames.length === 0 && req.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  const set = new Set(usages);
  if (!sameSet(set, kubeletServingUsages) && !sameSet(set, kubeletServingUsagesNoRSA)) return `usages did not match ${goList(kubeletServingUsages)}`;
  if (!req.commonName.startsWith(nodeUserPrefix)) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** Why `req` with `usages` cannot be a kubelet (node) client certificate; undefined when it can. */
export function kubeletClientViolation(req: RequestNames, usages: readonly string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== nodesGroup) return 'subject organization is not system:nodes';
  if (req.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith(nodeUserPrefix)) return 'subject common name does not begin with system:node:';
  const set = new Set(usages);
  if (!sameSet(set, kubeletClientUsages) && !sameSet(set, kubeletClientUsagesNoRSA)) return `usages did not match ${goList(kubeletClientUsages)}`;
  return undefined;
}

/** Why `usages` do not make a kube-apiserver client certificate (upstream's validAPIServerClientUsages). */
export function kubeAPIServerClientViolation(usages: readonly string[]): string | undefined {
  let hasClientAuth = false;
  for (const u of usages) {
    if (u === 'digital signature' || u === 'key encipherment') continue;
    if (u === 'client auth') hasClientAuth = true;
    else return `invalid usage for client certificate: ${u}`;
  }
  return hasClientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/**
 * Checks a request against the rule of built-in signer `signerName`: undefined when the name is
 * no built-in signer's, `{ violation: undefined }` when it passes, `{ violation }` with upstream's
 * message (the Failed condition's) when it does not.
 */
export function checkBuiltInSigner(signers: BuiltInSigners, signerName: string, req: RequestNames, usages: readonly string[]): { violation: string | undefined } | undefined {
  switch (signerName) {
    case signers.kubeletServing: return { violation: kubeletServingViolation(req, usages) };
    case signers.kubeAPIServerClientKubelet: return { violation: kubeletClientViolation(req, usages) };
    case signers.kubeAPIServerClient: return { violation: kubeAPIServerClientViolation(usages) };
    // No rules, for compatibility with what v1beta1 signed.
    case signers.legacyUnknown: return { violation: undefined };
    default: return undefined;
  }
}
