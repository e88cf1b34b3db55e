// `make bench` (hack/bench.ts) end to end, at small sizes: it starts its own etcd and the built API
// server, drives them over HTTPS, and prints every figure the yardstick promises (issue 15, Part
// 1; the custom-resource rows of issue 29) beside raw etcd and the CPU of each process. What the
// figures are is the bench's to show; this test holds that the run completes on this machine and
// that none of them is missing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const bench = fileURLToPath(new URL('../../hack/bench.js', import.meta.url));

/** Runs the bench to its end; its output and exit code. */
function runBench(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    // Only the settings given here: none of the caller's own BENCH_ ones (BENCH_ONLY would drop figures).
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BENCH_')));
    const p = spawn(process.execPath, [bench], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) => resolve({ code, out }));
  });
}

/** The final table's rows by figure name: the cells after the name (orch, raw etcd, ratio, CPU, CPU). */
function tableRows(out: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of out.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| figure')) continue;
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    rows.set(cells[0]!, cells.slice(1));
  }
  return rows;
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const PAIR = /^\d+(\.\d+)? \/ \d+(\.\d+)?$/;
const CORES = /^\d+\.\d\d \/ \d+\.\d\d \/ \d+\.\d\d$/;

test('make bench runs end to end and prints every figure, beside raw etcd and the CPU of each process', { timeout: 300_000 }, async () => {
  const { code, out } = await runBench({
    BENCH_QUICK: '1',
    BENCH_LIST_SIZES: '100,1000',
    BENCH_WATCHERS: '10,100',
    BENCH_IDLE_WATCHES: '200',
    // Beside the rest of the suite the run is slower than alone.
    BENCH_DEADLINE_SECONDS: '280',
  });
  assert.equal(code, 0, out.slice(-4000));
  assert.match(out, /^machine: \d+ cores .*load average at start [\d.]+ [\d.]+ [\d.]+/m);
  assert.match(out, /^load average at end [\d.]+ [\d.]+ [\d.]+; the run took \d+ s/m);
  assert.match(out, /^server: separate process pid \d+, --workers /m);
  const rows = tableRows(out);
  const row = (figure: string) => {
    const r = rows.get(figure);
    assert.ok(r, `the table has "${figure}"; it has: ${[...rows.keys()].join('; ')}`);
    return r;
  };

  // ConfigMaps, and beside them a custom resource of the same size through its definition's schema.
  for (const resource of ['', 'custom resource ']) {
    for (const [op, one] of [['creates', 'create'], ['gets', 'get'], ['updates', 'update']] as const) {
      for (const clients of [1, 16, 64]) {
        const n = `${clients} client${clients === 1 ? '' : 's'}`;
        const [orch, etcd, ratio, cpu, etcdCpu] = row(`${resource}${op}/s, ${n}`);
        assert.match(orch!, NUMBER, `${resource}${op} at ${n}`);
        assert.ok(Number(orch) > 0, `${resource}${op} at ${n}: ${orch}/s`);
        assert.ok(Number(etcd) > 0, `raw etcd ${resource}${op} at ${n}: ${etcd}/s`);
        assert.match(ratio!, NUMBER);
        assert.match(cpu!, CORES);
        assert.match(etcdCpu!, CORES);
        const [latency, etcdLatency] = row(`${resource}${one} p50 / p99 (ms), ${n}`);
        assert.match(latency!, PAIR);
        assert.match(etcdLatency!, PAIR);
      }
    }
  }
  for (const size of [100, 1000]) {
    for (const how of ['resourceVersion unset', 'resourceVersion=0', 'paged by limit=500']) {
      const [orch, etcd, , cpu] = row(`list ${size}, ${how} (ms)`);
      assert.match(orch!, NUMBER);
      assert.match(etcd!, NUMBER);
      assert.match(cpu!, CORES);
    }
  }
  for (const watchers of [10, 100]) {
    const [latency, , , cpu] = row(`${watchers} watchers x 50 creates: create-to-last-watcher p50 / p99 (ms)`);
    assert.match(latency!, PAIR);
    assert.match(cpu!, CORES);
    assert.match(row(`${watchers} watchers x 50 creates: until all have all (ms)`)[0]!, NUMBER);
  }
  for (const figure of ['server RSS idle (MiB)', 'server RSS peak (MiB)', 'server PSS idle (MiB)', 'server PSS peak (MiB)']) {
    assert.ok(Number(row(figure)[0]) > 0, `${figure}: ${row(figure)[0]}`);
  }
  assert.match(out, /^peak RSS \/ PSS while measuring \(MiB\): crud \d+ \/ \d+, lists \d+ \/ \d+, watch \d+ \/ \d+, mf \d+ \/ \d+$/m);
  assert.match(row('RSS per idle watch (200 watches, KiB)')[0]!, NUMBER);
});
