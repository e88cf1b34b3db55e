// `make bench-etcd-hang`: what clients see when etcd hangs (SIGSTOP) for 10 s and for 40 s, through
// the real server under load (see test/integration/framework/etcd-hang-load.ts): how soon the server
// knew, the longest wait of a fresh client, the time from the resume to the first write that went
// through and to /readyz 200, and the 5xx after the resume. Figures, never assertions; about 2 minutes.
// ETCD_HANG_SECONDS=10,40 picks the hangs.
import { startTestServer } from '../test/integration/framework/apiserver.js';
import { describeHang, measureHang } from '../test/integration/framework/etcd-hang-load.js';

async function main(): Promise<void> {
  const hangs = (process.env.ETCD_HANG_SECONDS ?? '10,40').split(',').map((s) => Number(s.trim()) * 1000);
  for (const hangMs of hangs) {
    // A server and etcd of its own per hang, so one hang's leftovers never colour the next.
    const t = await startTestServer({}, { inProcess: true });
    try {
      console.log(describeHang(await measureHang(t, hangMs)));
    } finally {
      await t.stop();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
