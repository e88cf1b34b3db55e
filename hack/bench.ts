// `make bench`: the yardstick of the server's speed and memory. It starts its own etcd and the
// built API server as a separate process, drives it over HTTPS keep-alive from loader threads of
// this process, and prints, for 1 KiB ConfigMaps and beside them a custom resource of the same size:
// creates, gets and updates per second with latency at several client counts beside the same
// operations on raw etcd; then full lists and watch fan-out of ConfigMaps; server memory; and the
// CPU of the server, etcd and the load tool beside every figure, so a reader
// sees what bound it. Figures, never assertions: the run fails only when something breaks.
// Sizes shrink with BENCH_QUICK=1 (see bench/config.ts for each knob).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { ApiClient } from './bench/api-client.js';
import { Cleanup } from './bench/cleanup.js';
import { nowMs, sleep } from './bench/clock.js';
import { startCluster } from './bench/cluster.js';
import { codecFigures } from './bench/codec.js';
import { loadConfig } from './bench/config.js';
import type { BenchContext } from './bench/context.js';
import { crudFigures } from './bench/crud.js';
import { idleWatchFigures } from './bench/idle-watches.js';
import { listFigures } from './bench/lists.js';
import { LoaderPool } from './bench/loader-pool.js';
import { managedFieldsFigures } from './bench/managed-fields.js';
import { CRUD_NAMESPACE } from './bench/protocol.js';
import { cpuSnapshot, RssSampler } from './bench/proc-stats.js';
import { mib, Report } from './bench/report.js';
import { watchFigures } from './bench/watch-fanout.js';

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

function etcdVersion(): string {
  try {
    return /etcd Version: (\S+)/.exec(execFileSync('etcd', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const cleanup = new Cleanup();
  cleanup.onSignals();
  const report = new Report();
  const started = nowMs();
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  let phase = 'starting etcd and the API server';
  // The run is bounded: past the deadline it fails, shows what it measured so far, and stops everything.
  const deadline = setTimeout(() => {
    process.stderr.write(`bench failed: not finished after ${config.deadlineSeconds} s (while ${phase}); the figures so far:\n${report.table()}\n`);
    void cleanup.run().finally(() => process.exit(1));
  }, config.deadlineSeconds * 1000);
  try {
    report.line(`# orch bench ${new Date().toISOString()}${config.quick ? ' (BENCH_QUICK: small sizes, figures not comparable)' : ''}`);
    report.line(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average at start ${loadAverage()}; node ${process.version}, etcd ${etcdVersion()}`);
    report.line(`load tool: ${config.loaders} worker threads of the bench process (pid ${process.pid}), node:https keep-alive agents (maxSockets = clients), raw etcd through one etcd3 client per thread`);

    cluster = await startCluster(cleanup);
    const c = cluster;
    const workers = process.env.BENCH_WORKERS || `default (${availableParallelism()})`;
    report.line(`server: separate process pid ${c.serverPid}, --workers ${workers} (worker threads of the one process) (RBAC, admin token in system:masters), etcd pid ${c.etcd.pid() ?? '?'} at ${c.etcd.endpoint}`);
    const rss = new RssSampler(() => (c.serverAlive() ? c.serverPid : undefined), config.rssSampleMs);
    // Idle: after start, once the post-start work has settled.
    await sleep(1000);
    const idle = rss.sample();
    rss.section();
    rss.start();
    const sectionPeaks: string[] = [];

    const api = new ApiClient(c.target, Math.max(16, config.watchCreateClients));
    cleanup.add('the main client', () => api.close());
    await api.ok('POST', '/api/v1/namespaces', Buffer.from(JSON.stringify({ metadata: { name: CRUD_NAMESPACE } })));
    const pool = new LoaderPool(config.loaders, { target: c.target, etcdEndpoint: c.etcd.endpoint }, cleanup);
    await pool.ready();
    const ctx: BenchContext = {
      config,
      cluster: c,
      pool,
      api,
      report,
      cpu: () => cpuSnapshot({ server: c.serverPid, etcd: c.etcd.pid() ?? -1, load: process.pid }, nowMs()),
    };

    for (const [section, what, figures] of [['crud', 'measuring creates, gets and updates', crudFigures], ['lists', 'measuring lists', listFigures], ['watch', 'measuring watch fan-out', watchFigures], ['mf', 'measuring managedFields', managedFieldsFigures]] as const) {
      if (!config.only.has(section)) continue;
      phase = what;
      await figures(ctx);
      const p = rss.section();
      sectionPeaks.push(`${section} ${mib(p.rss)} / ${mib(p.pss)}`);
    }
    phase = 'stopping';

    rss.stop();
    rss.sample();
    const peak = Math.max(rss.peakRss, rss.peakHwm);
    report.line(`\n## server memory (summed over the server's processes)\nRSS idle ${mib(idle?.rss ?? 0)} MiB, peak ${mib(peak)} MiB (VmRSS sampled every ${config.rssSampleMs} ms, and VmHWM)`);
    report.line(`PSS idle ${mib(idle?.pss ?? 0)} MiB, peak ${mib(rss.peakPss)} MiB (sampled every ${config.rssSampleMs} ms; RSS counts pages the processes share once per process, PSS shares them out)`);
    report.line(`peak RSS / PSS while measuring (MiB): ${sectionPeaks.join(', ')}`);
    report.add({ figure: 'server RSS idle (MiB)', orch: mib(idle?.rss ?? 0) });
    report.add({ figure: 'server RSS peak (MiB)', orch: mib(peak) });
    report.add({ figure: 'server PSS idle (MiB)', orch: mib(idle?.pss ?? 0) });
    report.add({ figure: 'server PSS peak (MiB)', orch: mib(rss.peakPss) });
    // Last, and outside the peak above: 10,000 idle watches are a memory figure of their own.
    if (config.only.has('watch')) {
      phase = 'measuring idle watches';
      await idleWatchFigures(ctx);
    }

    await cleanup.run();
    if (config.only.has('codec')) codecFigures(report, config.codecRounds);

    report.line(`\nload average at end ${loadAverage()}; the run took ${((nowMs() - started) / 1000).toFixed(0)} s\n`);
    report.line(report.table());
  } catch (e) {
    if (cluster && !cluster.serverAlive()) process.stderr.write(`the API server is gone; its last lines:\n${cluster.serverLog()}\n`);
    throw e;
  } finally {
    clearTimeout(deadline);
    await cleanup.run();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exit(1);
});
