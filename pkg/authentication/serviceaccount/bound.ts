// Bound service account tokens (TokenRequest): their private claim and its validation (upstream
// pkg/serviceaccount/claims.go, validator.Validate). The account, and the Secret or Pod the token
// is bound to, must still exist with the uids the token names; objects deleted more than the
// leeway ago count as gone. Run for every bound token, whatever --service-account-lookup says.
import { parseRFC3339 } from '../../util/rfc3339.js';
import { lookup, type ObjectMetaLike, type ServiceAccountTokenGetter } from './getter.js';
import { dateClaim, DefaultLeewaySeconds, objectClaim, stringClaim, timeProblem, type PublicClaims } from './jwt.js';
import type { ServiceAccountNames } from './names.js';
import { credentialIdForJTI, type ServiceAccountInfo } from './user.js';

export interface ObjectRef {
  name: string;
  uid: string;
}

/** The private claim of a bound token, keyed by the key domain. */
export interface BoundPrivateClaims {
  namespace: string;
  serviceaccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  /** Seconds since the epoch after which use of the (extended) token is audited as stale. */
  warnafter?: number;
}

function ref(obj: Record<string, unknown>, name: string): ObjectRef | undefined {
  const o = objectClaim(obj, name);
  return o && { name: stringClaim(o, 'name'), uid: stringClaim(o, 'uid') };
}

/** The private claim of a verified payload; throws ClaimTypeError on a value of the wrong type. */
export function boundPrivateClaims(payload: Record<string, unknown>, names: ServiceAccountNames): BoundPrivateClaims {
  const o = objectClaim(payload, names.privateClaim) ?? {};
  const claims: BoundPrivateClaims = { namespace: stringClaim(o, 'namespace'), serviceaccount: ref(o, 'serviceaccount') ?? { name: '', uid: '' } };
  const pod = ref(o, 'pod');
  const secret = ref(o, 'secret');
  const node = ref(o, 'node');
  const warnafter = dateClaim(o, 'warnafter');
  if (pod) claims.pod = pod;
  if (secret) claims.secret = secret;
  if (node) claims.node = node;
  if (warnafter !== undefined) claims.warnafter = warnafter;
  return claims;
}

const timeWords = {
  expired: 'service account token has expired',
  'not-yet-valid': 'service account token is not valid yet',
  'issued-in-the-future': 'service account token is issued in the future',
} as const;

/** Whether an object was deleted (marked for deletion) before `before` (ms since the epoch). */
export function deletedBefore(obj: ObjectMetaLike, before: number): boolean {
  const ts = obj.metadata?.deletionTimestamp;
  if (!ts) return false;
  const at = parseRFC3339(ts);
  return at === undefined || at < before;
}

/**
 * The account a bound token speaks for, or why it does not (upstream's wording). `now` is ms
 * since the epoch.
 */
export async function validateBoundToken(
  pub: PublicClaims,
  priv: BoundPrivateClaims,
  getter: ServiceAccountTokenGetter,
  now: number,
): Promise<{ info: ServiceAccountInfo } | { error: string }> {
  const problem = timeProblem(pub, now / 1000);
  if (problem) return { error: timeWords[problem] };

  const invalidIfDeletedBefore = now - DefaultLeewaySeconds * 1000;
  const ns = priv.namespace;
  const sa = priv.serviceaccount;
  const account = await lookup(() => getter.getServiceAccount(ns, sa.name), 'serviceaccounts', sa.name);
  if (account instanceof Error) return { error: account.message };
  const accountUID = account.metadata?.uid ?? '';
  if (accountUID !== sa.uid) return { error: `service account UID (${accountUID}) does not match claim (${sa.uid})` };
  if (deletedBefore(account, invalidIfDeletedBefore)) return { error: `service account ${ns}/${sa.name} has been deleted` };

  const invalidated = 'service account token has been invalidated';
  if (priv.secret) {
    const secret = await lookup(() => getter.getSecret(ns, priv.secret!.name), 'secrets', priv.secret.name);
    if (secret instanceof Error) return { error: invalidated };
    const uid = secret.metadata?.uid ?? '';
    if (uid !== priv.secret.uid) return { error: `secret UID (${uid}) does not match service account secret ref claim (${priv.secret.uid})` };
    if (deletedBefore(secret, invalidIfDeletedBefore)) return { error: invalidated };
  }

  const info: ServiceAccountInfo = { namespace: ns, name: sa.name, uid: sa.uid };
  if (priv.pod) {
    const pod = await lookup(() => getter.getPod(ns, priv.pod!.name), 'pods', priv.pod.name);
    if (pod instanceof Error) return { error: invalidated };
    const uid = pod.metadata?.uid ?? '';
    if (uid !== priv.pod.uid) return { error: `pod UID (${uid}) does not match service account pod ref claim (${priv.pod.uid})` };
    if (deletedBefore(pod, invalidIfDeletedBefore)) return { error: invalidated };
    info.podName = priv.pod.name;
    info.podUID = priv.pod.uid;
    // The node of a pod-bound token is information only; it is not looked up.
    if (priv.node) {
      info.nodeName = priv.node.name;
      info.nodeUID = priv.node.uid;
    }
  } else if (priv.node) {
    // Tokens bound to a Node object alone are not issued here (upstream's ServiceAccountTokenNodeBinding).
    return { error: 'token is bound to a Node object, which this server does not support' };
  }

  const credentialId = credentialIdForJTI(pub.jti);
  if (credentialId) info.credentialId = credentialId;
  return { info };
}
