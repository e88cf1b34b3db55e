// Full lists of a namespace of N 1 KiB ConfigMaps, three ways: a consistent read (resourceVersion
// unset), resourceVersion=0 (any state the server holds, what a watch cache serves from memory), and
// paged by `limit`; each beside the same read straight from etcd. Modes alternate within each round
// so a drifting machine load hits all alike.
import { nowMs } from './clock.js';
import type { BenchContext } from './context.js';
import { configMapsPath } from './api-client.js';
import type { ListResult, Task } from './protocol.js';
import { coresOver, formatCores, type CpuSnapshot } from './proc-stats.js';
import { fmtMs, fmtRatio } from './report.js';
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
    // The server's keys of the namespace (ARCHITECTURE section 3), read raw for the etcd figures.
    const prefix = `/registry/core/configmaps/${ns}/`;
    const modes: { name: string; orch: Task; etcd: Task }[] = [
      { name: 'resourceVersion unset', orch: { kind: 'list', path }, etcd: { kind: 'etcd-list', prefix } },
      { name: 'resourceVersion=0', orch: { kind: 'list', path: `${path}?resourceVersion=0` }, etcd: { kind: 'etcd-list', prefix, serializable: true } },
      { name: `paged by limit=${config.pageLimit}`, orch: { kind: 'list', path, limit: config.pageLimit }, etcd: { kind: 'etcd-list', prefix, limit: config.pageLimit } },
    ];
    const sample = () => ({ ms: [] as number[], cpu: [] as [CpuSnapshot, CpuSnapshot][], last: undefined as ListResult | undefined });
    const runs = modes.map(() => ({ orch: sample(), etcd: sample() }));
    for (let round = 0; round < config.listRuns; round++) {
      for (const [i, mode] of modes.entries()) {
        for (const backend of ['orch', 'etcd'] as const) {
          const before = ctx.cpu();
          const r = await ctx.pool.first.run<ListResult>(mode[backend]);
          const after = ctx.cpu();
          if (r.items !== size) throw new Error(`${backend} list ${mode.name} of ${ns}: ${r.items} items, want ${size}`);
          const s = runs[i]![backend];
          s.ms.push(r.ms);
          s.cpu.push([before, after]);
          s.last = r;
        }
      }
    }
    for (const [i, mode] of modes.entries()) {
      const label = `list ${size}, ${mode.name} (ms)`;
      const figures = { orch: median(runs[i]!.orch.ms), etcd: median(runs[i]!.etcd.ms) };
      for (const backend of ['orch', 'etcd'] as const) {
        const s = runs[i]![backend];
        const last = s.last!;
        report.line(`${label.padEnd(40)} ${(backend === 'orch' ? 'orch' : 'raw etcd').padEnd(8)} ${fmtMs(figures[backend]).padStart(7)} ms  (${last.pages} page${last.pages === 1 ? '' : 's'}, ${(last.bytes / 1024 / 1024).toFixed(1)} MiB; runs ${s.ms.map(fmtMs).join(', ')})  | ${formatCores(coresOver(s.cpu))}`);
      }
      report.add({ figure: label, orch: fmtMs(figures.orch), etcd: fmtMs(figures.etcd), ratio: fmtRatio(figures.orch / figures.etcd), cpu: coresOver(runs[i]!.orch.cpu), etcdCpu: coresOver(runs[i]!.etcd.cpu) });
    }
  }
}
