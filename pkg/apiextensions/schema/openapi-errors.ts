// The errors kube-openapi's validator reports (its errors package: the same codes and messages,
// `spec.replicas in body must be of type integer: "string"`), and how apiextensions-apiserver turns
// them into the field errors of a 422 (kubeOpenAPIResultToFieldErrors): Required, NotSupported,
// TooLong, TooMany, TypeInvalid or Invalid, the field named by the error's path; errors of
// allOf/anyOf/oneOf/not carry no path and are reported at the root (`<nil>` when there is none).
import { GoLiteral, notSupported, required, type FieldError } from '../../runtime/field-errors.js';
import { goQuote } from '../../util/go-quote.js';
import { goBadValue, goFloat, goJson, goNumber, goV } from './go-value.js';

export type ErrorCode =
  | 'invalidType' | 'required' | 'tooLong' | 'tooShort' | 'pattern' | 'enum' | 'multipleOf' | 'max' | 'min'
  | 'unique' | 'maxItems' | 'minItems' | 'tooFewProperties' | 'tooManyProperties' | 'unallowedProperty'
  | 'multipleOfMustBePositive' | 'composite';

/** One validation error: its code, the path it names (`spec.replicas`), the value it judged. */
export interface OpenAPIError {
  code: ErrorCode;
  name: string;
  message: string;
  /** The judged value as Go holds it; undefined where Go's error carries none. */
  value?: unknown;
  /** Set when `value` is a float64 in Go even if it is integral (a bound or a factor). */
  floatValue?: boolean;
  /** The limit of TooLong, MaxItems, TooManyProperties. */
  valid?: number;
  /** The allowed values of an enum. */
  values?: unknown[];
}

const IN = 'body';

const err = (code: ErrorCode, name: string, message: string, extra: Partial<OpenAPIError> = {}): OpenAPIError => ({ code, name, message, ...extra });

/** `%s in body must be of type %s: %q` when the value is a string, `%s in body must be of type %s` otherwise. */
export function invalidType(name: string, typeName: string, value: string): OpenAPIError {
  return err('invalidType', name, `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}`, { value });
}

export const requiredFail = (name: string) => err('required', name, `${name} in ${IN} is required`);
export const tooLong = (name: string, max: number, value: string) => err('tooLong', name, `${name} in ${IN} should be at most ${max} chars long`, { value, valid: max });
export const tooShort = (name: string, min: number, value: string) => err('tooShort', name, `${name} in ${IN} should be at least ${min} chars long`, { value, valid: min });
export const failedPattern = (name: string, pattern: string, value: string) => err('pattern', name, `${name} in ${IN} should match '${pattern}'`, { value });
export const enumFail = (name: string, value: unknown, values: unknown[]) => err('enum', name, `${name} in ${IN} should be one of ${goV(values)}`, { value, values });
export const duplicateItems = (name: string) => err('unique', name, `${name} in ${IN} shouldn't contain duplicates`);
export const tooManyItems = (name: string, max: number, size: number) => err('maxItems', name, `${name} in ${IN} should have at most ${max} items`, { value: size, valid: max });
export const tooFewItems = (name: string, min: number, size: number) => err('minItems', name, `${name} in ${IN} should have at least ${min} items`, { value: size, valid: min });
export const tooFewProperties = (name: string, min: number, size: number) => err('tooFewProperties', name, `${name} in ${IN} should have at least ${min} properties`, { value: size, valid: min });
export const tooManyProperties = (name: string, max: number, size: number) => err('tooManyProperties', name, `${name} in ${IN} should have at most ${max} properties`, { value: size, valid: max });
export const propertyNotAllowed = (name: string, key: string) => err('unallowedProperty', name, `${name}.${key} in ${IN} is a forbidden property`, { value: key });

/** A bound as Go prints it: an int64 bound (the value was an integer) or a float64 one. */
const bound = (n: number, asFloat: boolean) => (asFloat ? goFloat(n) : goNumber(n));

export function exceedsMaximum(name: string, max: number, exclusive: boolean, value: number, asFloat: boolean): OpenAPIError {
  return err('max', name, `${name} in ${IN} should be less than ${exclusive ? '' : 'or equal to '}${bound(max, asFloat)}`, { value, floatValue: asFloat });
}

export function exceedsMinimum(name: string, min: number, exclusive: boolean, value: number, asFloat: boolean): OpenAPIError {
  return err('min', name, `${name} in ${IN} should be greater than ${exclusive ? '' : 'or equal to '}${bound(min, asFloat)}`, { value, floatValue: asFloat });
}

export function notMultipleOf(name: string, factor: number, value: number, asFloat: boolean): OpenAPIError {
  return err('multipleOf', name, `${name} in ${IN} should be a multiple of ${bound(factor, asFloat)}`, { value, floatValue: asFloat });
}

export function multipleOfMustBePositive(name: string, factor: number, asFloat: boolean): OpenAPIError {
  return err('multipleOfMustBePositive', name, `factor MultipleOf declared for ${name} must be positive: ${bound(factor, asFloat)}`, { value: factor, floatValue: asFloat });
}

/** An error of allOf/anyOf/oneOf/not, which names its path only in its text. */
export const composite = (message: string) => err('composite', '', message);
export const mustValidateAtLeastOne = (path: string) => composite(`${goQuote(path)} must validate at least one schema (anyOf)`);
export const mustValidateOnlyOne = (path: string, additional: string) => composite(`${goQuote(path)} must validate one and only one schema (oneOf). ${additional}`);
export const mustValidateAll = (path: string, additional: string) => composite(`${goQuote(path)} must validate all the schemas (allOf)${additional}`);
export const mustNotValidate = (path: string) => composite(`${goQuote(path)} must not validate the schema (not)`);

function badValue(e: OpenAPIError): unknown {
  if (e.value === undefined) return '';
  if (typeof e.value === 'number' && e.floatValue) return new GoLiteral(goFloat(e.value));
  return goBadValue(e.value);
}

/**
 * The 422 causes of validation errors, each at `root` joined with the error's path (`root` is
 * the path validated, e.g. `spec.versions[0].schema.openAPIV3Schema.default`; undefined for an
 * object's root, where upstream names errors without a path `<nil>`).
 */
export function toFieldErrors(errors: readonly OpenAPIError[], root?: string): FieldError[] {
  const rootField = root ?? '<nil>';
  return errors.map((e): FieldError => {
    if (e.code === 'composite') return { type: 'FieldValueInvalid', field: rootField, detail: e.message, badValue: '', hasBadValue: true };
    const name = e.name.startsWith('.') ? e.name.slice(1) : e.name;
    const field = e.name === '' || e.name === '.' ? rootField : root === undefined ? name : `${root}.${name}`;
    switch (e.code) {
      case 'required':
        return required(field);
      case 'enum':
        return { ...notSupported(field, goBadValue(e.value), (e.values ?? []).map((v) => (typeof v === 'string' ? v : goJson(v)))), badValue: goBadValue(e.value) };
      case 'tooLong':
        return { type: 'FieldValueTooLong', field, detail: `may not be longer than ${e.valid ?? -1}`, badValue: e.value, hasBadValue: false };
      case 'maxItems':
      case 'tooManyProperties':
        return { type: 'FieldValueTooMany', field, detail: `must have at most ${e.valid ?? -1} items`, badValue: e.value, hasBadValue: true };
      case 'invalidType':
        return { type: 'FieldValueTypeInvalid', field, detail: e.message, badValue: badValue(e), hasBadValue: true };
      default:
        return { type: 'FieldValueInvalid', field, detail: e.message, badValue: badValue(e), hasBadValue: true };
    }
  });
}
