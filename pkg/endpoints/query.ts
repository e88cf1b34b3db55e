// Query parameters of API requests, checked once at the edge, converted as upstream's parameter
// codec converts them (k8s.io/apimachinery/pkg/runtime/conversion.go).
import { goQuote } from '../util/go-quote.js';
import { newBadRequest } from '../runtime/errors.js';
import { invalid, tooLong, type FieldError } from '../runtime/field-errors.js';

/** Upstream's FieldManagerMaxLength, in bytes. */
export const FIELD_MANAGER_MAX_BYTES = 128;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Characters Go's unicode.IsPrint accepts: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/**
 * A boolean query parameter as upstream converts it: false when absent, or when its first value
 * is `0` or `false` in any case (Go's strings.EqualFold, under which U+017F, the long s, is an
 * `s`); anything else, the empty value included, is true. So `watch=True` and `watch=` watch.
 */
export function queryBool(values: readonly string[]): boolean {
  if (values.length === 0) return false;
  const v = values[0]!;
  return !(v === '0' || (v.length === 5 && v.toLowerCase().replaceAll('\u017f', 's') === 'false'));
}

/** Go's strconv.ParseBool: true only for 1, t, T, TRUE, true, True (an error counts as false here). */
function parseGoBool(v: string): boolean {
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

/** A query integer as strconv.ParseInt reads it, within [min, max]; Go's error text as a 400 otherwise. */
export function parseGoInt(v: string, min: bigint, max: bigint): number {
  const fail = (why: string) => newBadRequest(`strconv.ParseInt: parsing ${goQuote(v)}: ${why}`);
  if (!/^[+-]?[0-9]+$/.test(v)) throw fail('invalid syntax');
  const n = BigInt(v);
  if (n < min || n > max) throw fail('value out of range');
  return Number(n);
}

export class Query {
  constructor(private readonly params: URLSearchParams) {}

  /** The first value of a parameter, or undefined. */
  str(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  has(name: string): boolean {
    return this.params.has(name);
  }

  all(name: string): string[] {
    return this.params.getAll(name);
  }

  /**
   * An int64 parameter (limit, timeoutSeconds, gracePeriodSeconds) as strconv.ParseInt reads it;
   * anything else, the empty value included, is a 400 with Go's error text, as upstream answers.
   */
  int(name: string): number | undefined {
    const v = this.str(name);
    return v === undefined ? undefined : parseGoInt(v, INT64_MIN, INT64_MAX);
  }

  /**
   * The integers of ListOptions, which upstream decodes alike for a list, a watch and a
   * deletecollection: a malformed timeoutSeconds or limit is a 400 whichever it is.
   */
  listIntegers(): { timeoutSeconds: number | undefined; limit: number | undefined } {
    return { timeoutSeconds: this.int('timeoutSeconds'), limit: this.int('limit') };
  }

  /** A boolean parameter, converted as upstream converts query booleans (see queryBool). */
  bool(name: string): boolean {
    return queryBool(this.all(name));
  }

  /** `pretty`, on when strconv.ParseBool reads it as true, as upstream's isPrettyPrint. */
  pretty(): boolean {
    const v = this.str('pretty');
    return v !== undefined && parseGoBool(v);
  }

  /** dryRun: empty or `All`; anything else is a 400. */
  dryRun(): boolean {
    const values = this.all('dryRun');
    for (const v of values) {
      if (v !== 'All' && v !== '') throw newBadRequest(`Invalid dryRun value: ${JSON.stringify(v)}: supported values: "All"`);
    }
    return values.includes('All');
  }

  /** fieldValidation: Ignore, Warn (default) or Strict. */
  fieldValidation(): 'Ignore' | 'Warn' | 'Strict' {
    const v = this.str('fieldValidation');
    if (v === undefined || v === '') return 'Warn';
    if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
    throw newBadRequest(`fieldValidation: Unsupported value: ${JSON.stringify(v)}: supported values: "Ignore", "Strict", "Warn"`);
  }

  /**
   * What upstream's ValidateFieldManager finds wrong with `fieldManager`: more than 128 bytes,
   * and each character Go does not consider printable (with its byte position).
   */
  fieldManagerErrors(): FieldError[] {
    const v = this.str('fieldManager') ?? '';
    const errs: FieldError[] = [];
    if (Buffer.byteLength(v, 'utf8') > FIELD_MANAGER_MAX_BYTES) errs.push(tooLong('fieldManager', '', FIELD_MANAGER_MAX_BYTES));
    let at = 0;
    for (const ch of v) {
      const r = ch.codePointAt(0)!;
      if (!GO_PRINTABLE.test(ch)) {
        const shown = r >= 0xd800 && r <= 0xdfff ? 0xfffd : r; // a lone surrogate is what Go calls RuneError
        errs.push(invalid('fieldManager', v, `invalid character U+${shown.toString(16).toUpperCase().padStart(4, '0')} (at position ${at})`));
      }
      at += Buffer.byteLength(ch, 'utf8');
    }
    return errs;
  }
}
