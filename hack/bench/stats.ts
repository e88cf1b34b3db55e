// Order statistics of measured samples.

/** The q-quantile (0..1) of the samples by the nearest-rank method; NaN when there are none. */
export function quantile(samples: ArrayLike<number>, q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}

export function median(samples: ArrayLike<number>): number {
  return quantile(samples, 0.5);
}
