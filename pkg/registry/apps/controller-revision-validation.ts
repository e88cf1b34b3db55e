// Rules of ControllerRevision (upstream ValidateControllerRevision and ...Update): data is
// mandatory and never changes; revision is not negative.
import type { ControllerRevision } from '../../../api/apps/v1/controller-revision.js';
import { Path, required, type FieldError } from '../../runtime/field-errors.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { validateNonnegativeField } from '../validation/numeric.js';

function validate(cr: ControllerRevision): FieldError[] {
  const errs: FieldError[] = [];
  if (cr.data === undefined || cr.data === null) errs.push(required(Path.root('data'), 'data is mandatory'));
  errs.push(...validateNonnegativeField(cr.revision, Path.root('revision')));
  return errs;
}

export const controllerRevisionValidation: KindValidation<ControllerRevision> = {
  name: nameIsDNSSubdomain,
  validate,
  validateUpdate: (cr, old) => [...validate(cr), ...validateImmutableField(cr.data, old.data, Path.root('data'))],
};
