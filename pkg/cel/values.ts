// CEL values as the evaluator holds them, and the conversions between them and JSON: ints are
// bigints, uints UnsignedInt, doubles numbers, timestamps Dates, durations Duration, lists arrays,
// maps and objects plain objects or Maps. JSON numbers become ints when integral (as upstream's
// unstructured values decode) unless a schema says `number`.
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';

export { Duration, UnsignedInt };

/** Whether two CEL values are equal as CEL's `==` says (numbers across types, lists and maps deeply). */
export function equalValues(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => equalValues(v, b[i]));
  }
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((v, i) => v === b[i]);
  }
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof Duration || b instanceof Duration) {
    return a instanceof Duration && b instanceof Duration && a.seconds === b.seconds && a.nanos === b.nanos;
  }
  const custom = a as { equals?: (o: unknown) => boolean };
  if (typeof custom.equals === 'function') return custom.equals(b);
  const ea = entries(a);
  const eb = new Map(entries(b));
  return ea.length === eb.size && ea.every(([k, v]) => eb.has(k) && equalValues(v, eb.get(k)));
}

/** -1, 0 or 1 for two values of one ordered CEL type. */
export function compareValues(a: unknown, b: unknown): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na < nb ? -1 : na > nb ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  if (a instanceof Duration && b instanceof Duration) return Math.sign(Number(a) - Number(b));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  return 0;
}

function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (v instanceof UnsignedInt) return v.valueOf() as bigint;
  return undefined;
}

function entries(o: object): [unknown, unknown][] {
  return o instanceof Map ? [...(o as Map<unknown, unknown>)] : Object.entries(o);
}

/** A JSON value as a CEL value with no schema to go by (upstream's UnstructuredToVal for dyn). */
export function jsonToCel(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(jsonToCel);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = jsonToCel(x);
    return out;
  }
  return v;
}

/** A CEL value as JSON (for messages and audit annotations): ints become numbers where exact. */
export function celToJson(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof UnsignedInt) return Number(v.valueOf());
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(celToJson);
  if (v instanceof Map) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), celToJson(x)]));
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, celToJson(x)]));
  }
  return v;
}
