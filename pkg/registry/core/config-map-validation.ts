// Rules of ConfigMap (upstream ValidateConfigMap, ValidateConfigMapUpdate).
import { isDeepStrictEqual } from 'node:util';
import type { ConfigMap } from '../../../api/core/v1/config-map.js';
import { forbidden, invalid, tooLong, Path, type FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { MaxDataSize, decodedLength, isConfigMapKey } from './config-key.js';

function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  const data = Path.root('data');
  const binaryData = Path.root('binaryData');
  for (const [k, v] of Object.entries(cm.data ?? {})) {
    for (const m of isConfigMapKey(k)) errs.push(invalid(data.key(k), k, m));
    if (cm.binaryData && Object.prototype.hasOwnProperty.call(cm.binaryData, k)) {
      errs.push(invalid(data.key(k), k, 'duplicate of key present in binaryData'));
    }
    total += Buffer.byteLength(v, 'utf8');
  }
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) {
    for (const m of isConfigMapKey(k)) errs.push(invalid(binaryData.key(k), k, m));
    total += decodedLength(v);
  }
  if (total > MaxDataSize) errs.push(tooLong(Path.root(''), '', MaxDataSize));
  return errs;
}

/** Data of an immutable ConfigMap is frozen, and so is the flag itself. */
function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  if (old.immutable === true) {
    const detail = 'field is immutable when `immutable` is set';
    if (cm.immutable !== true) errs.push(forbidden(Path.root('immutable'), detail));
    if (!isDeepStrictEqual(cm.data ?? {}, old.data ?? {})) errs.push(forbidden(Path.root('data'), detail));
    if (!isDeepStrictEqual(cm.binaryData ?? {}, old.binaryData ?? {})) errs.push(forbidden(Path.root('binaryData'), detail));
  }
  return [...errs, ...validateConfigMap(cm)];
}

export const configMapValidation: KindValidation<ConfigMap> = {
  name: nameIsDNSSubdomain,
  validate: validateConfigMap,
  validateUpdate: validateConfigMapUpdate,
};
