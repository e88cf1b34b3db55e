// Resource lists as quota accounting sees them: names to exact quantities, with upstream's set
// operations (add, masked subtraction, <= per name) and its sorted `name=value` rendering.
import {
  addQuantity, compareQuantity, formatQuantity, mustParse, subQuantity, zeroQuantity, type ExactQuantity,
} from '../runtime/quantity-exact.js';

export type Usage = Map<string, ExactQuantity>;

/** Reads a stored (already validated) resource list. */
export function toUsage(list: Record<string, string | number> | undefined): Usage {
  const out: Usage = new Map();
  for (const [k, v] of Object.entries(list ?? {})) out.set(k, mustParse(v));
  return out;
}

/** The wire form of a usage, each quantity canonical. */
export function fromUsage(u: Usage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...u.keys()].sort()) out[k] = formatQuantity(u.get(k)!);
  return out;
}

export function addUsage(a: Usage, b: Usage): Usage {
  const out: Usage = new Map(a);
  for (const [k, v] of b) out.set(k, out.has(k) ? addQuantity(out.get(k)!, v) : v);
  return out;
}

/** a - b per name, never below zero; names only in b become zero (dropped by removeZeros). */
export function subtractNonNegative(a: Usage, b: Usage): Usage {
  const out: Usage = new Map();
  for (const [k, v] of a) {
    const d = b.has(k) ? subQuantity(v, b.get(k)!) : v;
    out.set(k, d.nanos > 0n ? d : zeroQuantity);
  }
  for (const k of b.keys()) if (!out.has(k)) out.set(k, zeroQuantity);
  return out;
}

export function removeZeros(u: Usage): Usage {
  return new Map([...u].filter(([, v]) => v.nanos !== 0n));
}

export function mask(u: Usage, names: Iterable<string>): Usage {
  const keep = new Set(names);
  return new Map([...u].filter(([k]) => keep.has(k)));
}

/** The names whose value in a exceeds b; names absent from b are not limited. */
export function exceeding(a: Usage, b: Usage): string[] {
  return [...a].filter(([k, v]) => b.has(k) && compareQuantity(v, b.get(k)!) > 0).map(([k]) => k);
}

/** Negative names, sorted. */
export function negativeNames(u: Usage): string[] {
  return [...u].filter(([, v]) => v.nanos < 0n).map(([k]) => k).sort();
}

/** Upstream's `a=1,b=2Gi` form used in quota messages. */
export function prettyPrint(u: Usage): string {
  return [...u.keys()].sort().map((k) => `${k}=${formatQuantity(u.get(k)!)}`).join(',');
}

export function prettyPrintNames(names: Iterable<string>): string {
  return [...names].sort().join(',');
}
