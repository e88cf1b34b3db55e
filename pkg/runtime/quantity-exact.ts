// Exact quantity arithmetic for quota and limit accounting. Upstream keeps quantities as exact
// decimals and prints sums in the format of the first operand ("1Gi" + "512Mi" is "1536Mi"), so
// the values here are integers in nano-units (the finest scale upstream keeps; finer input is
// rounded up, as upstream does) with the format that decides how they print.

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface ExactQuantity {
  /** The value in units of 1e-9. */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

const NANO_EXP = 9;
const binaryExp: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const decimalExp: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const decimalSuffixByExp = new Map(Object.entries(decimalExp).map(([s, e]) => [e, s]));
const binarySuffixByExp = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

const quantityRe = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/;
const exponentRe = /^[eE]([+-]?[0-9]+)$/;

/** Divides rounding towards positive infinity, as upstream rounds values it cannot keep exactly. */
function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a > 0n) === (b > 0n) ? q + 1n : q;
}

/** The quantity, or undefined when the string is not one. */
export function parseExact(input: string | number): ExactQuantity | undefined {
  const s = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input;
  const m = quantityRe.exec(s);
  if (!m) return undefined;
  const [, sign, whole = '', frac = '', suffix = ''] = m;
  if (whole === '' && frac === '') return undefined;
  let format: QuantityFormat;
  let num = BigInt((whole || '0') + frac);
  let scale = -frac.length; // value = num * 10^scale (* 1024^binary)
  let binary = 0;
  if (suffix in binaryExp) {
    format = 'BinarySI';
    binary = binaryExp[suffix]!;
  } else if (suffix in decimalExp) {
    format = 'DecimalSI';
    scale += decimalExp[suffix]!;
  } else {
    const e = exponentRe.exec(suffix);
    if (!e || Math.abs(Number(e[1])) > 1000) return undefined;
    format = 'DecimalExponent';
    scale += Number(e[1]);
  }
  num *= 1024n ** BigInt(binary);
  if (sign === '-') num = -num;
  const shift = scale + NANO_EXP;
  const nanos = shift >= 0 ? num * 10n ** BigInt(shift) : ceilDiv(num, 10n ** BigInt(-shift));
  return { nanos, format };
}

/** Parses a quantity that validation has already accepted; throws otherwise. */
export function mustParse(input: string | number): ExactQuantity {
  const q = parseExact(input);
  if (!q) throw new Error(`invalid quantity ${JSON.stringify(input)}`);
  return q;
}

export const zeroQuantity: ExactQuantity = { nanos: 0n, format: 'DecimalSI' };

/** a + b in a's format; a zero a takes b's format, as upstream's Quantity.Add does. */
export function addQuantity(a: ExactQuantity, b: ExactQuantity): ExactQuantity {
  return { nanos: a.nanos + b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

export function subQuantity(a: ExactQuantity, b: ExactQuantity): ExactQuantity {
  return { nanos: a.nanos - b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** -1, 0 or 1. */
export function compareQuantity(a: ExactQuantity, b: ExactQuantity): number {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** The value in whole units rounded up (upstream's Value()). */
export function quantityValue(q: ExactQuantity): bigint {
  return ceilDiv(q.nanos, 10n ** 9n);
}

/** The value in milli-units rounded up (upstream's MilliValue()). */
export function quantityMilliValue(q: ExactQuantity): bigint {
  return ceilDiv(q.nanos, 10n ** 6n);
}

/** Upstream's canonical form: BinarySI for whole values of at least 1024, else decimal with an SI or e suffix. */
export function formatQuantity(q: ExactQuantity): string {
  if (q.nanos === 0n) return '0';
  const neg = q.nanos < 0n;
  const abs = neg ? -q.nanos : q.nanos;
  const unit = 10n ** 9n;
  if (q.format === 'BinarySI' && abs >= 1024n * unit && abs % unit === 0n) {
    let v = abs / unit;
    let e = 0;
    while (v % 1024n === 0n && e < 6) { v /= 1024n; e++; }
    return (neg ? '-' : '') + v.toString() + binarySuffixByExp[e];
  }
  let mant = abs;
  let exp = -NANO_EXP;
  while (mant % 10n === 0n) { mant /= 10n; exp++; }
  const r = ((exp % 3) + 3) % 3;
  if (r !== 0) { mant *= 10n ** BigInt(r); exp -= r; }
  let suffix: string;
  if (q.format === 'DecimalExponent') suffix = exp === 0 ? '' : `e${exp}`;
  else suffix = decimalSuffixByExp.get(exp) ?? `e${exp}`;
  return (neg ? '-' : '') + mant.toString() + suffix;
}
