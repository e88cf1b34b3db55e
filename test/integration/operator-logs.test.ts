// What an operator reads in the API server's log: klog-style structured lines for start-up and
// shutdown, etcd connectivity lost and regained, watches losing and resuming their stream, every
// 5xx answer (verb, path, user agent, error) and slow requests; never a credential.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';

/**
 * klog's header (level, mmdd, local time to the microsecond, the pid in seven columns, the calling
 * .ts file and line), then structured text: the quoted message and key="value" pairs.
 */
const klogLine = /^[IWE]\d{4} \d\d:\d\d:\d\d\.\d{6} [ \d]{7} [\w.-]+\.ts:\d+\] "(?:[^"\\]|\\.)*"(?: [A-Za-z]+=(?:"(?:[^"\\]|\\.)*"|[^ ]+))*\n$/;

async function waitForLog(t: TestServer, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = t.logs.find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > deadline) assert.fail(`no log line matches ${pattern}:\n${t.logs.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('operator logs', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('start-up steps are logged as structured lines', async () => {
    for (const step of [/"starting the API server".* apiDomain="orch\.io"/, /"connected to etcd"/, /"serving securely"/, /"the API server is ready"/]) {
      await waitForLog(t, step);
    }
    for (const line of t.logs) assert.match(line, klogLine);
  });

  test('slow requests are noted with verb, path, user agent and latency', async () => {
    // A list at a revision etcd reaches only ~0.7 s later waits for it, then answers 200.
    const list = await t.client.get('/api/v1/namespaces/default/configmaps');
    const next = Number(list.body.metadata.resourceVersion) + 1;
    const slow = t.client.get(`/api/v1/namespaces/default/configmaps?resourceVersion=${next}`, { headers: { 'User-Agent': 'slow-test/1.0' } });
    await new Promise((r) => setTimeout(r, 700));
    await t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'wake' } });
    assert.equal((await slow).status, 200);
    const line = await waitForLog(t, /"slow request"/);
    assert.match(line, /^W/);
    assert.match(line, /verb="LIST" path="\/api\/v1\/namespaces\/default\/configmaps" userAgent="slow-test\/1\.0" status=200 latency="\d+\.\dms"/);
  });

  test('an etcd outage: connectivity lost and regained, watches resuming, every 5xx answer; no token is logged', async () => {
    const w = await t.client.watch('/api/v1/namespaces/default/configmaps?watch=true');
    await t.etcd.pause();
    try {
      const r = await t.client.get('/api/v1/namespaces/default/configmaps/wake', { headers: { 'User-Agent': 'outage-test/2.0', Authorization: 'Bearer sup3r-s3cret-t0ken' } });
      assert.ok(r.status === 503 || r.status === 504, r.text);
      const lost = await waitForLog(t, /"lost the connection to etcd/);
      assert.match(lost, /^E/);
      assert.match(lost, / servers="http:\/\/127\.0\.0\.1:\d+" err="/);
      const failed = await waitForLog(t, /"request failed with a server error".*userAgent="outage-test\/2\.0"/);
      assert.match(failed, /^E.* verb="GET" path="\/api\/v1\/namespaces\/default\/configmaps\/wake" userAgent="outage-test\/2\.0" status=50[34] latency="[\d.]+ms" err="[^"]+"/);
      await waitForLog(t, /"an etcd watch lost its stream; it resumes from its last revision" prefix="\/core\/configmaps\/"/);
    } finally {
      await t.etcd.resume();
    }
    const deadline = Date.now() + 20_000;
    while ((await t.client.get('/api/v1/namespaces/default/configmaps/wake')).status !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await waitForLog(t, /^I.*"the connection to etcd is back" servers="[^"]+" outage="\d+\.\ds"/);
    await waitForLog(t, /"an etcd watch resumed" prefix="\/core\/configmaps\/" revision=\d+/);
    w.close();
    assert.ok(!t.logs.some((l) => l.includes('sup3r-s3cret-t0ken')), 'the bearer token never reaches the log');
  });

  test('shutdown steps are logged', async () => {
    await t.restart();
    assert.ok(t.logs.some((l) => /"stopped accepting connections; closing watches and draining in-flight requests"/.test(l)));
    assert.ok(t.logs.some((l) => /"the API server stopped"/.test(l)));
    await waitForLog(t, /"the API server is ready"/);
  });
});
