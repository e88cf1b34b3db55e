// The API server as `--workers 2`: one process whose two threads share the port, each with its own
// caches, and the server still behaves as one, anchored in etcd: watches see writes made through
// the other thread, paging and optimistic concurrency hold across connections, /metrics speaks
// for both threads, one audit log file holds every thread's events, a token webhook is asked once
// per token within its cache TTL whichever thread serves, a thread that dies is replaced while
// health stays green and writes go on, a stuck thread fails /readyz but not /livez, a hung etcd
// is refused by every thread once one thread's probe finds it, SIGTERM stops them all, and kubectl
// works against it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:https';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { TestCA } from '../../pkg/authentication/testing/ca.js';
import { sendJSON, startTestHttpsServer, type TestHttpsServer } from '../../pkg/authentication/testing/https-server.js';
import { pollUntil } from './framework/authentication.js';
import { startBinaryServer, type BinaryServer } from './framework/binary-server.js';
import type { Client, Response } from './framework/client.js';
import { startEtcd } from './framework/etcd.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';
import { startTokenWebhook, type TokenWebhook } from './framework/token-webhook.js';

const workerOf = (r: { headers: Record<string, unknown> }) => String(r.headers['x-orch-worker'] ?? '');

/** Sends requests (one new connection each) until one is served by a thread other than `not`. */
async function throughOtherWorker(not: string, send: () => Promise<Response>): Promise<Response> {
  for (let i = 0; i < 50; i++) {
    const r = await send();
    if (workerOf(r) !== not) return r;
  }
  assert.fail(`every request was served by worker ${not}`);
}

/** The process ids whose parent is `pid`, read from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((e) => /^\d+$/.test(e)).filter((e) => {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
    } catch {
      return false;
    }
  }).map(Number);
}

/** The kernel's resident set of the process, in bytes. */
const residentBytes = (pid: number) => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;

describe('the API server with --workers 2', () => {
  let s: BinaryServer;
  let client: Client;
  before(async () => {
    s = await startBinaryServer({ workers: 2, env: { ORCH_TEST_THREAD_CRASH: 'exception' } });
    client = s.client;
  });
  after(async () => s?.stop());

  test('one process: keep-alive connections land on both threads, which serve one certificate', async () => {
    // The agent trusts only the certificate in --cert-dir: a thread serving another one would fail the handshake.
    const agent = new Agent({ keepAlive: true, maxSockets: 8, ca: s.server.cert.cert });
    try {
      const get = () => new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: s.server.port, path: '/api/v1/namespaces/default', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(`${res.statusCode} ${String(res.headers['x-orch-worker'])}`));
        });
        req.on('error', reject);
        req.end();
      });
      const answers = await Promise.all(Array.from({ length: 64 }, get));
      assert.deepEqual(new Set(answers), new Set(['200 1', '200 2']), `answers by thread: ${answers.join(', ')}`);
    } finally {
      agent.destroy();
    }
    assert.deepEqual(childrenOf(s.pid), [], 'no process beside the server\'s own');
  });

  test('a watch served by one thread sees the writes made through the other, in order and without gaps', async () => {
    const ns = 'workers-watch';
    assert.equal((await client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    const list = await client.get(`/api/v1/namespaces/${ns}/configmaps`);
    const watch = await client.watch(`/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
    try {
      const watchedBy = workerOf(watch);
      assert.ok(watchedBy, 'the watch answer names its thread');
      const created: { name: string; rv: string; by: string }[] = [];
      for (let i = 0; created.filter((c) => c.by !== watchedBy).length < 3; i++) {
        assert.ok(i < 100, 'writes reached the other thread');
        const r = await client.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}` }, data: { i: String(i) } });
        assert.equal(r.status, 201, r.text);
        created.push({ name: r.body.metadata.name, rv: r.body.metadata.resourceVersion, by: workerOf(r) });
      }
      const events = await watch.take(created.length, 15_000);
      assert.deepEqual(events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion]), created.map((c) => ['ADDED', c.name, c.rv]));
    } finally {
      watch.close();
    }
  });

  test('paging reads one snapshot whichever thread serves each page', async () => {
    const ns = 'workers-paging';
    assert.equal((await client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    for (let i = 0; i < 25; i++) assert.equal((await client.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${String(i).padStart(2, '0')}` } })).status, 201);
    const names: string[] = [];
    let rv = '';
    let next = '';
    let last = '';
    let pages = 0;
    do {
      const page = () => client.get(`/api/v1/namespaces/${ns}/configmaps?limit=5${next ? `&continue=${encodeURIComponent(next)}` : ''}`);
      // Each page from the thread that did not serve the one before (reading a page again is harmless).
      const r = last === '' ? await page() : await throughOtherWorker(last, page);
      assert.equal(r.status, 200, r.text);
      last = workerOf(r);
      rv ||= r.body.metadata.resourceVersion;
      assert.equal(r.body.metadata.resourceVersion, rv, 'every page is read at the first page\'s revision');
      names.push(...r.body.items.map((o: { metadata: { name: string } }) => o.metadata.name));
      next = r.body.metadata.continue ?? '';
      // A write between pages is not in the snapshot.
      if (pages++ === 0) assert.equal((await client.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'cm-late' } })).status, 201);
    } while (next);
    assert.deepEqual(names, Array.from({ length: 25 }, (_, i) => `cm-${String(i).padStart(2, '0')}`));
  });

  test('an update with a stale resourceVersion is a conflict whichever thread serves it', async () => {
    const path = '/api/v1/namespaces/default/configmaps/workers-occ';
    const created = await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'workers-occ' }, data: { v: '0' } });
    assert.equal(created.status, 201, created.text);
    const stale = created.body.metadata.resourceVersion;
    const first = await client.put(path, { metadata: { name: 'workers-occ', resourceVersion: stale }, data: { v: '1' } });
    assert.equal(first.status, 200, first.text);
    const second = await throughOtherWorker(workerOf(first), () => client.put(path, { metadata: { name: 'workers-occ', resourceVersion: stale }, data: { v: '2' } }));
    assert.equal(second.status, 409, second.text);
    assert.equal(second.body.reason, 'Conflict');
    assert.equal((await client.get(path)).body.data.v, '1');
  });

  test('one thread type-checks ValidatingAdmissionPolicies: each generation\'s status is applied once, by upstream\'s field manager', async () => {
    const policies = '/apis/admissionregistration.orch.io/v1/validatingadmissionpolicies';
    const name = 'workers-typed';
    const spec = (expression: string) => ({
      failurePolicy: 'Fail', validations: [{ expression }],
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: ['CREATE'] }] },
    });
    const statusFields = (r: Response) => (r.body.metadata.managedFields as { subresource?: string; time?: string }[])
      .filter((f) => f.subresource === 'status').map(({ time: _, ...f }) => f);
    const applied = (typeChecking: Record<string, unknown>) => [{
      manager: 'validatingadmissionpolicy-status', operation: 'Apply', apiVersion: 'admissionregistration.orch.io/v1', subresource: 'status',
      fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:observedGeneration': {}, 'f:typeChecking': typeChecking } },
    }];
    const created = await client.post(policies, { metadata: { name }, spec: spec('object.spec.replicas > 1') });
    assert.equal(created.status, 201, created.text);
    const watch = await client.watch(`${policies}?watch=true&fieldSelector=metadata.name%3D${name}&resourceVersion=${created.body.metadata.resourceVersion}`);
    try {
      const checked = await pollUntil(() => client.get(`${policies}/${name}`), (r) => r.body.status?.observedGeneration === 1, 'type checking');
      assert.equal(checked.body.status.typeChecking.expressionWarnings[0].fieldRef, 'spec.validations[0].expression');
      assert.deepEqual(statusFields(checked), applied({ 'f:expressionWarnings': {} }));
      // A new generation is checked again; the warnings the new apply leaves out are gone, and with
      // them the emptied typeChecking, which the manager still owns (as upstream's apply leaves it).
      const updated = await client.put(`${policies}/${name}`, { ...checked.body, spec: spec('true') });
      assert.equal(updated.status, 200, updated.text);
      const rechecked = await pollUntil(() => client.get(`${policies}/${name}`), (r) => r.body.status?.observedGeneration === 2, 'type checking again');
      assert.deepEqual(rechecked.body.status, { observedGeneration: 2 });
      assert.deepEqual(statusFields(rechecked), applied({}));
      // Once each: between the create and a last change of ours, the watch sees the two status
      // writes and the update, and nothing else.
      const labelled = await client.patch(`${policies}/${name}`, { metadata: { labels: { seen: 'yes' } } });
      assert.equal(labelled.status, 200, labelled.text);
      const events = await watch.take(4, 15_000);
      assert.deepEqual(events.map((e) => [e.type, e.object.metadata.generation, e.object.status?.observedGeneration ?? 0, e.object.metadata.labels?.seen ?? '']),
        [['MODIFIED', 1, 1, ''], ['MODIFIED', 2, 1, ''], ['MODIFIED', 2, 2, ''], ['MODIFIED', 2, 2, 'yes']]);
    } finally {
      watch.close();
    }
  });

  test('/metrics from either thread counts the whole server: requests summed, the process\'s memory and objects once', async () => {
    const servedBy = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await client.get(`/api/v1/namespaces/default/podtemplates/none-${i}`);
      assert.equal(r.status, 404);
      servedBy.add(workerOf(r));
    }
    assert.equal(servedBy.size, 2, 'both threads served some of the requests');
    const listed = (await client.get('/api/v1/namespaces')).body.items.length;
    const line = /^apiserver_request_total\{[^}]*verb="GET"[^}]*resource="podtemplates"[^}]*code="404"[^}]*\} (\d+)$/m;
    const scrapedBy = new Set<string>();
    for (let i = 0; i < 20 && scrapedBy.size < 2; i++) {
      const m = await client.get('/metrics');
      assert.equal(m.status, 200);
      scrapedBy.add(workerOf(m));
      assert.equal(line.exec(m.text)?.[1], '20', `the sum over both threads, scraped from thread ${workerOf(m)}`);
      // Every thread counts the same etcd: the object count is not doubled.
      const namespaces = Number(/^apiserver_storage_objects\{resource="namespaces"\} (\d+)$/m.exec(m.text)?.[1]);
      assert.equal(namespaces, listed);
      // Every thread reads the one process's memory: not a sum of two readings.
      const rss = Number(/^process_resident_memory_bytes (\d+)$/m.exec(m.text)?.[1]);
      assert.ok(rss > 0 && rss < 1.5 * residentBytes(s.pid), `process_resident_memory_bytes ${rss} against VmRSS ${residentBytes(s.pid)}`);
    }
    assert.equal(scrapedBy.size, 2, 'both threads answered /metrics');
  });

  test('kubectl apply, get and watch work against it', async () => {
    const kc: Kubeconfig = writeKubeconfig(s);
    const kubectl = new Kubectl(kc);
    try {
      const manifest = (v: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: workers-kubectl\n  namespace: default\ndata:\n  v: "${v}"\n`;
      await kubectl.ok(['apply', '-f', '-'], { input: manifest('1') });
      const watch = kubectl.background(['get', 'configmap', 'workers-kubectl', '-w', '-o', 'jsonpath={.data.v}{"\\n"}']);
      try {
        await watch.waitForOutput((out) => out.split('\n').includes('1'), 15_000, 'the watch lists the object');
        // Several applies, so some go through the thread not serving the watch.
        for (const v of ['2', '3', '4']) await kubectl.ok(['apply', '-f', '-'], { input: manifest(v) });
        await watch.waitForOutput((out) => out.split('\n').includes('4'), 15_000, 'the watch sees the applies');
      } finally {
        await watch.stop();
      }
      const got = await kubectl.ok(['get', 'configmap', 'workers-kubectl', '-o', 'jsonpath={.data.v}']);
      assert.equal(got.stdout, '4');
    } finally {
      kc.remove();
    }
  });

  test('a thread that dies is replaced, its cause logged; meanwhile /livez stays 200 and writes succeed', async () => {
    const ready = await client.get('/readyz?verbose');
    assert.equal(ready.status, 200, ready.text);
    assert.match(ready.text, /^\[\+\]worker-1 ok$/m);
    assert.match(ready.text, /^\[\+\]worker-2 ok$/m);
    // The test trigger (ORCH_TEST_THREAD_CRASH): an exception nothing catches, in thread 2.
    s.signal('SIGUSR2');
    const answers: string[] = [];
    let writes = 0;
    let replaced = false;
    const waitReplaced = s.waitForLog((l) => l.includes('"the thread that replaced one that ended is serving" slot=2'), 90_000, 'thread 2 replaced').then(() => {
      replaced = true;
    });
    while (!replaced) {
      // A connection the kernel handed to thread 2 as it died is lost with it; an answer is never a failure.
      const [live, write] = await Promise.all([
        client.get('/livez').catch((e: Error) => ({ status: 0, text: e.message, headers: {} })),
        client.post('/api/v1/namespaces/default/configmaps', { metadata: { generateName: 'during-' } }).catch((e: Error) => ({ status: 0, text: e.message, headers: {} })),
      ]);
      if (live.status !== 0) assert.equal(live.status, 200, `livez while a thread is replaced: ${live.text}`);
      if (write.status !== 0) {
        assert.equal(write.status, 201, `a write while a thread is replaced: ${write.text}`);
        writes++;
      }
      answers.push(`${live.status}/${write.status}/${workerOf(write)}`);
    }
    await waitReplaced;
    assert.match(s.log(), /"a thread ended unexpectedly; replacing it" slot=2 err=<\n\tError: this thread was told to crash \(ORCH_TEST_THREAD_CRASH\)\n/);
    assert.ok(writes >= 3, `writes went on while thread 2 was replaced: ${answers.join(' ')}`);
    assert.ok(answers.some((a) => a.endsWith('/201/1')), `thread 1 served while thread 2 was down: ${answers.join(' ')}`);
    const again = await client.get('/readyz?verbose');
    assert.equal(again.status, 200, again.text);
    assert.match(again.text, /^\[\+\]worker-2 ok$/m);
    // The replacement serves, in the same process.
    await throughOtherWorker('1', () => client.get('/api/v1/namespaces/default'));
    assert.deepEqual(childrenOf(s.pid), []);
  });

  test('a thread that keeps dying is logged with its cause each time and replaced after a growing backoff', async () => {
    const replacements = () => (s.log().match(/"the thread that replaced one that ended is serving" slot=2/g) ?? []).length;
    const before = replacements();
    // Thread 2 again, soon after its last replacement (not stable for a minute): the backoff doubles.
    s.signal('SIGUSR2');
    await s.waitForLog(() => replacements() > before, 90_000, 'thread 2 replaced again');
    const deaths = [...s.log().matchAll(/"a thread ended unexpectedly; replacing it" slot=2 err=<\n\tError: this thread was told to crash \(ORCH_TEST_THREAD_CRASH\)\n[\s\S]*?\n >\s*replacedIn="(\d+)s"/g)];
    assert.deepEqual(deaths.map((m) => m[1]), ['1', '2'], 'each death logged with its cause; the second replacement waited twice as long');
    assert.equal((await client.get('/livez')).status, 200);
    await pollUntil(() => client.get('/readyz'), (r) => r.status === 200, 'readyz', 10_000);
  });

  test('SIGTERM drains every thread and the process exits 0', async () => {
    const watch = await client.watch('/api/v1/namespaces?watch=true');
    s.signal('SIGTERM');
    for (let e = await watch.next(10_000); e; e = await watch.next(10_000)) { /* drain what the watch sent */ }
    assert.ok(watch.ended(), 'the server closed the watch');
    const { code } = await s.exited;
    assert.equal(code, 0, s.log());
    const log = s.log();
    assert.match(log, /"the API server stopped" worker=1$/m);
    assert.match(log, /"the API server stopped" worker=2$/m);
    assert.match(log, /"the API server stopped" exitCode=0 worker="main"$/m);
  });
});

describe('--workers 2 shares what an operator sees as one', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-workers-shared-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const mode of ['blocking', 'batch']) test(`one --audit-log-path file, rotated by size, holds every event of both threads, each whole (--audit-log-mode ${mode})`, async () => {
    const logDir = join(dir, `audit-${mode}`);
    writeFileSync(join(dir, 'policy.yaml'), 'apiVersion: audit.orch.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: RequestResponse\n  resources:\n  - group: ""\n    resources: [configmaps]\n- level: None\n');
    // A backup from long ago, which --audit-log-maxage removes at the next rotation.
    const old = 'audit-2020-01-01T00-00-00.000.log';
    mkdirSync(logDir, { recursive: true });
    writeFileSync(join(logDir, old), '');
    const s = await startBinaryServer({ workers: 2, args: ['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-log-path', join(logDir, 'audit.log'), '--audit-log-maxsize', '1', '--audit-log-mode', mode,
      '--audit-log-maxage', '1', '--audit-log-maxbackup', '10'] });
    try {
      // About 64 KiB per event (request and response bodies): 48 creates take the log past 1 MiB more than twice.
      const payload = 'x'.repeat(32 * 1024);
      const created = new Map<string, string>();
      for (let i = 0; i < 48; i++) {
        const r = await s.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: `audited-${i}` }, data: { payload } });
        assert.equal(r.status, 201, r.text);
        created.set(`audited-${i}`, workerOf(r));
      }
      assert.deepEqual(new Set(created.values()), new Set(['1', '2']), 'both threads served creates');
      // In batch mode events are written in the background, after the answers.
      await pollUntil(async () => readdirSync(logDir).map((f) => readFileSync(join(logDir, f), 'utf8')).join(''), (text) => (text.match(/"stage":"ResponseComplete"/g) ?? []).length >= 48, 'every event written', 15_000);
      const files = readdirSync(logDir).sort();
      assert.ok(files.length >= 3, `the log was rotated at 1 MiB: ${files.join(', ')}`);
      assert.ok(!files.includes(old), `the backup older than --audit-log-maxage is gone: ${files.join(', ')}`);
      assert.ok(files.length <= 11, `at most --audit-log-maxbackup backups beside the log: ${files.join(', ')}`);
      assert.ok(files.every((f) => f === 'audit.log' || /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(f)), `one log and its backups, no file per thread: ${files.join(', ')}`);
      const events = files.flatMap((f) => {
        assert.ok(statSync(join(logDir, f)).size <= 1024 * 1024, `${f} is within --audit-log-maxsize`);
        return readFileSync(join(logDir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
      });
      const completed = events.filter((e) => e.verb === 'create' && e.stage === 'ResponseComplete').map((e) => e.objectRef.name as string);
      assert.deepEqual(completed.sort(), [...created.keys()].sort(), 'every create of both threads, once each');
      assert.ok(events.every((e) => e.requestObject?.data?.payload === payload || e.verb !== 'create'), 'every event whole');
    } finally {
      await s.stop();
    }
  });

  test('a token webhook is asked once per token within its cache TTL, whichever thread serves', async () => {
    const write = (name: string, content: string) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    };
    const webhook: TokenWebhook = await startTokenWebhook(write);
    webhook.answer('shared-token', { authenticated: { username: 'webhook-user', groups: ['system:masters'] } });
    // Slow answers, so the requests sent meanwhile wait for the first one on both threads.
    webhook.delay(300);
    const s = await startBinaryServer({ workers: 2, args: ['--authentication-token-webhook-config-file', webhook.kubeconfigPath, '--authentication-token-webhook-cache-ttl', '5m', '--authorization-mode', 'RBAC'] });
    try {
      const as = s.client.withToken('shared-token');
      const burst = await Promise.all(Array.from({ length: 16 }, () => as.get('/api/v1/namespaces/default')));
      const rest: Response[] = [];
      for (let i = 0; i < 24; i++) rest.push(await as.get('/api/v1/namespaces/default'));
      for (const r of [...burst, ...rest]) assert.equal(r.status, 200, r.text);
      assert.deepEqual(new Set([...burst, ...rest].map(workerOf)), new Set(['1', '2']), 'both threads served the token');
      assert.equal(webhook.reviewsOf('shared-token').length, 1, 'one TokenReview for 40 requests over both threads');
      // Another token is another key: asked once too.
      webhook.answer('other-token', { authenticated: { username: 'other-user' } });
      for (let i = 0; i < 10; i++) await s.client.withToken('other-token').get('/api/v1/namespaces/default');
      assert.equal(webhook.reviewsOf('other-token').length, 1);
    } finally {
      await s.stop();
      await webhook.close();
    }
  });

  test('the authorization webhook is asked once per request attributes within its cache TTL, whichever thread serves', async () => {
    const ca = TestCA.root({ commonName: 'workers-authz-ca' });
    const serving = ca.server(['127.0.0.1']);
    const reviews: Record<string, any>[] = [];
    const webhook: TestHttpsServer = await startTestHttpsServer({
      cert: serving.certPem, key: serving.keyPem,
      handler: async (req, res) => {
        const review = JSON.parse(req.body) as Record<string, any>;
        reviews.push(review);
        // Slow, so the requests sent meanwhile wait for this answer on both threads.
        await new Promise((r) => setTimeout(r, 300));
        sendJSON(res, 200, { apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: { allowed: review.spec.user === 'alice' } });
      },
    });
    writeFileSync(join(dir, 'tokens.csv'), 'alice-token,alice,1\n');
    writeFileSync(join(dir, 'authz-ca.pem'), ca.certPem);
    writeFileSync(join(dir, 'authz.kubeconfig'), stringify({
      apiVersion: 'v1', kind: 'Config',
      clusters: [{ name: 'authz', cluster: { server: `${webhook.url}/authorize`, 'certificate-authority': join(dir, 'authz-ca.pem') } }],
      users: [{ name: 'apiserver', user: {} }],
      contexts: [{ name: 'authz', context: { cluster: 'authz', user: 'apiserver' } }],
      'current-context': 'authz',
    }));
    const s = await startBinaryServer({ workers: 2, args: ['--token-auth-file', join(dir, 'tokens.csv'), '--authorization-mode', 'Webhook', '--authorization-webhook-config-file', join(dir, 'authz.kubeconfig')] });
    try {
      const alice = s.client.withToken('alice-token');
      const path = '/api/v1/namespaces/default/configmaps';
      const answers = await Promise.all(Array.from({ length: 16 }, () => alice.get(path)));
      for (let i = 0; i < 16; i++) answers.push(await alice.get(path));
      for (const r of answers) assert.equal(r.status, 200, r.text);
      assert.deepEqual(new Set(answers.map(workerOf)), new Set(['1', '2']), 'both threads served alice');
      const asked = reviews.filter((r) => r.spec.user === 'alice' && r.spec.resourceAttributes?.verb === 'list');
      assert.equal(asked.length, 1, 'one SubjectAccessReview for 32 lists over both threads');
    } finally {
      await s.stop();
      await webhook.close();
    }
  });

  test('a thread out of memory in its isolate is replaced, the cause logged, while the other serves', async () => {
    // A small heap for every thread (NODE_OPTIONS, as an operator would set it), and the test trigger growing one past it.
    const s = await startBinaryServer({ workers: 2, env: { ORCH_TEST_THREAD_CRASH: 'oom', NODE_OPTIONS: '--max-old-space-size=256' } });
    try {
      s.signal('SIGUSR2');
      await s.waitForLog((l) => /"a thread ended unexpectedly; replacing it" slot=2 err=".*out of memory.*"/.test(l), 60_000, 'thread 2 out of memory');
      assert.equal((await s.client.get('/livez')).status, 200);
      assert.equal((await s.client.post('/api/v1/namespaces/default/configmaps', { metadata: { generateName: 'after-oom-' } })).status, 201);
      await s.waitForLog((l) => l.includes('"the thread that replaced one that ended is serving" slot=2'), 90_000, 'thread 2 replaced');
      await pollUntil(() => s.client.get('/readyz'), (r) => r.status === 200, 'readyz', 10_000);
    } finally {
      await s.stop();
    }
  });
});

/** A keep-alive connection served by thread `id`: its requests never wait for another thread. */
async function connectionTo(s: BinaryServer, id: string): Promise<{ get(path: string): Promise<{ status: number; text: string }>; close(): void }> {
  for (let i = 0; i < 50; i++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: s.server.cert.cert });
    const get = (path: string) => new Promise<{ status: number; text: string; worker: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: s.server.port, path, agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, worker: String(res.headers['x-orch-worker']) }));
      });
      req.on('error', reject);
      req.end();
    });
    if ((await get('/livez')).worker === id) return { get, close: () => agent.destroy() };
    agent.destroy();
  }
  assert.fail(`no connection was served by thread ${id}`);
}

describe('--workers 2 with a thread whose event loop is stuck', () => {
  test('/readyz fails naming the thread while /livez and /healthz stay 200; all pass again once it runs', async () => {
    const s = await startBinaryServer({ workers: 2, env: { ORCH_TEST_THREAD_CRASH: 'stall' } });
    const one = await connectionTo(s, '1');
    try {
      assert.equal((await one.get('/readyz')).status, 200);
      // The test trigger: thread 2's event loop blocked for 20 s.
      s.signal('SIGUSR2');
      const ready = await pollUntil(() => one.get('/readyz?verbose'), (r) => r.status !== 200, 'readyz failing', 15_000);
      assert.equal(ready.status, 500, ready.text);
      assert.match(ready.text, /^\[-\]worker-2 failed: reason withheld$/m);
      assert.match(ready.text, /^\[\+\]worker-1 ok$/m);
      assert.equal((await one.get('/livez')).status, 200, 'the server lives: a thread serves');
      assert.equal((await one.get('/healthz')).status, 200);
      assert.match(s.log(), /"threads not heard from; \/readyz fails until they are" workers="2"/);
      await pollUntil(() => one.get('/readyz'), (r) => r.status === 200, 'readyz passing once thread 2 runs again', 30_000);
    } finally {
      one.close();
      await s.stop();
    }
  });
});

describe('--workers 2 when etcd hangs', () => {
  test('once one thread\'s probe finds etcd hung, both threads refuse writes with 503 at once (none is sent to wait for its deadline); both write again after', async () => {
    const s = await startBinaryServer({ workers: 2 });
    const path = '/api/v1/namespaces/default/configmaps';
    try {
      s.etcd.freeze();
      try {
        // The first thread whose probe fails (each probes on its own connection, at its own moment).
        const first = await pollUntil(() => s.client.get('/readyz?verbose'), (r) => r.status === 500, 'a thread\'s /readyz failing', 20_000);
        assert.match(first.text, /^\[-\]etcd failed/m);
        const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => s.client.post(`${path}?timeout=5s`, { metadata: { name: `while-hung-${i}` } })));
        for (const r of answers) {
          assert.equal(r.status, 503, `thread ${workerOf(r)} after thread ${workerOf(first)}'s probe failed: ${r.text}`);
          assert.equal(r.headers['retry-after'], '1');
        }
        assert.equal(new Set(answers.map(workerOf)).size, 2, 'both threads answered');
      } finally {
        s.etcd.thaw();
      }
      const after = await pollUntil(() => Promise.all(Array.from({ length: 16 }, () => s.client.get('/readyz'))), (rs) => rs.every((r) => r.status === 200), 'both threads ready again');
      assert.equal(new Set(after.map(workerOf)).size, 2, 'both threads answered');
      const writes = await Promise.all(Array.from({ length: 8 }, (_, i) => s.client.post(path, { metadata: { name: `after-${i}` } })));
      assert.deepEqual(writes.map((r) => r.status), Array(8).fill(201));
    } finally {
      await s.stop();
    }
  });
});

describe('--workers when its threads cannot start', () => {
  test('exits 1 with the reason rather than starting them again', async () => {
    const etcd = await startEtcd();
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as { port: number }).port;
    try {
      const s = startBinaryServer({ workers: 2, etcd, port });
      await assert.rejects(s, (e: Error) => {
        assert.match(e.message, /"the API server could not start" slot=\d err="listen EADDRINUSE: address already in use 127\.0\.0\.1:\d+" worker="main"/);
        assert.doesNotMatch(e.message, /replacing/);
        assert.match(e.message, /the server ended first \(1\)/);
        return true;
      });
    } finally {
      taken.close();
      await etcd.stop();
    }
  });

  test('flags are refused before any thread starts', async () => {
    const { cmd, args } = { cmd: process.execPath, args: [new URL('../../cmd/apiserver/main.js', import.meta.url).pathname] };
    const r = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const p = spawn(cmd, [...args, '--workers', '0', '--etcd-servers', 'http://127.0.0.1:1'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr.on('data', (d: Buffer) => (err += d.toString()));
      p.on('exit', (code) => resolve({ code, err }));
    });
    assert.equal(r.code, 1);
    assert.match(r.err, /--workers must be a positive integer/);
  });

  test('flags only the threads can check (a --runtime-config key, an admission plug-in without code) are refused once, as a single server refuses them', async () => {
    const main = new URL('../../cmd/apiserver/main.js', import.meta.url).pathname;
    const certDir = mkdtempSync(join(tmpdir(), 'orch-workers-flags-'));
    const run = (workers: string) => new Promise<{ code: number | null; err: string }>((resolve) => {
      const p = spawn(process.execPath, [main, '--workers', workers, '--etcd-servers', 'http://127.0.0.1:1', '--cert-dir', certDir, '--runtime-config', 'apps/v1/widgets=false', '--enable-admission-plugins', 'PersistentVolumeLabel'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr.on('data', (d: Buffer) => (err += d.toString()));
      p.on('exit', (code) => resolve({ code, err }));
    });
    try {
      const [threaded, single] = await Promise.all([run('2'), run('1')]);
      assert.equal(threaded.code, 1, threaded.err);
      assert.equal(single.code, 1, single.err);
      const refusal = /^Error: enable-admission-plugins plugin "PersistentVolumeLabel" is not implemented by this server\nError: --runtime-config: unknown api groups or resources in --runtime-config: apps\/v1\/widgets .*\n\nRun 'apiserver --help' for usage\.\n/m;
      assert.match(single.err, refusal);
      assert.equal(threaded.err.match(new RegExp(refusal.source, 'gm'))?.length, 1, `printed once:\n${threaded.err}`);
      assert.doesNotMatch(threaded.err, /could not start|replacing/);
    } finally {
      rmSync(certDir, { recursive: true, force: true });
    }
  });
});
