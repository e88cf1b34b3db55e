// What an operator reads in the API server's log: klog's lines for start-up and shutdown, etcd
// connectivity lost and regained, watches losing and resuming their stream, every 5xx answer (verb,
// path, user agent, error) and slow requests; and, from the built binary's stderr, each webhook call
// that fails open or closed and each denial in upstream's words, each request refused before any
// handler, and TLS handshake failures at --v=5; never a credential.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createConfiguration, denied, startAdmissionWebhookServer, type AdmissionWebhookServer } from './framework/admission-webhook.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { startBinaryServer, type BinaryServer } from './framework/binary-server.js';
import { RawConnection } from './framework/raw-http.js';

/**
 * klog's header (level, mmdd, local time to the microsecond, the pid in seven columns, the calling
 * .ts file and line), then structured text: the quoted message and key="value" pairs.
 */
const klogHeader = String.raw`^[IWE]\d{4} \d\d:\d\d:\d\d\.\d{6} [ \d]{7} [\w.-]+\.ts:\d+\] `;
const klogLine = new RegExp(String.raw`${klogHeader}"(?:[^"\\]|\\.)*"(?: [A-Za-z]+=(?:"(?:[^"\\]|\\.)*"|[^ ]+))*\n$`);
/** The lines upstream words as text (klog's Infof/Warningf) rather than structured. */
const upstreamText = new RegExp(String.raw`${klogHeader}(?:Failed calling webhook, failing (?:open|closed) |rejected by webhook "|http: TLS handshake error from )[^\n]*\n$`);

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

describe('events logged by the built binary, once each, in upstream\'s words', () => {
  let b: BinaryServer;
  let hooks: AdmissionWebhookServer;
  let dir: string;
  /** A port nothing listens on: calls to it fail at once. */
  let closedPort: number;
  const domain = 'orch.io';
  const ns = 'logged';

  before(async () => {
    hooks = await startAdmissionWebhookServer();
    hooks.on('/deny', denied({ message: 'nope', code: 403 }));
    hooks.on('/deny-mutating', denied({ message: 'no mutation' }));
    closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    dir = mkdtempSync(join(tmpdir(), 'orch-logged-'));
    writeFileSync(join(dir, 'policy.yaml'), 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  namespaces: [logged]\n');
    // One process, so the order of its lines is the order of its events; --v=5 shows the handshake failures.
    b = await startBinaryServer({ workers: 1, args: ['--v', '5', '--audit-policy-file', join(dir, 'policy.yaml'), '--audit-log-path', join(dir, 'audit.log')] });
    assert.equal((await b.client.post('/api/v1/namespaces', { metadata: { name: ns, labels: { suite: ns } } })).status, 201);
  });
  after(async () => {
    await b?.stop();
    await hooks?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const lines = () => b.log().split('\n').filter((l) => l !== '').map((l) => `${l}\n`);
  const count = (re: RegExp) => lines().filter((l) => re.test(l)).length;
  const waitFor = (re: RegExp, n: number, what: string) => b.waitForLog(() => count(re) >= n, 20_000, what);
  const unreachable = (name: string, kind: 'validating' | 'mutating', failurePolicy: 'Ignore' | 'Fail') => ({
    name: `${name}.hooks.test`,
    clientConfig: { url: `https://127.0.0.1:${closedPort}/${name}`, caBundle: hooks.caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { case: `${kind}-${failurePolicy}`.toLowerCase() } },
    namespaceSelector: { matchLabels: { suite: ns } },
    sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy, timeoutSeconds: 2,
  });
  /** A refused request, as a fence: once its line is read, every line logged before it has been too. */
  const fenceLine = /"refused a malformed request" .* answer="400 Bad Request: missing required Host header"/;
  const fence = async () => {
    const before = count(fenceLine);
    const c = await RawConnection.open(b.server.port, b.server.cert.cert);
    c.write('GET /fence HTTP/1.1\r\n\r\n');
    await c.response({ timeoutMs: 10_000 });
    c.destroy();
    await waitFor(fenceLine, before + 1, 'the fence');
  };
  const create = (name: string, label: string) => b.client.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels: { case: label } } });

  test('a webhook call that fails under failurePolicy Ignore: one warning per call, the failed-open audit annotation, the request goes on', async () => {
    const open = (name: string) => new RegExp(String.raw`^W.* (?:validating|mutating)\.ts:\d+\] Failed calling webhook, failing open ${name}\.hooks\.test: failed calling webhook "${name}\.hooks\.test": `);
    await createConfiguration(b.client, domain, 'validating', 'ignored-v', [unreachable('ignored-v', 'validating', 'Ignore')]);
    await createConfiguration(b.client, domain, 'mutating', 'ignored-m', [unreachable('ignored-m', 'mutating', 'Ignore')]);
    // The configurations are in effect once a call fails.
    await pollUntil(() => create(`probe-${Date.now()}`, 'validating-ignore'), () => count(open('ignored-v')) > 0, 'the validating configuration in effect');
    await pollUntil(() => create(`probe-${Date.now()}`, 'mutating-ignore'), () => count(open('ignored-m')) > 0, 'the mutating configuration in effect');
    await fence();
    for (const [name, label] of [['ignored-v', 'validating-ignore'], ['ignored-m', 'mutating-ignore']] as const) {
      const before = count(open(name));
      const r = await create(`one-call-${name}`, label);
      assert.equal(r.status, 201, r.text);
      await fence();
      assert.equal(count(open(name)), before + 1, `one line for the one failed call of ${name}`);
      const audit = await pollUntil(
        async () => readFileSync(join(dir, 'audit.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { stage: string; objectRef?: { name?: string }; annotations?: Record<string, string> }),
        (evs) => evs.some((e) => e.stage === 'ResponseComplete' && e.objectRef?.name === `one-call-${name}`),
        'the audit event of the request',
      );
      const event = audit.find((e) => e.stage === 'ResponseComplete' && e.objectRef?.name === `one-call-${name}`)!;
      const key = name === 'ignored-v' ? `failed-open.validating.webhook.admission.${domain}/round_0_index_0` : `failed-open.mutation.webhook.admission.${domain}/round_0_index_0`;
      assert.equal(event.annotations?.[key], `${name}.hooks.test`, JSON.stringify(event.annotations));
    }
    const line = lines().filter((l) => open('ignored-v').test(l)).at(-1)!;
    assert.match(line, upstreamText);
    assert.match(line, /Post "https:\/\/127\.0\.0\.1:\d+\/ignored-v\?timeout=2s": /);
  });

  test('a webhook call that fails under failurePolicy Fail: one warning, and the 500 is logged as every server error is', async () => {
    const closed = /^W.* validating\.ts:\d+\] Failed calling webhook, failing closed failing\.hooks\.test: failed calling webhook "failing\.hooks\.test": /;
    await createConfiguration(b.client, domain, 'validating', 'failing', [unreachable('failing', 'validating', 'Fail')]);
    await pollUntil(() => create(`probe-${Date.now()}`, 'validating-fail'), (r) => r.status === 500, 'the failing configuration in effect');
    await fence();
    const before = count(closed);
    const r = await create('refused-by-failure', 'validating-fail');
    assert.equal(r.status, 500, r.text);
    await fence();
    assert.equal(count(closed), before + 1);
    await waitFor(/^E.*"request failed with a server error" verb="CREATE" path="\/api\/v1\/namespaces\/logged\/configmaps" .*status=500/, 1, 'the 5xx line');
  });

  test('a validating webhook\'s denial: one warning with the Status the client got, as upstream prints it; a mutating denial is not logged, as upstream', async () => {
    await createConfiguration(b.client, domain, 'validating', 'denying', [{
      name: 'deny.hooks.test', clientConfig: { url: `${hooks.url}/deny`, caBundle: hooks.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      objectSelector: { matchLabels: { case: 'deny' } }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    }]);
    await createConfiguration(b.client, domain, 'mutating', 'denying-m', [{
      name: 'deny-mutating.hooks.test', clientConfig: { url: `${hooks.url}/deny-mutating`, caBundle: hooks.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      objectSelector: { matchLabels: { case: 'deny-mutating' } }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    }]);
    await pollUntil(() => create(`probe-${Date.now()}`, 'deny'), (r) => r.status === 403, 'the denying configuration in effect');
    await pollUntil(() => create(`probe-${Date.now()}`, 'deny-mutating'), (r) => r.status === 400, 'the mutating denial in effect');
    await fence();
    const rejected = /^W.* validating\.ts:\d+\] rejected by webhook "deny\.hooks\.test": /;
    const before = count(rejected);
    const r = await create('denied', 'deny');
    assert.equal(r.status, 403, r.text);
    await fence();
    assert.equal(count(rejected), before + 1);
    const last = lines().filter((l) => rejected.test(l)).at(-1)!;
    assert.equal(last.replace(new RegExp(klogHeader), ''),
      'rejected by webhook "deny.hooks.test": &errors.StatusError{ErrStatus:v1.Status{TypeMeta:v1.TypeMeta{Kind:"", APIVersion:""}, '
      + 'ListMeta:v1.ListMeta{SelfLink:"", ResourceVersion:"", Continue:"", RemainingItemCount:(*int64)(nil)}, Status:"Failure", '
      + 'Message:"admission webhook \\"deny.hooks.test\\" denied the request: nope", Reason:"", Details:(*v1.StatusDetails)(nil), Code:403}}\n');
    assert.equal(count(/rejected by webhook "deny-mutating/), 0, 'upstream\'s mutating dispatcher logs no denial');
  });

  test('each request refused before any handler gets one line naming the client and Go\'s answer, never the request\'s bytes', async () => {
    const secret = 's3cr3t-t0ken-in-the-path';
    const cases: [string, string][] = [
      [`GET /api/v1/namespaces?token=${secret} HTTP/2.0\r\nHost: x\r\n\r\n`, '505 HTTP Version Not Supported: unsupported protocol version'],
      [`FOO /api/v1/namespaces?token=${secret} HTTP/3.0\r\nHost: x\r\n\r\n`, '505 HTTP Version Not Supported: unsupported protocol version'],
      [`GET /api/v1/namespaces?token=${secret}\r\nHost: x\r\n\r\n`, '400 Bad Request'],
      [`GET /api/${secret} HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`, '400 Bad Request: too many Host headers'],
      [`GET /api/${secret} HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n`, '400 Bad Request: invalid header value'],
      [`\u0000\u0001${secret}\r\n\r\n`, '400 Bad Request'],
    ];
    await fence();
    for (const [request, answer] of cases) {
      const refused = new RegExp(String.raw`^I.* server\.ts:\d+\] "refused a malformed request" client="127\.0\.0\.1:\d+" answer="${answer.replace(/[.:]/g, '\\$&')}"\n$`);
      const before = count(refused);
      const c = await RawConnection.open(b.server.port, b.server.cert.cert);
      c.write(request);
      const r = await c.response({ timeoutMs: 10_000 });
      assert.equal(r?.statusLine, `HTTP/1.1 ${answer}`, JSON.stringify(request));
      c.destroy();
      await fence();
      assert.equal(count(refused), before + 1, `one line for ${JSON.stringify(request)}`);
    }
    assert.ok(!b.log().includes(secret), 'no request bytes reach the log');
  });

  test('a TLS handshake that fails is logged at --v=5 in Go\'s words', async () => {
    const handshake = /^I.* server\.ts:\d+\] http: TLS handshake error from 127\.0\.0\.1:\d+: .+\n$/;
    const before = count(handshake);
    await new Promise<void>((resolve) => {
      const s = connect(b.server.port, '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
      s.on('error', () => undefined);
      s.on('close', () => resolve());
    });
    await waitFor(handshake, before + 1, 'the handshake failure');
  });

  test('every line the binary wrote has klog\'s header with a .ts file:line, and is structured or upstream\'s own text', () => {
    const all = lines();
    assert.ok(all.length > 20);
    for (const l of all) assert.ok(klogLine.test(l) || upstreamText.test(l), `not a klog line: ${JSON.stringify(l)}`);
    const pid = String(b.pid).padStart(7);
    assert.ok(all.every((l) => l.slice(21, 30) === ` ${pid} `), 'the pid in seven columns after the time');
  });
});
