// Numeric rules shared by several kinds: non-negative counts and int-or-percent values
// (maxUnavailable, minAvailable), worded as upstream words them.
import { invalid, type FieldError, type Path } from '../../runtime/field-errors.js';

const percentRe = /^[0-9]+%$/;

/** `must be greater than or equal to 0` when `value` is negative. */
export function validateNonnegativeField(value: number | undefined, path: Path): FieldError[] {
  return value !== undefined && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** A percentage string such as "25%"; the list of problems in upstream's words. */
export function isValidPercent(value: string): string[] {
  return percentRe.test(value)
    ? []
    : ["a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"];
}

/** An IntOrString that must be a non-negative integer or a well-formed percentage. */
export function validatePositiveIntOrPercent(value: number | string, path: Path): FieldError[] {
  if (typeof value === 'string') return isValidPercent(value).map((m) => invalid(path, value, m));
  return validateNonnegativeField(value, path);
}

/** The number in an int or a percentage ("30%" gives 30); 0 for a malformed string. */
export function intOrPercentValue(value: number | string): number {
  if (typeof value === 'number') return value;
  if (isValidPercent(value).length === 0) return Number(value.slice(0, -1));
  return /^[+-]?\d+$/.test(value) ? Number(value) : 0;
}

/** `must not be greater than 100%` for a percentage above 100. */
export function isNotMoreThan100Percent(value: number | string, path: Path): FieldError[] {
  if (typeof value !== 'string' || isValidPercent(value).length > 0) return [];
  return Number(value.slice(0, -1)) > 100 ? [invalid(path, value, 'must not be greater than 100%')] : [];
}
