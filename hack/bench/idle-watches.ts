// Idle watches: what N open watches that receive nothing cost the server in memory. The server's
// RSS and V8 heap (its own /metrics) are read with no watch open and again once N watches on one
// namespace (each on its own HTTPS connection, spread over the loader threads) are open and the
// server has settled; the difference per watch is the figure. It includes the connection (TLS
// state, sockets) besides the watch itself, as a client's watch costs both.
import { configMapsPath, type ApiClient } from './api-client.js';
import { nowMs, sleep } from './clock.js';
import type { BenchContext } from './context.js';
import { memory } from './proc-stats.js';
import { fmtMs } from './report.js';

async function heapUsed(api: ApiClient): Promise<number> {
  const text = (await api.ok('GET', '/metrics')).body.toString('utf8');
  return Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? NaN);
}

/** Memory of the server once it stopped moving: the lower of a few samples a moment apart. */
async function settled(ctx: BenchContext): Promise<{ rss: number; heap: number }> {
  let rss = Infinity;
  let heap = Infinity;
  for (let i = 0; i < 4; i++) {
    await sleep(400);
    rss = Math.min(rss, memory(ctx.cluster.serverPid).rss);
    heap = Math.min(heap, await heapUsed(ctx.api));
  }
  return { rss, heap };
}

export async function idleWatchFigures(ctx: BenchContext): Promise<void> {
  const { report, config, api, pool } = ctx;
  const n = config.idleWatches;
  const ns = 'watch-idle';
  await api.ok('POST', '/api/v1/namespaces', Buffer.from(JSON.stringify({ metadata: { name: ns } })));
  const before = await settled(ctx);
  const shares = pool.split(n);
  const opening = nowMs();
  try {
    await Promise.all(shares.map(({ loader, share }) =>
      loader.run<number>({ kind: 'watch-open', path: `${configMapsPath(ns)}?watch=true`, count: share, events: 0, prefix: 'none-' })));
    const openMs = nowMs() - opening;
    const after = await settled(ctx);
    const perWatch = (b: number, a: number) => `${((a - b) / n / 1024).toFixed(1)} KiB`;
    report.line(`\n## idle watches\n${n} idle watches (connected in ${fmtMs(openMs)} ms): server RSS ${perWatch(before.rss, after.rss)} per watch, V8 heap ${perWatch(before.heap, after.heap)} per watch (RSS ${(before.rss / 2 ** 20).toFixed(0)} -> ${(after.rss / 2 ** 20).toFixed(0)} MiB)`);
    report.add({ figure: `RSS per idle watch (${n} watches, KiB)`, orch: ((after.rss - before.rss) / n / 1024).toFixed(1) });
    report.add({ figure: `V8 heap per idle watch (${n} watches, KiB)`, orch: ((after.heap - before.heap) / n / 1024).toFixed(1) });
  } finally {
    await Promise.all(shares.map(({ loader }) => loader.run<number>({ kind: 'watch-close' })));
  }
}
