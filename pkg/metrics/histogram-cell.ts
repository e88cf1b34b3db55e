// A fast observer of one label set of a prom-client Histogram. prom-client's observe hashes the
// label object (sorted names, joined) and validates it on every call, about a microsecond, and
// its `labels(...)` child does the same again per call; the request path observes several
// histograms per request. A cell finds the label set's entry in the histogram once and then adds
// to it directly: the same entry prom-client's own observe would update, in the same way (sum
// first, count, then the first bucket whose bound is >= the value), so the registry renders and
// --workers aggregates exactly the text it always did. The entry's shape is prom-client 15's; the
// unit test compares the text with prom-client's own observe so an upgrade that changes it fails.
import { format } from 'node:util';
import type { Histogram } from 'prom-client';
import { Cells } from './cells.js';

/** prom-client 15's per-label-set histogram entry. */
interface Entry {
  labels: Record<string, string | number>;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

interface Internals {
  hashMap: Record<string, Entry>;
  upperBounds: readonly number[];
  labelNames: readonly string[];
}

export interface HistogramCell {
  observe(value: number): void;
}

/** The cell of `labels` (every label name of the histogram given) in `histogram`. */
export function histogramCell<L extends string>(histogram: Histogram<L>, labels: Record<L, string>): HistogramCell {
  const h = histogram as unknown as Internals;
  // prom-client's label check, once: unknown names throw here as observe would.
  histogram.labels(labels);
  const bounds = [...h.upperBounds];
  const keys = bounds.map(String);
  let map: Record<string, Entry> | undefined;
  let entry!: Entry;
  const same = (e: Entry) => Object.keys(e.labels).length === Object.keys(labels).length && h.labelNames.every((n) => e.labels[n] === (labels as Record<string, string>)[n]);
  /** The entry of `labels` in the current map, made (as observe would, with zeros) when there is none. */
  const resolve = () => {
    map = h.hashMap;
    const found = Object.values(map).find(same);
    if (found) {
      entry = found;
      return;
    }
    // zero() stores a new entry holding this very labels object, found again by identity.
    const own = { ...labels } as Record<L, string>;
    histogram.zero(own);
    entry = Object.values(h.hashMap).find((e) => e.labels === own)!;
  };
  return {
    observe(value: number): void {
      if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${format(value)}`);
      // reset() replaces the map: find (or make) the entry in the new one.
      if (h.hashMap !== map) resolve();
      let i = 0;
      while (i < bounds.length && !(value <= bounds[i]!)) i++;
      entry.sum += value;
      entry.count += 1;
      if (i < bounds.length) entry.bucketValues[keys[i]!]! += 1;
    },
  };
}

/** Histogram cells by a string key the caller builds from its label values (cells.ts). */
export class HistogramCells<L extends string> extends Cells<L, HistogramCell> {
  constructor(histogram: Histogram<L>) {
    super((labels) => histogramCell(histogram, labels));
  }
}
