// Creates, gets and updates of 1 KiB ConfigMaps per second at each client count, through the server
// and, right after each, the same operation straight against etcd through the etcd3 client: the
// ratio says how much of etcd's own speed the server keeps. Beside each ConfigMap cell, the same
// cell on a custom resource carrying the same payload (custom-resource.ts), whose writes go
// through its definition's structural schema.
import { nowMs } from './clock.js';
import type { BenchContext } from './context.js';
import { establishBenchItems } from './custom-resource.js';
import type { Backend, CrudResult, Op, Resource } from './protocol.js';
import { writeFileSync } from 'node:fs';
import type { ProfileWindow } from './profile-top.js';
import { coresBetween, formatCores, type CpuSnapshot, type Roles } from './proc-stats.js';
import { fmtMs, fmtRate, fmtRatio } from './report.js';
import { quantile } from './stats.js';

interface CellResult {
  perSecond: number;
  p50: number;
  p99: number;
  cpu: Roles;
}

const opNames: Record<Op, string> = { create: 'creates', get: 'gets', update: 'updates' };
const ops = ['create', 'get', 'update'] as const;
/** What the figures of each resource are called: ConfigMaps' by the operation alone, as before custom resources had rows. */
const resourcePrefix: Record<Resource, string> = { configmap: '', 'custom-resource': 'custom resource ' };
const resources = Object.keys(resourcePrefix) as Resource[];

/** The longest wait for the custom resources' definition to be Established. */
const establishTimeoutMs = 30_000;

/** The measured windows of the server's cells, for BENCH_PROFILE_WINDOWS. */
const windows: ProfileWindow[] = [];

function cellSeconds(ctx: BenchContext, resource: Resource): number {
  return resource === 'configmap' ? ctx.config.cellSeconds : ctx.config.crCellSeconds;
}

async function cell(ctx: BenchContext, backend: Backend, resource: Resource, op: Op, clients: number, warmupMs = ctx.config.warmupMs, measureMs = cellSeconds(ctx, resource) * 1000): Promise<CellResult> {
  // A common start on the shared clock, so every thread's window is the same window.
  const startAt = nowMs() + 50;
  const measureFrom = startAt + warmupMs;
  const snapshotAt = (at: number) => new Promise<CpuSnapshot>((resolve) => setTimeout(() => resolve(ctx.cpu()), Math.max(0, at - nowMs())));
  const snapshots = Promise.all([snapshotAt(measureFrom), snapshotAt(measureFrom + measureMs)]);
  const results = await Promise.all(ctx.pool.split(clients).map(({ loader, share }) =>
    loader.run<CrudResult>({ kind: 'crud', backend, resource, op, clients: share, startAt, warmupMs, measureMs })));
  const [from, to] = await snapshots;
  if (backend === 'orch' && measureMs > 1) windows.push({ label: resourcePrefix[resource] + op, fromMs: measureFrom, toMs: measureFrom + measureMs });
  const latencies = new Float64Array(results.reduce((n, r) => n + r.count, 0));
  let at = 0;
  for (const r of results) {
    latencies.set(r.latenciesMs, at);
    at += r.count;
  }
  return { perSecond: latencies.length / (measureMs / 1000), p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), cpu: coresBetween(from, to) };
}

export async function crudFigures(ctx: BenchContext): Promise<void> {
  const { report, config } = ctx;
  await establishBenchItems(ctx.api, establishTimeoutMs);
  // A fresh server runs cold code; the first cell would measure the JIT rather than the server. The
  // custom resources' own code (their schema) is warmed shorter: the rest of their way is warm by then.
  for (const resource of resources) {
    for (const op of ops) await cell(ctx, 'orch', resource, op, 16, resource === 'configmap' ? config.serverWarmupMs : config.warmupMs, 1);
  }
  report.line(`\n## create / get / update of 1 KiB ConfigMaps (${config.cellSeconds} s measured per cell after ${config.warmupMs} ms warm-up; the server was warmed by ${config.serverWarmupMs} ms each of creates, gets and updates)`);
  report.line(`and of custom resources with the same 1 KiB in their spec, through a structural schema with defaults and bounds (${config.crCellSeconds} s measured per cell after ${config.warmupMs} ms warm-up; warmed by ${config.warmupMs} ms of each)`);
  for (const op of ops) {
    for (const clients of config.clients) {
      const n = `${clients} client${clients === 1 ? '' : 's'}`;
      let configMapRate = NaN;
      for (const resource of resources) {
        const orch = await cell(ctx, 'orch', resource, op, clients);
        const raw = await cell(ctx, 'etcd', resource, op, clients);
        const label = `${resourcePrefix[resource]}${opNames[op]}/s, ${n}`;
        const show = (who: string, r: CellResult, note = '') =>
          report.line(`${label.padEnd(38)} ${who.padEnd(8)} ${fmtRate(r.perSecond).padStart(7)}/s  p50 ${fmtMs(r.p50).padStart(6)} ms  p99 ${fmtMs(r.p99).padStart(6)} ms  | ${formatCores(r.cpu)}${note}`);
        if (resource === 'configmap') configMapRate = orch.perSecond;
        show('orch', orch, resource === 'configmap' ? '' : `  (${fmtRatio(orch.perSecond / configMapRate)} x the ConfigMaps' rate)`);
        show('raw etcd', raw);
        report.add({ figure: label, orch: fmtRate(orch.perSecond), etcd: fmtRate(raw.perSecond), ratio: fmtRatio(orch.perSecond / raw.perSecond), cpu: orch.cpu, etcdCpu: raw.cpu });
        report.add({ figure: `  ${resourcePrefix[resource]}${op} p50 / p99 (ms), ${n}`, orch: `${fmtMs(orch.p50)} / ${fmtMs(orch.p99)}`, etcd: `${fmtMs(raw.p50)} / ${fmtMs(raw.p99)}`, ratio: `${fmtRatio(orch.p50 / raw.p50)} / ${fmtRatio(orch.p99 / raw.p99)}`, cpu: orch.cpu, etcdCpu: raw.cpu });
      }
    }
  }
  if (config.profileWindows) writeFileSync(config.profileWindows, JSON.stringify(windows));
}
