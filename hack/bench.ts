// `make bench`: prints throughput, latency and memory figures of a real API server on a real etcd
// (loopback only, bounded in count and time). Figures, not assertions: compare runs by eye or CI log.
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { allGroupVersions } from '../api/index.js';
import { ProtobufCodec } from '../pkg/runtime/protobuf/codec.js';
import { Scheme } from '../pkg/runtime/scheme.js';
import { Etcd3Storage } from '../pkg/storage/etcd3/store.js';
import { jsonStorageCodec } from '../pkg/storage/json-codec.js';
import { WatchHub } from '../pkg/storage/watch-hub.js';
import { startTestServer } from '../test/integration/framework/apiserver.js';
import { Client } from '../test/integration/framework/client.js';
import { fixtures } from '../test/integration/fixtures.js';

const N = Number(process.env.BENCH_OBJECTS ?? 2000);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 200);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const CONCURRENCY = 16;

function report(name: string, value: number, unit: string): void {
  process.stdout.write(`${name.padEnd(48)} ${value.toFixed(unit === 'ms' ? 2 : unit === '%' ? 1 : 0).padStart(10)} ${unit}\n`);
}

async function inParallel(count: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await fn(next++);
  }));
}

async function main(): Promise<void> {
  const t = await startTestServer();
  const c = t.client;
  try {
    const cms = '/api/v1/namespaces/default/configmaps';
    let start = performance.now();
    await inParallel(N, async (i) => {
      const r = await c.post(cms, { metadata: { name: `bench-${i}`, labels: { n: String(i % 10) } }, data: { payload: 'x'.repeat(512) } });
      if (r.status !== 201) throw new Error(r.text);
    });
    let ms = performance.now() - start;
    report(`create ${N} ConfigMaps (${CONCURRENCY} in flight)`, (N / ms) * 1000, 'req/s');

    start = performance.now();
    const all = await c.get(cms);
    report(`list ${all.body.items.length} ConfigMaps (one request)`, performance.now() - start, 'ms');
    start = performance.now();
    let pages = 0;
    for (let token = ''; ; pages++) {
      const page = await c.get(`${cms}?limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      token = page.body.metadata.continue ?? '';
      if (!token) break;
    }
    report(`paged list, limit=500 (${pages + 1} pages)`, performance.now() - start, 'ms');
    start = performance.now();
    await c.get(`${cms}?labelSelector=n%3D3`);
    report('list with a label selector', performance.now() - start, 'ms');
    start = performance.now();
    for (let i = 0; i < 200; i++) await c.get(`${cms}/bench-${i}`);
    report('get, sequential', (performance.now() - start) / 200, 'ms');

    const watches = await Promise.all(Array.from({ length: WATCHERS }, () => c.watch(`${cms}?watch=true&resourceVersion=${all.body.metadata.resourceVersion}`)));
    start = performance.now();
    await c.post(cms, { metadata: { name: 'bench-fanout' } });
    await Promise.all(watches.map(async (w) => {
      for (let e = await w.next(30_000); e && e.object.metadata.name !== 'bench-fanout'; e = await w.next(30_000));
    }));
    report(`one event delivered to ${WATCHERS} watchers`, performance.now() - start, 'ms');
    for (const w of watches) w.close();

    // Many events to many watchers, from the first write until every watcher has every event. The
    // watchers read in a worker thread, as clients elsewhere would, not in the server's event loop.
    const reader = new Worker(new URL(import.meta.url), {
      workerData: { url: c.baseUrl, ca: t.server.cert.cert, path: `${cms}?watch=true&resourceVersion=${(await c.get(`${cms}?limit=1`)).body.metadata.resourceVersion}` },
    });
    const fromReader = (type: string) => new Promise<void>((resolve, reject) => {
      reader.on('message', (m: { type: string; error?: string }) => (m.type === 'error' ? reject(new Error(m.error)) : m.type === type && resolve()));
      reader.once('error', reject);
    });
    await fromReader('ready');
    const delivered = fromReader('done');
    start = performance.now();
    await inParallel(EVENTS, async (i) => {
      const r = await c.post(cms, { metadata: { name: `fan-${i}` } });
      if (r.status !== 201) throw new Error(r.text);
    });
    const writes = performance.now() - start;
    await delivered;
    report(`${EVENTS} events delivered to ${WATCHERS} watchers`, performance.now() - start, 'ms');
    report(`  of which ${EVENTS} creates while they stream`, writes, 'ms');
    await reader.terminate();

    // The same fan-out below HTTP: an etcd watch per watcher (what every watch cost before the
    // watch hub) against the hub's one etcd watch, on the server's etcd.
    const etcd = new Etcd3Storage({ servers: [t.etcd.endpoint], prefix: '/registry', codec: jsonStorageCodec });
    const hub = new WatchHub(etcd);
    for (const [what, storage] of [['one etcd watch per watcher', etcd], ['one etcd watch, fanned out (WatchHub)', hub]] as const) {
      const prefix = `/bench/${storage === hub ? 'hub' : 'direct'}/`;
      const target = WATCHERS * EVENTS;
      let received = 0;
      let failed: Error | undefined;
      let finished!: () => void;
      const all = new Promise<void>((resolve) => (finished = resolve));
      const handlers = {
        event: () => {
          if (++received === target) finished();
        },
        progress: () => undefined,
        error: (e: Error) => {
          failed = e;
          finished();
        },
      };
      const from = await etcd.currentRevision();
      const ws = await Promise.all(Array.from({ length: WATCHERS }, () => storage.watch(prefix, { afterRevision: from, recursive: true }, handlers)));
      start = performance.now();
      await inParallel(EVENTS, async (i) => void (await etcd.create(`${prefix}ns/o-${i}`, { metadata: { name: `o-${i}`, namespace: 'ns' } })));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, 120_000)))]);
      clearTimeout(timer);
      if (failed || received !== target) throw new Error(`${what}: ${received} of ${target} events delivered${failed ? `: ${failed.message}` : ''}`);
      report(`storage: ${EVENTS} events to ${WATCHERS} watches, ${what}`, performance.now() - start, 'ms');
      await Promise.all(ws.map((w) => w.stop()));
    }
    await hub.close();

    const scheme = new Scheme(allGroupVersions);
    const codec = new ProtobufCodec(scheme);
    const sts = scheme.resource('apps', 'v1', 'statefulsets')!;
    const obj = fixtures.find((f) => f.kind === 'StatefulSet')!.make('bench') as Record<string, unknown>;
    const rounds = 5000;
    start = performance.now();
    for (let i = 0; i < rounds; i++) JSON.parse(JSON.stringify(obj));
    ms = performance.now() - start;
    report('StatefulSet JSON encode+decode', (ms / rounds) * 1000, 'µs');
    start = performance.now();
    for (let i = 0; i < rounds; i++) codec.decodeObject(sts, codec.encodeObject(sts, obj));
    ms = performance.now() - start;
    report('StatefulSet protobuf encode+decode', (ms / rounds) * 1000, 'µs');

    await managedFieldsFigures(t);

    const mem = process.memoryUsage();
    report('heap used (test process incl. server)', mem.heapUsed / 1024 / 1024, 'MiB');
    report('rss', mem.rss / 1024 / 1024, 'MiB');
  } finally {
    await t.stop();
  }
}

const MF_OBJECTS = Number(process.env.BENCH_MF_OBJECTS ?? 10_000);

/**
 * What managedFields cost: MF_OBJECTS 1 KiB ConfigMaps (the yardstick object of every figure here)
 * created through the API (each with its one managedFields entry) against the same objects written
 * to etcd without them; the size of the list response and of the stored values of each set, and
 * how much larger the list is with them.
 */
async function managedFieldsFigures(t: Awaited<ReturnType<typeof startTestServer>>): Promise<void> {
  const c = t.client;
  for (const name of ['bench-mf', 'bench-nomf']) {
    const r = await c.post('/api/v1/namespaces', { metadata: { name } });
    if (r.status !== 201) throw new Error(r.text);
  }
  const withPath = '/api/v1/namespaces/bench-mf/configmaps';
  await inParallel(MF_OBJECTS, async (i) => {
    const r = await c.request('POST', `${withPath}?fieldManager=bench`, { body: { metadata: { name: `cm-${i}`, labels: { app: 'bench' } }, data: { key: 'value', other: 'x'.repeat(1024) } } });
    if (r.status !== 201) throw new Error(r.text);
  });
  const etcd = new Etcd3Storage({ servers: [t.etcd.endpoint], prefix: '/registry', codec: jsonStorageCodec });
  try {
    const stored = await etcd.list('/core/configmaps/bench-mf/', {});
    await inParallel(stored.items.length, async (i) => {
      const { managedFields: _m, resourceVersion: _rv, ...metadata } = stored.items[i]!.metadata;
      await etcd.create(`/core/configmaps/bench-nomf/${metadata.name!}`, { ...stored.items[i]!, metadata: { ...metadata, namespace: 'bench-nomf' } });
    });
    const sizes: number[] = [];
    for (const [what, ns] of [['with managedFields', 'bench-mf'], ['without managedFields', 'bench-nomf']] as const) {
      const list = await c.get(`/api/v1/namespaces/${ns}/configmaps`);
      sizes.push(Buffer.byteLength(list.text));
      report(`list of ${list.body.items.length} ConfigMaps ${what}: response`, Buffer.byteLength(list.text), 'bytes');
      const values = await etcd.list(`/core/configmaps/${ns}/`, {});
      const bytes = values.items.reduce((n, o) => n + Buffer.byteLength(jsonStorageCodec.encode(o)), 0);
      report(`  stored values (${values.items.length} in etcd)`, bytes, 'bytes');
    }
    report('  the list is larger with managedFields by', (sizes[0]! / sizes[1]! - 1) * 100, '%');
  } finally {
    await etcd.close();
  }
}

/** The watchers of the fan-out figure, in a worker thread: WATCHERS watches, each read until EVENTS events. */
async function readWatches(opts: { url: string; ca: string; path: string }): Promise<void> {
  const c = new Client(opts.url, opts.ca);
  const watches = await Promise.all(Array.from({ length: WATCHERS }, () => c.watch(opts.path)));
  parentPort!.postMessage({ type: 'ready' });
  await Promise.all(watches.map(async (w) => {
    for (let n = 0; n < EVENTS; n++) if (!(await w.next(60_000))) throw new Error(`a watch ended after ${n} of ${EVENTS} events`);
  }));
  parentPort!.postMessage({ type: 'done' });
  for (const w of watches) w.close();
}

if (isMainThread) {
  main().catch((e: unknown) => {
    process.stderr.write(`bench failed: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
} else {
  readWatches(workerData as { url: string; ca: string; path: string }).catch((e: unknown) =>
    parentPort!.postMessage({ type: 'error', error: e instanceof Error ? e.message : String(e) }));
}
