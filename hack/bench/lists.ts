// Full lists of a namespace of N 1 KiB ConfigMaps, three ways: a consistent read (resourceVersion
// unset), resourceVersion=0 (any state the server holds; a watch cache serves it from memory), and
// paged by `limit`. Modes alternate within each round so a drifting machine load hits all alike.
import { nowMs } from './clock.js';
import type { BenchContext } from './context.js';
import { configMapsPath } from './api-client.js';
import type { ListResult } from './protocol.js';
import { coresOver, formatCores, type CpuSnapshot } from './proc-stats.js';
import { fmtMs } from './report.js';
import { median } from './stats.js';

const POPULATE_CLIENTS_PER_LOADER = 32;

/** Fills a fresh namespace with `count` ConfigMaps through the API, the load spread over the loaders; answers creates/s. */
export async function populate(ctx: BenchContext, namespace: string, prefix: string, count: number): Promise<number> {
  await ctx.api.ok('POST', '/api/v1/namespaces', Buffer.from(JSON.stringify({ metadata: { name: namespace } })));
  const started = nowMs();
  let from = 0;
  await Promise.all(ctx.pool.split(count).map(({ loader, share }) => {
    const task = { kind: 'populate' as const, namespace, prefix, from, to: from + share, clients: POPULATE_CLIENTS_PER_LOADER };
    from += share;
    return loader.run<number>(task);
  }));
  return count / ((nowMs() - started) / 1000);
}

export async function listFigures(ctx: BenchContext): Promise<void> {
  const { report, config } = ctx;
  report.line(`\n## full lists (median of ${config.listRuns}; time to the last byte of every page)`);
  for (const size of config.listSizes) {
    const ns = `list-${size}`;
    const rate = await populate(ctx, ns, 'cm-', size);
    report.line(`(filled ${ns} with ${size} ConfigMaps at ${rate.toFixed(0)}/s, ${POPULATE_CLIENTS_PER_LOADER} clients per loader thread)`);
    const path = configMapsPath(ns);
    const modes = [
      { name: 'resourceVersion unset', path, limit: undefined },
      { name: 'resourceVersion=0', path: `${path}?resourceVersion=0`, limit: undefined },
      { name: `paged by limit=${config.pageLimit}`, path, limit: config.pageLimit },
    ];
    const runs = modes.map(() => ({ ms: [] as number[], cpu: [] as [CpuSnapshot, CpuSnapshot][], last: undefined as ListResult | undefined }));
    for (let round = 0; round < config.listRuns; round++) {
      for (const [i, mode] of modes.entries()) {
        const before = ctx.cpu();
        const r = await ctx.pool.first.run<ListResult>({ kind: 'list', path: mode.path, ...(mode.limit ? { limit: mode.limit } : {}) });
        const after = ctx.cpu();
        if (r.items !== size) throw new Error(`list ${mode.name} of ${ns}: ${r.items} items, want ${size}`);
        runs[i]!.ms.push(r.ms);
        runs[i]!.cpu.push([before, after]);
        runs[i]!.last = r;
      }
    }
    for (const [i, mode] of modes.entries()) {
      const ms = median(runs[i]!.ms);
      const cpu = coresOver(runs[i]!.cpu);
      const last = runs[i]!.last!;
      const label = `list ${size}, ${mode.name} (ms)`;
      report.line(`${label.padEnd(44)} ${fmtMs(ms).padStart(7)} ms  (${last.pages} page${last.pages === 1 ? '' : 's'}, ${(last.bytes / 1024 / 1024).toFixed(1)} MiB; runs ${runs[i]!.ms.map(fmtMs).join(', ')})  | ${formatCores(cpu)}`);
      report.add({ figure: label, orch: fmtMs(ms), cpu });
    }
  }
}
