// Rules of Secret (upstream ValidateSecret, ValidateSecretUpdate): data keys and size, the
// content each typed secret needs, and immutability.
import type { ApiDomain } from '../../../api/domain.js';
import { OpaqueSecretType, SecretKeys, secretTypes, serviceAccountAnnotations, type Secret } from '../../../api/core/v1/secret.js';
import { forbidden, invalid, required, tooLong, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { MaxDataSize, isConfigMapKey } from './config-key.js';
import { validateBootstrapTokenSecret } from './bootstrap-token-secret-validation.js';

/** The decoded data, with any `stringData` not yet folded in (it wins, as on write). */
function effectiveData(s: Secret): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(s.data ?? {})) out.set(k, Buffer.from(v, 'base64'));
  for (const [k, v] of Object.entries(s.stringData ?? {})) out.set(k, Buffer.from(v, 'utf8'));
  return out;
}

function jsonObjectProblem(bytes: Buffer): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return `json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : parsed === null ? 'null' : typeof parsed} into Go value of type map[string]interface {}`;
  }
  return null;
}

const redacted = '<secret contents redacted>';

function validateSecret(s: Secret, d: ApiDomain): FieldError[] {
  const types = secretTypes(d);
  const saName = serviceAccountAnnotations(d).name;
  const errs: FieldError[] = [];
  const dataPath = Path.root('data');
  const data = effectiveData(s);
  let total = 0;
  for (const [k, v] of data) {
    for (const m of isConfigMapKey(k)) errs.push(invalid(dataPath.key(k), k, m));
    total += v.length;
  }
  if (total > MaxDataSize) errs.push(tooLong(dataPath, '', MaxDataSize));

  const needJson = (key: string) => {
    const bytes = data.get(key);
    if (bytes === undefined) {
      errs.push(required(dataPath.key(key)));
      return;
    }
    const problem = jsonObjectProblem(bytes);
    if (problem) errs.push(invalid(dataPath.key(key), redacted, problem));
  };

  switch (s.type ?? OpaqueSecretType) {
    case types.serviceAccountToken:
      // Only the account name is needed up front; uid and token are filled in by a controller.
      if (!s.metadata?.annotations?.[saName]) {
        errs.push(required(Path.root('metadata').child('annotations').key(saName)));
      }
      break;
    case types.dockercfg:
      needJson(SecretKeys.dockercfg);
      break;
    case types.dockerConfigJson:
      needJson(SecretKeys.dockerConfigJson);
      break;
    case types.basicAuth:
      // Either may be empty, but at least one of them must be present.
      if (!data.has(SecretKeys.basicAuthUsername) && !data.has(SecretKeys.basicAuthPassword)) {
        errs.push(required(dataPath.key(SecretKeys.basicAuthUsername)));
        errs.push(required(dataPath.key(SecretKeys.basicAuthPassword)));
      }
      break;
    case types.sshAuth:
      if ((data.get(SecretKeys.sshPrivateKey)?.length ?? 0) === 0) errs.push(required(dataPath.key(SecretKeys.sshPrivateKey)));
      break;
    case types.tls:
      if (!data.has(SecretKeys.tlsCert)) errs.push(required(dataPath.key(SecretKeys.tlsCert)));
      if (!data.has(SecretKeys.tlsKey)) errs.push(required(dataPath.key(SecretKeys.tlsKey)));
      break;
    case types.bootstrapToken:
      errs.push(...validateBootstrapTokenSecret(s.metadata?.name ?? '', data));
      break;
    default:
      break;
  }
  return errs;
}

function sameData(a: Map<string, Buffer>, b: Map<string, Buffer>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (!w || !v.equals(w)) return false;
  }
  return true;
}

/** The type never changes; data of an immutable Secret is frozen, and so is the flag itself. */
function validateSecretUpdate(s: Secret, old: Secret, d: ApiDomain): FieldError[] {
  const errs = validateImmutableField(s.type ?? OpaqueSecretType, old.type ?? OpaqueSecretType, Path.root('type'));
  if (old.immutable === true) {
    const detail = 'field is immutable when `immutable` is set';
    if (s.immutable !== true) errs.push(forbidden(Path.root('immutable'), detail));
    if (!sameData(effectiveData(s), effectiveData(old))) errs.push(forbidden(Path.root('data'), detail));
  }
  return [...errs, ...validateSecret(s, d)];
}

/** Secret rules; typed secrets are named in the platform's domain. */
export const secretValidation = (d: ApiDomain): KindValidation<Secret> => ({
  name: nameIsDNSSubdomain,
  validate: (s) => validateSecret(s, d),
  validateUpdate: (s, old) => validateSecretUpdate(s, old, d),
});
