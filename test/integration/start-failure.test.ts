// A server whose start fails after it has connected to etcd releases everything it opened: the
// process that tried (here a child running the in-process start) ends on its own, instead of being
// kept alive by the etcd client.
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { run } from './framework/process.js';

const dist = resolve(import.meta.dirname, '../..');
const url = (p: string) => pathToFileURL(join(dist, p)).href;

test('a start that fails after connecting to etcd leaves nothing running', async () => {
  const script = `
    import { mkdtempSync } from 'node:fs';
    import { tmpdir } from 'node:os';
    import { join } from 'node:path';
    import { startEtcd } from ${JSON.stringify(url('test/integration/framework/etcd.js'))};
    import { testOptions } from ${JSON.stringify(url('test/integration/framework/apiserver.js'))};
    import { runAPIServer } from ${JSON.stringify(url('cmd/apiserver/app/server.js'))};
    import { Logger } from ${JSON.stringify(url('pkg/log/logger.js'))};
    const etcd = await startEtcd();
    const opts = testOptions(etcd, mkdtempSync(join(tmpdir(), 'orch-start-failure-')), {});
    // Refused once etcd is connected: the authenticators are built after the storage.
    opts.authentication = { ...opts.authentication, serviceAccountKeyFiles: ['/nonexistent/sa.pub'] };
    try {
      await runAPIServer(opts, new Logger(0, () => undefined));
      console.log('started');
    } catch (e) {
      console.log('refused: ' + e.message);
    }
    await etcd.stop();
  `;
  const r = await run(process.execPath, ['--input-type=module', '-e', script], { timeoutMs: 60_000 });
  assert.equal(r.timedOut, false, `the process was kept alive after the failed start:\n${r.describe()}`);
  assert.equal(r.code, 0, r.describe());
  assert.match(r.stdout, /refused: service-account-issuer is a required flag/);
});
