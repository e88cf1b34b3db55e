import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { histogramCell, HistogramCells } from './histogram-cell.js';

const buckets = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
type L = 'verb' | 'resource';

function twin() {
  const mk = () => {
    const registry = new Registry();
    const h = new Histogram<L>({ name: 'x_duration_seconds', help: 'Latency "in" seconds\\n.', labelNames: ['verb', 'resource'], buckets, registers: [registry] });
    return { registry, h };
  };
  return { theirs: mk(), ours: mk() };
}

// Values below, at and between bounds, above the last, zero, negative, and sums whose float order matters.
const values = [0, 0.005, 0.0050001, 0.1, 0.3, 2.5, 2.5000001, 100, -1, 1e-9, 0.1 + 0.2, 7 / 3];
const labelSets: Array<Record<L, string>> = [
  { verb: 'GET', resource: 'pods' },
  { verb: 'LIST', resource: '' },
  { verb: 'POST', resource: 'configmaps' },
];

test("a cell's observations render exactly as prom-client's own observe (text and JSON)", async () => {
  const { theirs, ours } = twin();
  const cells = new HistogramCells(ours.h);
  let n = 0;
  for (let round = 0; round < 3; round++) {
    for (const l of labelSets) {
      for (const v of values) {
        const x = v * (round + 1) + n++ * 1e-7;
        theirs.h.observe(l, x);
        cells.get(`${l.verb}|${l.resource}`, () => l).observe(x);
      }
    }
  }
  assert.equal(await ours.registry.metrics(), await theirs.registry.metrics());
  assert.deepEqual(await ours.registry.getMetricsAsJSON(), await theirs.registry.getMetricsAsJSON());
});

test("a cell and prom-client's observe share one entry; reset and label order are followed", async () => {
  const { theirs, ours } = twin();
  // Mixed: prom-client first (entry exists, labels in another key order), then the cell, then prom-client again.
  theirs.h.observe({ resource: 'pods', verb: 'GET' }, 0.2);
  ours.h.observe({ resource: 'pods', verb: 'GET' }, 0.2);
  const cell = histogramCell(ours.h, { verb: 'GET', resource: 'pods' });
  theirs.h.observe({ verb: 'GET', resource: 'pods' }, 0.01);
  cell.observe(0.01);
  theirs.h.observe({ verb: 'GET', resource: 'pods' }, 3);
  ours.h.observe({ verb: 'GET', resource: 'pods' }, 3);
  const text = await ours.registry.metrics();
  assert.equal(text, await theirs.registry.metrics());
  assert.match(text, /_count\{resource="pods",verb="GET"\} 3\n/, 'the entry made first (its label order) is the one added to');
  theirs.h.reset();
  ours.h.reset();
  theirs.h.observe({ verb: 'GET', resource: 'pods' }, 0.7);
  cell.observe(0.7);
  assert.equal(await ours.registry.metrics(), await theirs.registry.metrics());
});

test('a cell refuses what prom-client refuses: unknown labels, values that are not finite numbers', () => {
  const { ours } = twin();
  assert.throws(() => histogramCell(ours.h, { verb: 'GET', resource: 'pods', bogus: 'x' } as Record<L, string>));
  const cell = histogramCell(ours.h, { verb: 'GET', resource: 'pods' });
  assert.throws(() => cell.observe(Number.NaN), { name: 'TypeError', message: 'Value is not a valid number: NaN' });
  assert.throws(() => ours.h.observe({ verb: 'GET', resource: 'pods' }, Number.NaN), { name: 'TypeError', message: 'Value is not a valid number: NaN' });
  assert.throws(() => cell.observe(Infinity), TypeError);
});
