import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter, Registry } from 'prom-client';
import { counterCell, CounterCells } from './counter-cell.js';

type L = 'verb' | 'code';

function twin() {
  const mk = () => {
    const registry = new Registry();
    const c = new Counter<L>({ name: 'x_total', help: 'Requests.', labelNames: ['verb', 'code'], registers: [registry] });
    return { registry, c };
  };
  return { theirs: mk(), ours: mk() };
}

test("a cell's increments render exactly as prom-client's own inc (text and JSON)", async () => {
  const { theirs, ours } = twin();
  const cells = new CounterCells(ours.c);
  const sets: Array<Record<L, string>> = [{ verb: 'GET', code: '200' }, { code: '404', verb: 'GET' }, { verb: 'POST', code: '201' }];
  for (let i = 0; i < 50; i++) {
    const l = sets[i % 3 === 0 ? 0 : i % 7 === 0 ? 1 : 2]!;
    theirs.c.inc(l);
    cells.get(`${l.verb}|${l.code}`, () => l).inc();
  }
  assert.equal(await ours.registry.metrics(), await theirs.registry.metrics());
  assert.deepEqual(await ours.registry.getMetricsAsJSON(), await theirs.registry.getMetricsAsJSON());
});

test("a cell follows prom-client's inc on the same labels and a reset", async () => {
  const { theirs, ours } = twin();
  const cell = counterCell(ours.c, { verb: 'GET', code: '200' });
  for (const step of ['cell', 'prom', 'cell', 'reset', 'cell', 'prom', 'cell']) {
    if (step === 'reset') {
      theirs.c.reset();
      ours.c.reset();
      continue;
    }
    theirs.c.inc({ verb: 'GET', code: '200' });
    if (step === 'cell') cell.inc();
    else ours.c.inc({ verb: 'GET', code: '200' });
  }
  const text = await ours.registry.metrics();
  assert.equal(text, await theirs.registry.metrics());
  assert.match(text, /x_total\{verb="GET",code="200"\} 3\n/);
});

test('a cell refuses labels prom-client refuses', () => {
  const { ours } = twin();
  const cell = counterCell(ours.c, { verb: 'GET', code: '200', bogus: 'x' } as Record<L, string>);
  assert.throws(() => cell.inc());
});
