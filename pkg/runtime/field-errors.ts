// Field-level validation errors, the `causes` of a 422 Invalid Status. Messages follow upstream's
// wording so clients and people see what they are used to.
import { goQuote } from '../util/go-quote.js';

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueNotFound';

export interface FieldError {
  type: FieldErrorType;
  /** Path of the field, e.g. `spec.template.spec.containers[0].name`. */
  field: string;
  /** Text after the type's own words, e.g. "must be no more than 63 characters". */
  detail: string;
  badValue?: unknown;
  hasBadValue: boolean;
}

/** A field path built like upstream's field.Path: `spec.ports[0].name`, `metadata.labels[app]`. */
export class Path {
  private constructor(private readonly text: string) {}
  static root(name: string): Path {
    return new Path(name);
  }
  child(...names: string[]): Path {
    return new Path([this.text, ...names].filter((s) => s !== '').join('.'));
  }
  index(i: number): Path {
    return new Path(`${this.text}[${i}]`);
  }
  key(k: string): Path {
    return new Path(`${this.text}[${k}]`);
  }
  toString(): string {
    return this.text;
  }
}

type Where = Path | string;

export const required = (field: Where, detail = ''): FieldError => ({
  type: 'FieldValueRequired', field: String(field), detail, hasBadValue: false,
});
export const invalid = (field: Where, value: unknown, detail: string): FieldError => ({
  type: 'FieldValueInvalid', field: String(field), detail, badValue: value, hasBadValue: true,
});
export const notSupported = (field: Where, value: unknown, supported: readonly string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field: String(field),
  detail: supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '',
  badValue: value,
  hasBadValue: true,
});
export const forbidden = (field: Where, detail: string): FieldError => ({
  type: 'FieldValueForbidden', field: String(field), detail, hasBadValue: false,
});
export const duplicate = (field: Where, value: unknown): FieldError => ({
  type: 'FieldValueDuplicate', field: String(field), detail: '', badValue: value, hasBadValue: true,
});
export const notFound = (field: Where, value: unknown): FieldError => ({
  type: 'FieldValueNotFound', field: String(field), detail: '', badValue: value, hasBadValue: true,
});
export const tooLong = (field: Where, value: unknown, max: number): FieldError => ({
  type: 'FieldValueTooLong', field: String(field), detail: `may not be more than ${max} bytes`, badValue: value, hasBadValue: false,
});
export const tooMany = (field: Where, actual: number, max: number): FieldError => ({
  type: 'FieldValueTooMany', field: String(field), detail: `must have at most ${max} items`, badValue: actual, hasBadValue: true,
});

const typeWords: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueNotFound: 'Not found',
};

/** A Go byte slice as `%#v` prints it: `[]byte{0x2d, 0x2d}`, `[]byte(nil)` for none. */
export class GoBytes {
  constructor(readonly bytes: Uint8Array | null) {}
  toString(): string {
    if (this.bytes === null) return '[]byte(nil)';
    return `[]byte{${Array.from(this.bytes, (b) => `0x${b.toString(16)}`).join(', ')}}`;
  }
}

/** A value as Go's `%#v` prints it, given as text: `[]eventratelimit.Limit(nil)`. */
export class GoLiteral {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A Go string slice as `%#v` prints it: `[]string{"a", "b"}`, `[]string(nil)` for none. */
export class GoStrings {
  constructor(readonly strings: readonly string[] | null) {}
  toString(): string {
    if (this.strings === null) return '[]string(nil)';
    return `[]string{${this.strings.map(goQuote).join(', ')}}`;
  }
}

function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof GoBytes || v instanceof GoLiteral || v instanceof GoStrings) return v.toString();
  if (v === undefined) return 'null';
  return JSON.stringify(v);
}

/** The error's text without its field: `Invalid value: "x": must be ...`. */
export function errorBody(e: FieldError): string {
  let s = typeWords[e.type];
  if (e.hasBadValue) s += `: ${formatValue(e.badValue)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** `field: body`, as in upstream aggregate messages. */
export function errorMessage(e: FieldError): string {
  return e.field ? `${e.field}: ${errorBody(e)}` : errorBody(e);
}
