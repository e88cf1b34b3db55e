// Rules of RuntimeClass (upstream ValidateRuntimeClass, ValidateRuntimeClassUpdate): a DNS-label
// handler that never changes, an overhead checked as container limits, and scheduling constraints
// checked as a pod's node selector and tolerations.
import type { RuntimeClass } from '../../../api/node/v1/runtime-class.js';
import type { Toleration } from '../../../api/core/v1/toleration.js';
import { duplicate, invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateResourceRequirements } from '../core/container-validation.js';
import type { ResourceNames } from '../core/resource-names.js';
import { validateTolerations } from '../core/pod-template-validation.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateLabels } from '../validation/label-selector.js';
import { isDNS1123Label, nameIsDNSSubdomain } from '../validation/names.js';

/** Tolerations of a class: each valid, and no two alike in key, operator, value and effect. */
function validateClassTolerations(tolerations: Toleration[], path: Path): FieldError[] {
  // Upstream nests the path once more for the per-toleration rules; kept so causes match.
  const errs = validateTolerations(tolerations, path.child('tolerations'));
  const seen = new Set<string>();
  tolerations.forEach((t, i) => {
    const key = JSON.stringify([t.key ?? '', t.operator ?? '', t.value ?? '', t.effect ?? '']);
    if (seen.has(key)) errs.push(duplicate(path.index(i), t));
    else seen.add(key);
  });
  return errs;
}

export function runtimeClassValidation(names: ResourceNames): KindValidation<RuntimeClass> {
  const validate = (rc: RuntimeClass): FieldError[] => {
    const handler = rc.handler ?? '';
    const errs = isDNS1123Label(handler).map((m) => invalid(Path.root('handler'), handler, m));
    if (rc.overhead) {
      errs.push(...validateResourceRequirements({ limits: rc.overhead.podFixed ?? {} }, undefined, Path.root('overhead'), names));
    }
    if (rc.scheduling) {
      const sp = Path.root('scheduling');
      if (rc.scheduling.nodeSelector) errs.push(...validateLabels(rc.scheduling.nodeSelector, sp.child('nodeSelector')));
      errs.push(...validateClassTolerations(rc.scheduling.tolerations ?? [], sp.child('tolerations')));
    }
    return errs;
  };
  return {
    name: nameIsDNSSubdomain,
    validate,
    // Upstream checks only that the handler stays the same on update.
    validateUpdate: (rc, old) => validateImmutableField(rc.handler, old.handler, Path.root('handler')),
  };
}
