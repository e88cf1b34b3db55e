// Rules of Namespace (upstream ValidateNamespace, ValidateNamespaceStatusUpdate).
import type { Namespace } from '../../../api/core/v1/namespace.js';
import { invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { isQualifiedName, nameIsDNSLabel } from '../validation/names.js';

function validateNamespace(ns: Namespace, standardFinalizers: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const path = Path.root('spec').child('finalizers');
  for (const f of ns.spec?.finalizers ?? []) {
    const msgs = isQualifiedName(f);
    for (const m of msgs) errs.push(invalid(path, f, m));
    if (msgs.length === 0 && !f.includes('/') && !standardFinalizers.has(f)) {
      errs.push(invalid(path, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

/** The phase follows deletion: Active until deletionTimestamp is set, Terminating after. */
function validateNamespaceStatusUpdate(ns: Namespace): FieldError[] {
  const phase = ns.status?.phase ?? 'Active';
  const path = Path.root('status').child('phase');
  if (!ns.metadata?.deletionTimestamp) {
    return phase === 'Active' ? [] : [invalid(path, phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === 'Terminating' ? [] : [invalid(path, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

/** Namespace rules; `standardFinalizers` are the finalizer names allowed without a domain prefix. */
export const namespaceValidation = (standardFinalizers: ReadonlySet<string>): KindValidation<Namespace> => ({
  name: nameIsDNSLabel,
  validate: (ns) => validateNamespace(ns, standardFinalizers),
  validateUpdate: (ns) => validateNamespace(ns, standardFinalizers),
  validateStatusUpdate: (ns) => validateNamespaceStatusUpdate(ns),
});
