import { isDeepStrictEqual } from 'node:util';
import { invalid, type FieldError, type Path } from '../../runtime/field-errors.js';

/** The upstream "field is immutable" error when `value` differs from `old`. */
export function validateImmutableField(value: unknown, old: unknown, path: Path): FieldError[] {
  return isDeepStrictEqual(value ?? null, old ?? null) ? [] : [invalid(path, value ?? null, 'field is immutable')];
}
