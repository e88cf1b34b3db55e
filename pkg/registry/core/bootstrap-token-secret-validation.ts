// Content rules of a bootstrap token Secret (spec 2.12, 8): upstream's API server takes any
// content for this type and lets kubeadm and the authenticator judge it later; we refuse on write
// what the authenticator and the controllers would never accept, with kubeadm's wording where it
// has one. One cause per bad field.
import {
  BootstrapGroupPattern,
  BootstrapGroupPatternText,
  BootstrapTokenIdPattern,
  BootstrapTokenKeys,
  BootstrapTokenSecretPattern,
  BootstrapTokenSecretPrefix,
  KnownBootstrapTokenUsages,
} from '../../../api/core/v1/bootstrap-token.js';
import { invalid, notSupported, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { parseRFC3339 } from '../../util/rfc3339.js';

const redacted = '<secret contents redacted>';

/** The causes of a bootstrap token Secret named `name` with decoded `data`. */
export function validateBootstrapTokenSecret(name: string, data: ReadonlyMap<string, Buffer>): FieldError[] {
  const errs: FieldError[] = [];
  const dataPath = Path.root('data');
  const text = (key: string) => data.get(key)?.toString('utf8');

  const tokenId = text(BootstrapTokenKeys.tokenId);
  if (tokenId === undefined) {
    errs.push(required(dataPath.key(BootstrapTokenKeys.tokenId)));
  } else if (!BootstrapTokenIdPattern.test(tokenId)) {
    errs.push(invalid(dataPath.key(BootstrapTokenKeys.tokenId), tokenId, 'must be 6 characters of [a-z0-9]'));
  } else if (name !== `${BootstrapTokenSecretPrefix}${tokenId}`) {
    errs.push(invalid(Path.root('metadata').child('name'), name, `must be of the form '${BootstrapTokenSecretPrefix}(token-id)', i.e. "${BootstrapTokenSecretPrefix}${tokenId}"`));
  }

  const tokenSecret = text(BootstrapTokenKeys.tokenSecret);
  if (tokenSecret === undefined) {
    errs.push(required(dataPath.key(BootstrapTokenKeys.tokenSecret)));
  } else if (!BootstrapTokenSecretPattern.test(tokenSecret)) {
    errs.push(invalid(dataPath.key(BootstrapTokenKeys.tokenSecret), redacted, 'must be 16 characters of [a-z0-9]'));
  }

  const expiration = text(BootstrapTokenKeys.expiration);
  if (expiration !== undefined && parseRFC3339(expiration) === undefined) {
    errs.push(invalid(dataPath.key(BootstrapTokenKeys.expiration), expiration, 'must be an RFC 3339 time, e.g. 2006-01-02T15:04:05Z'));
  }

  for (const [key, value] of data) {
    if (!key.startsWith(BootstrapTokenKeys.usagePrefix)) continue;
    const usage = key.slice(BootstrapTokenKeys.usagePrefix.length);
    const v = value.toString('utf8');
    if (!(KnownBootstrapTokenUsages as readonly string[]).includes(usage)) {
      errs.push(invalid(dataPath.key(key), v, `invalid bootstrap token usage string: ${usage}, valid usage options: ${KnownBootstrapTokenUsages.join(',')}`));
    } else if (v !== 'true' && v !== 'false') {
      errs.push(notSupported(dataPath.key(key), v, ['true', 'false']));
    }
  }

  const groups = text(BootstrapTokenKeys.extraGroups);
  if (groups !== undefined && groups !== '') {
    const bad = groups.split(',').find((g) => !BootstrapGroupPattern.test(g));
    if (bad !== undefined) {
      errs.push(invalid(dataPath.key(BootstrapTokenKeys.extraGroups), groups, `bootstrap group ${JSON.stringify(bad)} is invalid (must match ${BootstrapGroupPatternText})`));
    }
  }
  return errs;
}
