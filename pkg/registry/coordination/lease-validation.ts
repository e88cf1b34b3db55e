// Rules of Lease (upstream ValidateLease, ValidateLeaseUpdate): a positive duration and a
// non-negative transition count, on create and on every update.
import type { Lease } from '../../../api/coordination/v1/lease.js';
import { invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';

function validate(l: Lease): FieldError[] {
  const errs: FieldError[] = [];
  const spec = Path.root('spec');
  const duration = l.spec?.leaseDurationSeconds;
  if (duration !== undefined && duration !== null && duration <= 0) {
    errs.push(invalid(spec.child('leaseDurationSeconds'), duration, 'must be greater than 0'));
  }
  const transitions = l.spec?.leaseTransitions;
  if (transitions !== undefined && transitions !== null && transitions < 0) {
    errs.push(invalid(spec.child('leaseTransitions'), transitions, 'must be greater than or equal to 0'));
  }
  return errs;
}

export const leaseValidation: KindValidation<Lease> = {
  name: nameIsDNSSubdomain,
  validate,
  validateUpdate: (l) => validate(l),
};
