// Rules for lists of metav1.Condition beyond what the schema states (upstream ValidateConditions).
import type { Condition } from '../../../api/meta/v1/types.js';
import { duplicate, invalid, required, tooLong, type FieldError, type Path } from '../../runtime/field-errors.js';
import { isQualifiedName } from './names.js';

const reasonRe = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const maxReasonLength = 1024;
const maxMessageLength = 32 * 1024;

/** Checks condition types (qualified names, no duplicates), reasons and message sizes. */
export function validateConditions(conditions: readonly Condition[] | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const p = path.index(i);
    if (seen.has(c.type)) errs.push(duplicate(p.child('type'), c.type));
    seen.add(c.type);
    for (const m of isQualifiedName(c.type ?? '')) errs.push(invalid(p.child('type'), c.type, m));
    if (!c.reason) {
      errs.push(required(p.child('reason'), 'must be set'));
    } else {
      if (!reasonRe.test(c.reason)) {
        errs.push(invalid(p.child('reason'), c.reason,
          "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')"));
      }
      if (c.reason.length > maxReasonLength) errs.push(tooLong(p.child('reason'), c.reason, maxReasonLength));
    }
    if ((c.message ?? '').length > maxMessageLength) errs.push(tooLong(p.child('message'), c.message, maxMessageLength));
  });
  return errs;
}
