import { Type, type Static } from '@sinclair/typebox';
import { bool, mapOf, opt, str, stringMap } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import type { ApiDomain } from '../../domain.js';

export const Secret = topLevel('io.orch.api.core.v1.Secret', {
  immutable: opt(bool(5, {
    'x-orch-emit': 'pointer',
    description: 'When true, data can no longer be changed (only the Secret deleted); once set it cannot be unset.',
  })),
  data: opt(mapOf(2, Type.String({ format: 'byte' }), {
    description: 'The secret values by key, base64-encoded in JSON. Keys are letters, digits, "-", "_" or ".".',
  })),
  stringData: opt(stringMap(4, {
    description: 'Write-only convenience: plain-text values merged into data on write (winning over data for the same key); never read back.',
  })),
  type: opt(str(3, {
    default: 'Opaque',
    description: 'Type of the secret, which decides the keys it must hold (such as tls.crt and tls.key for a TLS secret). Defaults to Opaque; cannot be changed.',
  })),
}, { description: 'Holds sensitive data, such as passwords, tokens or keys, for pods and controllers to use.' });
export type Secret = Static<typeof Secret>;

/** The secret type needing no particular keys. */
export const OpaqueSecretType = 'Opaque';

/** Secret types with required content: upstream's kubernetes.io/... types, in the platform's domain. */
export function secretTypes(d: ApiDomain) {
  return {
    opaque: OpaqueSecretType,
    serviceAccountToken: d.key('service-account-token'),
    dockercfg: d.key('dockercfg'),
    dockerConfigJson: d.key('dockerconfigjson'),
    basicAuth: d.key('basic-auth'),
    sshAuth: d.key('ssh-auth'),
    tls: d.key('tls'),
    bootstrapToken: d.key('token', 'bootstrap'),
  } as const;
}

/** Annotations naming the service account a token secret belongs to. */
export function serviceAccountAnnotations(d: ApiDomain) {
  return { name: d.key('service-account.name'), uid: d.key('service-account.uid') } as const;
}

/** Keys the typed secrets need in `data`. */
export const SecretKeys = {
  serviceAccountToken: 'token',
  dockercfg: '.dockercfg',
  dockerConfigJson: '.dockerconfigjson',
  basicAuthUsername: 'username',
  basicAuthPassword: 'password',
  sshPrivateKey: 'ssh-privatekey',
  tlsCert: 'tls.crt',
  tlsKey: 'tls.key',
} as const;

/**
 * Folds the write-only `stringData` into `data` (base64), overwriting keys present in both, and
 * drops it, as upstream's conversion does before anything else sees the object; an empty type
 * becomes Opaque (the schema default covers only an absent one).
 */
export function defaultSecret(secret: Secret): void {
  if (!secret.type) secret.type = OpaqueSecretType;
  if (secret.stringData === undefined) return;
  const entries = Object.entries(secret.stringData);
  if (entries.length > 0) {
    secret.data ??= {};
    for (const [k, v] of entries) secret.data[k] = Buffer.from(v, 'utf8').toString('base64');
  }
  delete secret.stringData;
}
