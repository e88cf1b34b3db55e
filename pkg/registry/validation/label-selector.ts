import type { LabelSelector } from '../../../api/meta/v1/types.js';
import { invalid, notSupported, required, forbidden, type FieldError, type Path } from '../../runtime/field-errors.js';
import { isLabelValue, isQualifiedName } from './names.js';

/** Validates label keys and values of a map (labels, matchLabels, nodeSelector). */
export function validateLabels(labels: Record<string, string> | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const m of isQualifiedName(k)) errs.push(invalid(path, k, m));
    for (const m of isLabelValue(v)) errs.push(invalid(path.key(k), v, m));
  }
  return errs;
}

const operators = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

export interface LabelSelectorOptions {
  /** Skip the label-value format of matchExpressions values (upstream AllowInvalidLabelValueInSelector, for objects stored before it was checked). */
  allowInvalidLabelValues?: boolean;
}

/** Validates a metav1.LabelSelector: operators, values per operator, keys and values. */
export function validateLabelSelector(sel: LabelSelector | undefined, path: Path, opts: LabelSelectorOptions = {}): FieldError[] {
  if (!sel) return [];
  const errs: FieldError[] = [];
  (sel.matchExpressions ?? []).forEach((req, i) => {
    const p = path.child('matchExpressions').index(i);
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (!req.values || req.values.length === 0) {
          errs.push(required(p.child('values'), 'must be specified when `operator` is \'In\' or \'NotIn\''));
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (req.values && req.values.length > 0) {
          errs.push(forbidden(p.child('values'), 'may not be specified when `operator` is \'Exists\' or \'DoesNotExist\''));
        }
        break;
      default:
        errs.push(notSupported(p.child('operator'), req.operator, operators));
    }
    for (const m of isQualifiedName(req.key)) errs.push(invalid(p.child('key'), req.key, m));
    if (!opts.allowInvalidLabelValues) {
      (req.values ?? []).forEach((v, j) => {
        for (const m of isLabelValue(v)) errs.push(invalid(p.child('values').index(j), v, m));
      });
    }
  });
  errs.push(...validateLabels(sel.matchLabels, path.child('matchLabels')));
  return errs;
}
