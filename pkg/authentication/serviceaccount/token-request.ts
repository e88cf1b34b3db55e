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

/** serviceaccounts/token: a TokenRequest answered with a token for the account, bound to a Secret when asked. */
export function tokenRequestHandler(issuer: ServiceAccountTokenIssuer, stores: ReadonlyMap<string, Store>): VirtualHandler {
  return async ({ obj, namespace, name, parent, dryRun, warn }) => {
    if (!parent) throw newNotFound({ group: '', resource: 'serviceaccounts' }, name);
    const sa = await parent.get(namespace, name);
    const spec = (obj as TokenRequestBody).spec ?? {};
    let boundObject: BoundObject | undefined;
    const ref = spec.boundObjectRef;
    if (ref) {
      const kind = `${ref.apiVersion ?? ''}/${ref.kind ?? ''}`;
      if (kind !== 'v1/Secret') {
        // Pods are not served yet, so a token can be bound to a Secret only.
        throw newBadRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to object of type ${ref.apiVersion ?? ''}, Kind=${ref.kind ?? ''}`);
      }
      const secret = await stores.get('/secrets')!.get(namespace, ref.name ?? '');
      if (ref.uid && ref.uid !== secret.metadata.uid) {
        throw newConflict({ group: '', resource: 'secrets' }, ref.name ?? '', `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
      }
      boundObject = { kind: 'Secret', name: secret.metadata.name!, uid: secret.metadata.uid! };
    }
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
