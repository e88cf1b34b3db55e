// Test support: runs an object through what the generic store does before storing it
// (defaulting, schema check with schema defaults, the kind's own rules) and returns the causes.
import type { TObject } from '@sinclair/typebox';
import type { FieldError, FieldErrorType } from '../../runtime/field-errors.js';
import { SchemaValidator } from '../../runtime/schema-validator.js';
import type { KindValidation } from '../validation/kind-validation.js';

const schemas = new SchemaValidator();

export interface KindUnderTest<T> {
  schema: TObject;
  validation: KindValidation<T>;
  defaulter?: (obj: T) => void;
}

function prepare<T>(kind: KindUnderTest<T>, obj: unknown): { value: T; errors: FieldError[] } {
  const value = structuredClone(obj) as T;
  kind.defaulter?.(value);
  const check = schemas.check(kind.schema, value);
  if (check.decodeErrors.length > 0) throw new Error(`decode errors: ${check.decodeErrors.join('; ')}`);
  return { value, errors: check.fieldErrors };
}

/** The causes a create of `obj` would fail with (empty when it is accepted). */
export function createErrors<T>(kind: KindUnderTest<T>, obj: unknown): FieldError[] {
  const { value, errors } = prepare(kind, obj);
  return [...errors, ...kind.validation.validate(value)];
}

/** The causes an update from `old` to `obj` would fail with. */
export function updateErrors<T>(kind: KindUnderTest<T>, obj: unknown, old: unknown): FieldError[] {
  const o = prepare(kind, old).value;
  const { value, errors } = prepare(kind, obj);
  return [...errors, ...kind.validation.validateUpdate(value, o)];
}

/** The causes a status update from `old` to `obj` would fail with. */
export function statusUpdateErrors<T>(kind: KindUnderTest<T>, obj: unknown, old: unknown): FieldError[] {
  const o = prepare(kind, old).value;
  const { value, errors } = prepare(kind, obj);
  return [...errors, ...(kind.validation.validateStatusUpdate?.(value, o) ?? [])];
}

/** The object after defaulting and schema defaults. */
export function defaulted<T>(kind: KindUnderTest<T>, obj: unknown): T {
  return prepare(kind, obj).value;
}

/** `type field` of every cause, for compact assertions. */
export function summary(errors: FieldError[]): string[] {
  return errors.map((e) => `${e.type} ${e.field}`);
}

/** Whether a cause of this type names this field. */
export function has(errors: FieldError[], type: FieldErrorType, field: string): boolean {
  return errors.some((e) => e.type === type && e.field === field);
}
