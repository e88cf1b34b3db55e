// Rules of CSIDriver (upstream ValidateCSIDriver, ValidateCSIDriverUpdate): a driver name of at
// most 63 characters, distinct token audiences with sane lifetimes, and the fields the reference
// declares immutable.
import type { CSIDriver } from '../../../api/storage/v1/csi-driver.js';
import { duplicate, invalid, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain, type NameValidator } from '../validation/names.js';

const maxDriverNameLength = 63;
const minTokenSeconds = 10 * 60;
const maxTokenSeconds = 2 ** 32;

/** A driver name: a DNS subdomain of at most 63 characters. */
export const csiDriverName: NameValidator = (name, prefix) => {
  const errs: string[] = [];
  if (!prefix && name.length > maxDriverNameLength) errs.push(`must be no more than ${maxDriverNameLength} characters`);
  errs.push(...nameIsDNSSubdomain(name, prefix));
  return errs;
};

function validate(d: CSIDriver): FieldError[] {
  const errs: FieldError[] = [];
  const spec = d.spec;
  if (!spec) return errs; // a missing spec is reported by the schema
  const path = Path.root('spec');
  // Defaulting fills these; an explicit null slips past the schema's defaults.
  for (const f of ['attachRequired', 'podInfoOnMount', 'storageCapacity'] as const) {
    if (spec[f] === undefined || spec[f] === null) errs.push(required(path.child(f)));
  }
  const audiences = new Set<string>();
  (spec.tokenRequests ?? []).forEach((tr, i) => {
    const p = path.child('tokenRequests').index(i);
    const audience = tr.audience ?? '';
    // Distinct audiences; this also allows at most one empty audience.
    if (audiences.has(audience)) {
      errs.push(duplicate(p.child('audience'), audience));
      return;
    }
    audiences.add(audience);
    const secs = tr.expirationSeconds;
    if (secs === undefined) return;
    if (secs < minTokenSeconds) errs.push(invalid(p.child('expirationSeconds'), secs, 'may not specify a duration less than 10 minutes'));
    if (secs > maxTokenSeconds) errs.push(invalid(p.child('expirationSeconds'), secs, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

function validateUpdate(d: CSIDriver, old: CSIDriver): FieldError[] {
  const path = Path.root('spec');
  return [
    ...validate(d),
    ...validateImmutableField(d.spec?.attachRequired, old.spec?.attachRequired, path.child('attachRequired')),
    ...validateImmutableField(d.spec?.podInfoOnMount, old.spec?.podInfoOnMount, path.child('podInfoOnMount')),
    ...validateImmutableField(d.spec?.fsGroupPolicy, old.spec?.fsGroupPolicy, path.child('fsGroupPolicy')),
    ...validateImmutableField(d.spec?.volumeLifecycleModes, old.spec?.volumeLifecycleModes, path.child('volumeLifecycleModes')),
  ];
}

export const csiDriverValidation: KindValidation<CSIDriver> = {
  name: csiDriverName,
  validate,
  validateUpdate,
};
