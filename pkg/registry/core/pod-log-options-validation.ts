// PodLogOptions as upstream's ValidatePodLogOptions checks them before a log is read: no negative
// tail, a positive byte limit, and at most one of sinceSeconds and sinceTime (a positive one).
import type { PodLogOptions } from '../../../api/core/v1/pod-log-options.js';
import { forbidden, invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateNonnegativeField } from '../validation/numeric.js';

/** The problems of a pods/log request's options, in upstream's order and words. */
export function validatePodLogOptions(opts: PodLogOptions): FieldError[] {
  const errs = validateNonnegativeField(opts.tailLines, Path.root('tailLines'));
  if (opts.limitBytes !== undefined && opts.limitBytes < 1) errs.push(invalid('limitBytes', opts.limitBytes, 'must be greater than 0'));
  if (opts.sinceSeconds !== undefined && opts.sinceTime !== undefined) {
    // Upstream names no field: its empty path prints as `[]`.
    errs.push(forbidden('[]', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (opts.sinceSeconds !== undefined && opts.sinceSeconds < 1) {
    errs.push(invalid('sinceSeconds', opts.sinceSeconds, 'must be greater than 0'));
  }
  return errs;
}
