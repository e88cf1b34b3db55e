// What clients see when etcd hangs (SIGSTOP) under load, measured through the real server: writers
// creating ConfigMaps back to back, and a fresh client (a new connection) creating one and reading
// one every half second. The figures, never assertions: tests and hack/etcd-hang.ts judge them.
import type { Client } from './client.js';
import type { TestServer } from './apiserver.js';

export interface HangFigures {
  hangMs: number;
  /** From the freeze to the first answer that said etcd does not answer (503 or a failing /readyz). */
  detectedMs: number;
  /** The longest wait of a fresh client's create and read sent after the server knew, during the hang. */
  longestWaitKnownMs: { create: number; read: number };
  /** The same for those sent before it knew (a create out at etcd waits for it, up to its 34 s deadline). */
  longestWaitUnknownMs: { create: number; read: number };
  /** What requests sent during the hang were answered, by status. */
  duringHang: Record<number, number>;
  /** From the thaw to the first create answered 201 that was sent after it. */
  resumeToWriteMs: number;
  /** From the thaw to the server's log line saying the connection to etcd is back (its probe answered). */
  resumeToProbeMs: number;
  /** From the thaw to the first /readyz answered 200 that was asked after it. */
  resumeToReadyMs: number;
  /** 5xx answers to requests sent after the thaw (the goal is none). */
  errorsAfterResume: number;
  /** Requests sent after the thaw. */
  sentAfterResume: number;
}

interface Sent {
  at: number;
  ms: number;
  status: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When a klog line of today was written (its hh:mm:ss.uuuuuu, local time), as Date.now() counts. */
function loggedAt(line: string): number {
  const m = /^[IWE]\d{4} (\d\d):(\d\d):(\d\d)\.(\d{6})/.exec(line);
  if (!m) return NaN;
  const d = new Date();
  d.setHours(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]) / 1000);
  return d.getTime();
}

/** Freezes `t`'s etcd for `hangMs` under the load described above and measures what clients saw. */
export async function measureHang(t: TestServer, hangMs: number, opts: { writers?: number; namespace?: string } = {}): Promise<HangFigures> {
  const c: Client = t.client;
  const path = `/api/v1/namespaces/${opts.namespace ?? 'default'}/configmaps`;
  const sent: Sent[] = [];
  const fresh: { kind: 'create' | 'read'; at: number; ms: number; status: number }[] = [];
  let n = 0;
  const timed = async (kind: 'create' | 'read'): Promise<Sent> => {
    const at = performance.now();
    const r = kind === 'create'
      ? await c.post(path, { metadata: { name: `hang-${hangMs}-${n++}` }, data: { v: 'x'.repeat(256) } })
      : await c.get(`${path}/hang-probe`);
    const s = { at, ms: performance.now() - at, status: r.status };
    sent.push(s);
    return s;
  };
  await c.post(path, { metadata: { name: 'hang-probe' } });
  let running = true;
  const writers = Array.from({ length: opts.writers ?? 16 }, async () => {
    while (running) {
      const s = await timed('create').catch(() => undefined);
      // A refused writer comes back soon, as a client honouring Retry-After would (sooner: more samples).
      if (!s || s.status >= 500) await sleep(100);
    }
  });
  await sleep(500);
  const frozenAt = performance.now();
  t.etcd.freeze();
  let thawedAt = Infinity;
  let detectedAt = Infinity;
  const readyz = async () => {
    for (;;) {
      const asked = performance.now();
      const r = await c.get('/readyz').catch(() => undefined);
      if (r?.status === 500 && detectedAt === Infinity && asked >= frozenAt) detectedAt = performance.now();
      if (r?.status === 200 && asked >= thawedAt) return performance.now();
      await sleep(20);
    }
  };
  const ready = readyz();
  const clients: Promise<void>[] = [];
  const tick = setInterval(() => {
    for (const kind of ['create', 'read'] as const) {
      clients.push(timed(kind).then((s) => void fresh.push({ kind, ...s }), () => undefined));
    }
  }, 500);
  await sleep(hangMs);
  const logsBefore = t.logs.length;
  t.etcd.thaw();
  thawedAt = performance.now();
  const thawedAtWall = Date.now();
  // The first create sent after the thaw that succeeds: tried every 10 ms on a fresh connection.
  let resumeToWriteMs = NaN;
  while (performance.now() - thawedAt < 30_000) {
    const s = await timed('create');
    if (s.status === 201) {
      resumeToWriteMs = s.at + s.ms - thawedAt;
      break;
    }
    await sleep(10);
  }
  const readyAt = await ready;
  clearInterval(tick);
  await sleep(1000);
  running = false;
  await Promise.all([...writers, ...clients]);
  for (const s of sent) if (s.status === 503 && s.at >= frozenAt && s.at < thawedAt) detectedAt = Math.min(detectedAt, s.at + s.ms);
  const longest = (known: boolean, kind: 'create' | 'read') => Math.max(0, ...fresh
    .filter((f) => f.kind === kind && f.at >= frozenAt && f.at < thawedAt && (f.at >= detectedAt) === known)
    .map((f) => f.ms));
  const duringHang: Record<number, number> = {};
  for (const s of sent) if (s.at >= frozenAt && s.at < thawedAt) duringHang[s.status] = (duringHang[s.status] ?? 0) + 1;
  const afterResume = sent.filter((s) => s.at >= thawedAt);
  const back = t.logs.slice(Math.max(0, logsBefore - 50)).find((l) => l.includes('the connection to etcd is back') && loggedAt(l) >= thawedAtWall - 1);
  return {
    hangMs,
    detectedMs: detectedAt - frozenAt,
    longestWaitKnownMs: { create: longest(true, 'create'), read: longest(true, 'read') },
    longestWaitUnknownMs: { create: longest(false, 'create'), read: longest(false, 'read') },
    duringHang,
    resumeToWriteMs,
    resumeToProbeMs: back ? loggedAt(back) - thawedAtWall : NaN,
    resumeToReadyMs: readyAt - thawedAt,
    errorsAfterResume: afterResume.filter((s) => s.status >= 500).length,
    sentAfterResume: afterResume.length,
  };
}

/** The figures as lines for a person. */
export function describeHang(f: HangFigures): string {
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  return [
    `etcd hung for ${f.hangMs / 1000} s:`,
    `  the server knew after ${ms(f.detectedMs)} (first 503 or failing /readyz)`,
    `  longest wait of a fresh client sent after that: create ${ms(f.longestWaitKnownMs.create)}, read ${ms(f.longestWaitKnownMs.read)}`,
    `  longest wait of a fresh client sent before that: create ${ms(f.longestWaitUnknownMs.create)}, read ${ms(f.longestWaitUnknownMs.read)}`,
    `  answers to requests sent during the hang: ${Object.entries(f.duringHang).map(([s, k]) => `${k} x ${s}`).join(', ')}`,
    `  resume to the server's probe answered: ${ms(f.resumeToProbeMs)}; to the first successful write: ${ms(f.resumeToWriteMs)}; to /readyz 200: ${ms(f.resumeToReadyMs)}`,
    `  5xx after resume: ${f.errorsAfterResume} of ${f.sentAfterResume} requests`,
  ].join('\n');
}
