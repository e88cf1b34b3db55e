// Resource quantities ("100m", "1Gi", "1e3", 2): parsing into plain numbers for comparisons such
// as requests <= limits. Very large or very precise values lose precision as JS numbers, which
// does not matter for comparing the quantities people write.

const binarySuffixes: Record<string, number> = {
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};
const decimalSuffixes: Record<string, number> = {
  n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
};

// A signed decimal number (digits with at most one '.'), then a suffix.
const quantityRe = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(.*)$/;
const exponentRe = /^[eE]([+-]?[0-9]+)$/;

/** The value of a quantity in base units, or undefined when it is not a valid quantity. */
export function parseQuantity(q: string | number): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  const m = quantityRe.exec(q);
  if (!m) return undefined;
  const value = Number(m[1]);
  const suffix = m[2]!;
  let factor: number | undefined = binarySuffixes[suffix] ?? decimalSuffixes[suffix];
  if (factor === undefined) {
    const e = exponentRe.exec(suffix);
    if (!e) return undefined;
    factor = 10 ** Number(e[1]);
  }
  const result = value * factor;
  return Number.isFinite(result) ? result : undefined;
}
