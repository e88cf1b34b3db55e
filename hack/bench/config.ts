// The sizes of one bench run. The defaults make the full yardstick (bounded under 5 minutes on 2
// cores); BENCH_QUICK=1 shrinks every size so a developer on a shared machine can try a change in
// well under a minute, and each size can be set on its own.

function fail(name: string, raw: string, want: string): never {
  throw new Error(`${name}=${JSON.stringify(raw)}: want ${want}`);
}

function positiveInt(name: string, full: number, quick: number, isQuick: boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return isQuick ? quick : full;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) fail(name, raw, 'a positive integer');
  return n;
}

function intList(name: string, full: number[], quick: number[], isQuick: boolean): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return isQuick ? quick : full;
  const ns = raw.split(',').map((s) => Number(s.trim()));
  if (ns.length === 0 || ns.some((n) => !Number.isInteger(n) || n <= 0)) fail(name, raw, 'comma-separated positive integers');
  return ns;
}

export const sections = ['crud', 'lists', 'watch', 'mf', 'codec'] as const;
export type Section = (typeof sections)[number];

export interface BenchConfig {
  quick: boolean;
  /** The groups of figures to run (BENCH_ONLY=watch,lists), all by default. */
  only: Set<Section>;
  /** Measured seconds of each create/get/update cell. */
  cellSeconds: number;
  /** Measured seconds of each custom-resource cell: shorter, so the rows beside the ConfigMaps' keep the run in its budget. */
  crCellSeconds: number;
  /** Unmeasured run before each cell, so connections are open and the JIT warm when timing starts. */
  warmupMs: number;
  /** Unmeasured creates, gets and updates each before the first cell, so the server's JIT is warm (as a long-running server's is). */
  serverWarmupMs: number;
  /** Concurrent clients of the create/get/update cells. */
  clients: number[];
  /** Worker threads generating load, each with its own event loop and keep-alive agent. */
  loaders: number;
  /** Object counts of the full-list figures. */
  listSizes: number[];
  /** Runs of each list figure; the median is printed. */
  listRuns: number;
  pageLimit: number;
  /** Watcher counts of the fan-out figures. */
  watchers: number[];
  /** Creates each fan-out round delivers to every watcher. */
  watchEvents: number;
  /**
   * Clients sending those creates. 16, as the figures of issue 15 were taken (a burst builds the
   * backlog a slow fan-out shows); 1 sends each once the previous one answered.
   */
  watchCreateClients: number;
  /** Watches of the idle-watch memory figure. */
  idleWatches: number;
  /** Longest wait for every watcher to have every event before the run fails. */
  watchTimeoutMs: number;
  /** ConfigMaps of the managedFields size figure. */
  mfObjects: number;
  /** Rounds of the in-process codec figures. */
  codecRounds: number;
  /** Interval of the server memory sampler. */
  rssSampleMs: number;
  /** The whole run is abandoned (and everything stopped) past this. */
  deadlineSeconds: number;
  /**
   * BENCH_PROFILE_WINDOWS: a file the crud figures write their measured windows of the server to
   * (label create/get/update, `custom resource create` and so on, monotonic ms), for slicing a
   * server profile with profile-top.js.
   */
  profileWindows: string | undefined;
}

export function loadConfig(): BenchConfig {
  const quick = process.env.BENCH_QUICK === '1';
  const only = (process.env.BENCH_ONLY ?? '').split(',').map((x) => x.trim()).filter((x) => x !== '');
  for (const x of only) if (!(sections as readonly string[]).includes(x)) fail('BENCH_ONLY', process.env.BENCH_ONLY!, `a comma-separated subset of ${sections.join(',')}`);
  return {
    quick,
    only: new Set((only.length ? only : sections) as Section[]),
    cellSeconds: positiveInt('BENCH_SECONDS', 3, 1, quick),
    crCellSeconds: positiveInt('BENCH_CR_SECONDS', 1, 1, quick),
    warmupMs: positiveInt('BENCH_WARMUP_MS', 500, 200, quick),
    serverWarmupMs: positiveInt('BENCH_SERVER_WARMUP_MS', 2000, 500, quick),
    clients: intList('BENCH_CLIENTS', [1, 16, 64], [1, 16, 64], quick),
    loaders: positiveInt('BENCH_LOADERS', 2, 2, quick),
    listSizes: intList('BENCH_LIST_SIZES', [1000, 10_000], [100, 1000], quick),
    listRuns: positiveInt('BENCH_LIST_RUNS', 3, 3, quick),
    pageLimit: positiveInt('BENCH_PAGE_LIMIT', 500, 500, quick),
    watchers: intList('BENCH_WATCHERS', [100, 1000], [10, 100], quick),
    watchEvents: positiveInt('BENCH_WATCH_EVENTS', 200, 50, quick),
    watchCreateClients: positiveInt('BENCH_WATCH_CREATE_CLIENTS', 16, 16, quick),
    idleWatches: positiveInt('BENCH_IDLE_WATCHES', 10_000, 1000, quick),
    watchTimeoutMs: positiveInt('BENCH_WATCH_TIMEOUT_MS', 60_000, 30_000, quick),
    mfObjects: positiveInt('BENCH_MF_OBJECTS', 1000, 200, quick),
    codecRounds: positiveInt('BENCH_CODEC_ROUNDS', 5000, 500, quick),
    rssSampleMs: positiveInt('BENCH_RSS_SAMPLE_MS', 150, 150, quick),
    deadlineSeconds: positiveInt('BENCH_DEADLINE_SECONDS', 295, 120, quick),
    profileWindows: process.env.BENCH_PROFILE_WINDOWS || undefined,
  };
}
