// Rules of PriorityClass (upstream ValidatePriorityClass, ValidatePriorityClassUpdate): the
// `system-` prefix belongs to the built-in classes, user classes stay below the system range, and
// value and preemptionPolicy never change.
import {
  HighestUserDefinablePriority, SystemPriorityClasses, SystemPriorityClassPrefix, type PriorityClass,
} from '../../../api/scheduling/v1/priority-class.js';
import { forbidden, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';

/** Why a `system-` name is not one of the built-in classes as they are defined; undefined when it is. */
function systemClassMismatch(pc: PriorityClass): string | undefined {
  const name = pc.metadata?.name ?? '';
  const known = SystemPriorityClasses.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== pc.value) return `value of ${name} PriorityClass must be ${known.value}`;
  // The built-in classes are never the global default.
  if (pc.globalDefault === true) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

function validate(pc: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  const name = pc.metadata?.name ?? '';
  if (name.startsWith(SystemPriorityClassPrefix)) {
    const why = systemClassMismatch(pc);
    if (why) {
      errs.push(forbidden(Path.root('metadata').child('name'),
        `priority class names with '${SystemPriorityClassPrefix}' prefix are reserved for system use only. error: ${why}`));
    }
  } else if ((pc.value ?? 0) > HighestUserDefinablePriority) {
    errs.push(forbidden(Path.root('value'), `maximum allowed value of a user defined priority is ${HighestUserDefinablePriority}`));
  }
  // The schema's enum reports unknown preemption policies.
  return errs;
}

// Upstream checks only immutability on update, not the create rules again.
function validateUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  if ((pc.value ?? 0) !== (old.value ?? 0)) errs.push(forbidden(Path.root('value'), 'may not be changed in an update.'));
  errs.push(...validateImmutableField(pc.preemptionPolicy, old.preemptionPolicy, Path.root('preemptionPolicy')));
  return errs;
}

export const priorityClassValidation: KindValidation<PriorityClass> = {
  name: nameIsDNSSubdomain,
  validate,
  validateUpdate,
};
