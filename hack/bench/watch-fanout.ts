// Watch fan-out: W watchers of one namespace, each a plain watch from the current resourceVersion
// on its own connection, spread over the loader threads; then E creates from the main thread by
// BENCH_WATCH_CREATE_CLIENTS concurrent clients. For each create: the time from sending its POST to the moment the last
// watcher received its event (from the POST's response instead, a watcher could be first: the server sends the
// event and the response at once, and a busy bench thread reads the response late); and the time until every
// watcher had every event.
import { configMap, configMapsPath, type ApiClient } from './api-client.js';
import { nowMs } from './clock.js';
import type { BenchContext } from './context.js';
import type { WatchResult } from './protocol.js';
import { coresBetween, formatCores } from './proc-stats.js';
import { fmtMs } from './report.js';
import { quantile } from './stats.js';

async function currentResourceVersion(api: ApiClient, path: string): Promise<string> {
  return (await api.json<{ metadata: { resourceVersion: string } }>('GET', `${path}?limit=1`)).metadata.resourceVersion;
}

export async function watchFigures(ctx: BenchContext): Promise<void> {
  const { report, config, api, pool } = ctx;
  const events = config.watchEvents;
  const writers = Math.min(config.watchCreateClients, events);
  report.line(`\n## watch fan-out (${events} creates, ${writers === 1 ? 'one at a time' : `from ${writers} concurrent clients`}, each to every watcher)`);
  for (const watchers of config.watchers) {
    const ns = `watch-${watchers}`;
    await api.ok('POST', '/api/v1/namespaces', Buffer.from(JSON.stringify({ metadata: { name: ns } })));
    const path = configMapsPath(ns);
    const rv = await currentResourceVersion(api, path);
    const prefix = 'ev-';
    const shares = pool.split(watchers);
    const opening = nowMs();
    try {
      await Promise.all(shares.map(({ loader, share }) =>
        loader.run<number>({ kind: 'watch-open', path: `${path}?watch=true&resourceVersion=${rv}`, count: share, events, prefix })));
      const openMs = nowMs() - opening;
      const waits = Promise.all(shares.map(({ loader }) => loader.run<WatchResult>({ kind: 'watch-wait', timeoutMs: config.watchTimeoutMs })));
      // A rejection before the creates finish is handled where the waits are awaited.
      waits.catch(() => undefined);
      const before = ctx.cpu();
      const sentAt = new Float64Array(events);
      const respondedAt = new Float64Array(events);
      const first = nowMs();
      let next = 0;
      await Promise.all(Array.from({ length: writers }, async () => {
        while (next < events) {
          const i = next++;
          sentAt[i] = nowMs();
          await api.ok('POST', path, configMap(ns, `${prefix}${i}`));
          respondedAt[i] = nowMs();
        }
      }));
      const results = await waits;
      const after = ctx.cpu();
      const delays = new Float64Array(events);
      for (let i = 0; i < events; i++) delays[i] = Math.max(...results.map((r) => r.lastReceivedAt[i]!)) - sentAt[i]!;
      const allMs = Math.max(...results.map((r) => r.allAt)) - first;
      const createsMs = Math.max(...respondedAt) - first;
      const p50 = quantile(delays, 0.5);
      const p99 = quantile(delays, 0.99);
      const cpu = coresBetween(before, after);
      report.line(`${watchers} watchers (${shares.length} threads, connected in ${fmtMs(openMs)} ms): create-to-last-watcher p50 ${fmtMs(p50)} ms, p99 ${fmtMs(p99)} ms; all ${events} events at all watchers after ${fmtMs(allMs)} ms (the creates took ${fmtMs(createsMs)} ms)  | ${formatCores(cpu)}`);
      report.add({ figure: `${watchers} watchers x ${events} creates: create-to-last-watcher p50 / p99 (ms)`, orch: `${fmtMs(p50)} / ${fmtMs(p99)}`, cpu });
      report.add({ figure: `${watchers} watchers x ${events} creates: until all have all (ms)`, orch: fmtMs(allMs), cpu });
    } finally {
      await Promise.all(shares.map(({ loader }) => loader.run<number>({ kind: 'watch-close' })));
    }
  }
}
