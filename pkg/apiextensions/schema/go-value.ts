// JSON values as Go sees and prints them after upstream decodes a body: a number without a
// fraction that fits int64 is an int64, any other number a float64 (k8s.io/apimachinery's JSON
// decoding), and fmt prints them with %v and %#v. These spellings reach clients in the messages
// of 422 causes (`should be one of [a b]`, `Duplicate value: map[string]interface {}{"name":"a"}`).
import { goJson } from '../../apply/go-format.js';
import { GoLiteral } from '../../runtime/field-errors.js';
import { goQuote } from '../../util/go-quote.js';

/** Whether Go holds `n` as an int64 (an integral number within int64's range). */
export function isGoInt(n: number): boolean {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63;
}

/** A float64 as fmt's %v prints it (%g, shortest): `1.5`, `2`, an exponent below 1e-4 and from 1e6 on (`1e+06`). */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}

/** A number as Go prints the value it decoded (%v): an int64 plainly, a float64 as goFloat. */
export function goNumber(n: number): string {
  return isGoInt(n) ? BigInt(n).toString() : goFloat(n);
}

/** `%v` of a decoded JSON value: `[a 1 map[k:v]]`, `<nil>`. */
export function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${sortedKeys(o).map((k) => `${k}:${goV(o[k])}`).join(' ')}]`;
}

/** `%#v` of a decoded JSON value: `map[string]interface {}{"a":1}`, `[]interface {}{"a"}`. */
export function goSharpV(v: unknown, nested = false): string {
  if (v === null || v === undefined) return nested ? 'interface {}(nil)' : '<nil>';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x, true)).join(', ')}}`;
  const o = v as Record<string, unknown>;
  return `map[string]interface {}{${sortedKeys(o).map((k) => `${goQuote(k)}:${goSharpV(o[k], true)}`).join(', ')}}`;
}

function sortedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/**
 * A bad value for a FieldError, so that it prints as apimachinery's ErrorBody prints it: strings
 * quoted, int64 and bool plainly, float64 as %v, null as "null", maps and lists as %#v.
 */
export function goBadValue(v: unknown): unknown {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return isGoInt(v) ? v : new GoLiteral(goFloat(v));
  if (typeof v === 'object') return new GoLiteral(goSharpV(v));
  return v;
}

/** A value as encoding/json writes it (sorted keys), e.g. for NotSupported's list of enum values. */
export { goJson };
