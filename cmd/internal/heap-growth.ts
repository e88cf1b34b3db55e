// How far V8 lets the heap grow past what the last full collection left alive. V8's own factor goes
// up to 4x for a small heap: a server holding 50 MiB of objects (its watch cache) may sit on 200 MiB
// before it collects, in each worker. A fixed 2x measured in the bench (BENCH_ONLY=crud and lists,
// alternated runs, --workers 2): peak RSS 791-832 MiB down to 580-611, and with --workers 1 during
// the 10,000-item lists 434 down to about 290, at no throughput cost beyond the runs' noise. 1.25x
// (25) saved more (peak 489-504) but cost 5-15% of creates and gets per second.
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

/** Sets V8's heap growth to HEAP_GROWING_PERCENT, unless the operator chose one (node flags or NODE_OPTIONS). */
export function limitHeapGrowth(): void {
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => /heap[-_]growing[-_]percent/.test(a));
  if (!chosen) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
