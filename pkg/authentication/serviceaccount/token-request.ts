// The serviceaccounts/token sub-resource (TokenRequest, `kubectl create token`): a bound token for
// the service account, tied to a Secret when asked, as upstream's TokenREST answers it.
import { formatTime } from '../../../api/meta/v1/primitives.js';
import type { VirtualHandler } from '../../endpoints/resource-handlers.js';
import type { Store } from '../../registry/generic/store.js';
import { newBadRequest, newConflict, newNotFound } from '../../runtime/errors.js';
import type { BoundObject, ServiceAccountTokenIssuer } from './issuer.js';

interface TokenRequestBody {
  spec?: { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } };
}

type BoundObjectRef = NonNullable<NonNullable<TokenRequestBody['spec']>['boundObjectRef']>;

interface PodLike {
  metadata: { name?: string; uid?: string };
  spec?: { serviceAccountName?: string; nodeName?: string };
}

/**
 * The Secret or Pod a token is to die with, as upstream's TokenREST resolves it: it must exist in
 * the account's namespace with the uid given (if any); a pod must run as the account, and a
 * scheduled pod's node goes into the token too.
 */
async function resolveBoundObject(stores: ReadonlyMap<string, Store>, namespace: string, account: string, ref: BoundObjectRef): Promise<BoundObject> {
  const kind = `${ref.apiVersion ?? ''}/${ref.kind ?? ''}`;
  const resource = kind === 'v1/Secret' ? 'secrets' : kind === 'v1/Pod' ? 'pods' : undefined;
  const store = resource ? stores.get(`/${resource}`) : undefined;
  if (!resource || !store) {
    throw newBadRequest(`cannot bind token for serviceaccount ${JSON.stringify(account)} to object of type ${ref.apiVersion ?? ''}, Kind=${ref.kind ?? ''}`);
  }
  const obj = await store.get(namespace, ref.name ?? '');
  if (ref.uid && ref.uid !== obj.metadata.uid) {
    throw newConflict({ group: '', resource }, ref.name ?? '', `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  if (resource === 'secrets') return { kind: 'Secret', name: obj.metadata.name!, uid: obj.metadata.uid! };
  const pod = obj as unknown as PodLike;
  const podAccount = pod.spec?.serviceAccountName ?? '';
  if (podAccount !== account) {
    throw newBadRequest(`cannot bind token for serviceaccount ${JSON.stringify(account)} to pod running with different serviceaccount name.`);
  }
  const bound: BoundObject = { kind: 'Pod', name: pod.metadata.name!, uid: pod.metadata.uid! };
  const nodeName = pod.spec?.nodeName;
  if (nodeName) {
    const node = await stores.get('/nodes')?.get('', nodeName).catch(() => undefined);
    bound.node = node?.metadata.uid ? { name: nodeName, uid: node.metadata.uid } : { name: nodeName };
  }
  return bound;
}

/** serviceaccounts/token: a TokenRequest answered with a token for the account, bound to a Secret or Pod when asked. */
export function tokenRequestHandler(issuer: ServiceAccountTokenIssuer, stores: ReadonlyMap<string, Store>): VirtualHandler {
  return async ({ obj, namespace, name, parent, dryRun, warn }) => {
    if (!parent) throw newNotFound({ group: '', resource: 'serviceaccounts' }, name);
    const sa = await parent.get(namespace, name);
    const spec = (obj as TokenRequestBody).spec ?? {};
    let boundObject: BoundObject | undefined;
    const ref = spec.boundObjectRef;
    if (ref) boundObject = await resolveBoundObject(stores, namespace, name, ref);
    const answer = { ...obj, metadata: { name, namespace, creationTimestamp: formatTime(new Date()) } };
    if (dryRun) return { ...answer, spec: { ...spec, audiences: spec.audiences ?? [] } };
    const issued = await issuer.issue({
      namespace,
      serviceAccount: { name, uid: sa.metadata.uid! },
      ...(spec.audiences ? { audiences: spec.audiences } : {}),
      ...(spec.expirationSeconds !== undefined ? { expirationSeconds: spec.expirationSeconds } : {}),
      ...(boundObject ? { boundObject } : {}),
    });
    for (const w of issued.warnings) warn(w);
    return {
      ...answer,
      spec: { ...spec, audiences: issued.audiences, expirationSeconds: issued.expirationSeconds },
      status: { token: issued.token, expirationTimestamp: issued.expirationTimestamp },
    };
  };
}
