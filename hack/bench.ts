// `make bench`: prints throughput, latency and memory figures of a real API server on a real etcd
// (loopback only, bounded in count and time). Figures, not assertions: compare runs by eye or CI log.
import { performance } from 'node:perf_hooks';
import { allGroupVersions } from '../api/index.js';
import { ProtobufCodec } from '../pkg/runtime/protobuf/codec.js';
import { Scheme } from '../pkg/runtime/scheme.js';
import { startTestServer } from '../test/integration/framework/apiserver.js';
import { fixtures } from '../test/integration/fixtures.js';

const N = Number(process.env.BENCH_OBJECTS ?? 2000);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 200);
const CONCURRENCY = 16;

function report(name: string, value: number, unit: string): void {
  process.stdout.write(`${name.padEnd(48)} ${value.toFixed(unit === 'ms' ? 2 : 0).padStart(10)} ${unit}\n`);
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

    const mem = process.memoryUsage();
    report('heap used (test process incl. server)', mem.heapUsed / 1024 / 1024, 'MiB');
    report('rss', mem.rss / 1024 / 1024, 'MiB');
  } finally {
    await t.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
