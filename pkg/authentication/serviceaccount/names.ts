// The names service account tokens and their users carry, upstream's spelled in the platform
// domain: the private claim `kubernetes.io` becomes `<keyDomain>`, the legacy issuer
// `kubernetes/serviceaccount` becomes `<brand>/serviceaccount` (orch/serviceaccount), extra keys
// `authentication.kubernetes.io/...` become `authentication.<keyDomain>/...`.
import type { ApiDomain } from '../../../api/domain.js';

export interface ServiceAccountNames {
  /** The private claim of bound tokens: `{namespace, serviceaccount, pod|secret, node?, warnafter?}`. */
  privateClaim: string;
  /** `iss` of the tokens the token controller puts in Secrets. */
  legacyIssuer: string;
  /** Top-level private claims of legacy tokens. */
  legacyClaims: { namespace: string; secretName: string; serviceAccountName: string; serviceAccountUID: string };
  /** User extra keys of service account users. */
  extra: { podName: string; podUID: string; nodeName: string; nodeUID: string; credentialId: string };
  /** The label by which a legacy token Secret is marked invalid. */
  legacyTokenInvalidSinceLabel: string;
}

/** Upstream's service account token names, in the platform's domain. */
export function serviceAccountNames(d: ApiDomain): ServiceAccountNames {
  const brand = d.keyDomain.split('.')[0]!;
  const legacy = (name: string) => `${d.keyDomain}/serviceaccount/${name}`;
  const extra = (name: string) => d.key(name, 'authentication');
  return {
    privateClaim: d.keyDomain,
    legacyIssuer: `${brand}/serviceaccount`,
    legacyClaims: {
      namespace: legacy('namespace'),
      secretName: legacy('secret.name'),
      serviceAccountName: legacy('service-account.name'),
      serviceAccountUID: legacy('service-account.uid'),
    },
    extra: {
      podName: extra('pod-name'),
      podUID: extra('pod-uid'),
      nodeName: extra('node-name'),
      nodeUID: extra('node-uid'),
      credentialId: extra('credential-id'),
    },
    legacyTokenInvalidSinceLabel: d.key('legacy-token-invalid-since'),
  };
}
