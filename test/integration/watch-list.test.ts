// Watch-list (sendInitialEvents) as kube-apiserver 1.32+ serves it, through the real server with
// the watch cache on and off: ADDED events for every object the selectors match, in the state a
// resourceVersion unset (the latest), "0" (any) or N (not older than N) allows, one BOOKMARK
// annotated `<domain>/initial-events-end: "true"` at that state's resourceVersion, then the
// changes after it; in JSON, protobuf (pkg/client), Table and PartialObjectMetadata; the
// parameter rules and refusals of upstream's ValidateListOptions with its WatchList feature on
// (1.30, where it was off, refused every sendInitialEvents on a watch); and a large initial state
// encoded as the connection takes it.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Client as KubeClient, type KubeObject, type WatchEvent as KubeWatchEvent, type WireFormat } from '../../pkg/client/index.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import type { Client, WatchEvent, WatchStream } from './framework/client.js';
import { writeKubeconfig } from './framework/kubeconfig.js';

/** The end mark's annotations: the domain's key, and upstream's, which stock client-go looks for whatever the domain. */
const END_ANNOTATIONS = { 'orch.io/initial-events-end': 'true', 'k8s.io/initial-events-end': 'true' };
const END = 'orch.io/initial-events-end';
const WATCH_LIST = 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';

const rvOf = (e: { object: { metadata?: { resourceVersion?: string } } }) => Number(e.object.metadata?.resourceVersion);
const isEnd = (e: WatchEvent) => e.type === 'BOOKMARK' && e.object.metadata?.annotations?.[END] === 'true';
/** `TYPE name@rv` of an event. */
const said = (e: WatchEvent) => `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion}`;

/** The events up to the end mark: the initial ADDED events and the BOOKMARK that ends them. */
async function initialEvents(w: WatchStream, what: string): Promise<{ added: WatchEvent[]; end: WatchEvent }> {
  const added: WatchEvent[] = [];
  const deadline = Date.now() + 10_000;
  for (;;) {
    const e = await w.next(Math.max(1, deadline - Date.now()));
    assert.ok(e, `${what}: the initial events end with an annotated BOOKMARK; got only ${JSON.stringify(added.map(said))}`);
    if (isEnd(e)) return { added, end: e };
    assert.equal(e.type, 'ADDED', `${what}: only ADDED events before the end mark, got ${JSON.stringify(e)}`);
    added.push(e);
  }
}

/** The end mark's shape: the kind's type, the state's resourceVersion and the annotation, nothing else. */
function assertEndMark(end: WatchEvent, kind: string, apiVersion: string, what: string): void {
  assert.deepEqual(end.object, { kind, apiVersion, metadata: { resourceVersion: end.object.metadata.resourceVersion, annotations: END_ANNOTATIONS } }, what);
  assert.match(end.object.metadata.resourceVersion, /^[1-9]\d*$/, what);
}

for (const watchCache of [true, false]) {
  describe(`watch-list, watch cache ${watchCache ? 'on' : 'off'}`, () => {
    let t: TestServer;
    let c: Client;
    const open: WatchStream[] = [];
    before(async () => {
      t = await startTestServer({ watchCache });
      c = t.client;
      for (const ns of ['wl-seq', 'wl-opts', 'wl-forms', 'wl-big']) assert.equal((await c.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    });
    after(async () => {
      for (const w of open) w.close();
      await t?.stop();
    });

    const watch = async (path: string, headers: Record<string, string> = {}): Promise<WatchStream> => {
      const w = await c.watch(path, headers);
      open.push(w);
      assert.equal(w.status, 200, `watch ${path}`);
      return w;
    };
    const write = async (method: 'POST' | 'PUT', path: string, body: unknown): Promise<KubeObject> => {
      const r = await c.request(method, path, { body });
      assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.text}`);
      return r.body as KubeObject;
    };
    const cm = (ns: string, name: string, labels: Record<string, string>, data: Record<string, string> = {}) =>
      write('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels }, data });
    const update = async (ns: string, name: string, change: (o: any) => void) => {
      const o = (await c.get(`/api/v1/namespaces/${ns}/configmaps/${name}`)).body;
      change(o);
      return write('PUT', `/api/v1/namespaces/${ns}/configmaps/${name}`, o);
    };

    test('the parameter rules of 1.32+: what is refused (422 Invalid ListOptions, with its causes) and what is served', async () => {
      const base = '/api/v1/namespaces/wl-opts/configmaps';
      const refused = async (query: string, causes: [string, string, string][], method = 'GET') => {
        // timeoutSeconds ends a watch a server would wrongly serve.
        const r = await c.request(method, `${base}?${query}&timeoutSeconds=5`);
        assert.equal(r.status, 422, `${query}: ${r.text}`);
        assert.equal(r.body.kind, 'Status');
        assert.equal(r.body.reason, 'Invalid', query);
        assert.equal(r.body.details.kind, 'ListOptions', query);
        assert.equal(r.body.details.group, 'meta.orch.io', query);
        assert.deepEqual(r.body.details.causes.map((x: any) => [x.reason, x.field, x.message]), causes, query);
        const list = causes.map(([, field, message]) => `${field}: ${message}`);
        assert.equal(r.body.message, `ListOptions.meta.orch.io "" is invalid: ${list.length === 1 ? list[0] : `[${list.join(', ')}]`}`, query);
      };
      const requiresNotOlderThan: [string, string, string] = ['FieldValueForbidden', 'resourceVersionMatch', 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'];
      const needsSendInitialEvents: [string, string, string] = ['FieldValueForbidden', 'resourceVersionMatch', 'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'];
      await refused('watch=true&sendInitialEvents=true', [requiresNotOlderThan]);
      await refused('watch=true&sendInitialEvents=false&resourceVersion=5', [requiresNotOlderThan]);
      await refused('watch=true&sendInitialEvents=true&resourceVersion=5&resourceVersionMatch=Exact',
        [requiresNotOlderThan, ['FieldValueNotSupported', 'resourceVersionMatch', 'Unsupported value: "Exact": supported values: "NotOlderThan"']]);
      await refused('watch=true&resourceVersion=5&resourceVersionMatch=NotOlderThan', [needsSendInitialEvents]);
      await refused('watch=true&resourceVersionMatch=NotOlderThan', [needsSendInitialEvents]);
      await refused(`${WATCH_LIST}&continue=abc`, [['FieldValueForbidden', 'resourceVersionMatch', 'Forbidden: resourceVersionMatch is forbidden when continue is provided']]);
      // Only a watch may ask for initial events: not a list, nor a deletecollection (which deletes nothing then).
      const forList: [string, string, string] = ['FieldValueForbidden', 'sendInitialEvents', 'Forbidden: sendInitialEvents is forbidden for list'];
      await refused('sendInitialEvents=true', [forList]);
      await refused('sendInitialEvents=false&resourceVersion=0&resourceVersionMatch=NotOlderThan', [forList]);
      await cm('wl-opts', 'kept', {});
      await refused('sendInitialEvents=true', [forList], 'DELETE');
      assert.equal((await c.get(`${base}/kept`)).status, 200, 'the refused deletecollection deleted nothing');

      // What 1.30 refused ("sendInitialEvents is forbidden for watch unless the WatchList feature
      // gate is enabled") and 1.32 on serve: with or without a resourceVersion, with the value
      // spelled as any query boolean, and sendInitialEvents=false.
      for (const query of [WATCH_LIST, `${WATCH_LIST}&resourceVersion=0`, 'watch=1&sendInitialEvents=True&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=1&resourceVersion=1',
        'watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan', 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan']) {
        const w = await watch(`${base}?${query}&timeoutSeconds=1`);
        assert.match(String(w.headers['content-type']), /^application\/json/, query);
        w.close();
      }
    });

    test('ADDED for each object the selectors match, one annotated BOOKMARK at the state\'s resourceVersion, then the changes after it: resourceVersion unset, 0 and N', async () => {
      const ns = 'wl-seq';
      const base = `/api/v1/namespaces/${ns}/configmaps`;
      await cm(ns, 'a1', { app: 'a' }, { v: '0' });
      await cm(ns, 'a2', { app: 'a' });
      await cm(ns, 'b1', { app: 'b' });
      const n = await update(ns, 'a1', (o) => (o.data.v = '1')); // history the state must not replay
      await cm(ns, 'a-gone', { app: 'a' });
      assert.equal((await c.delete(`${base}/a-gone`)).status, 200);
      const written = Number((await cm(ns, 'a3', { app: 'a' })).metadata.resourceVersion);
      const N = Number(n.metadata.resourceVersion);

      const cases = [['unset', ''], ['0', '&resourceVersion=0'], ['N', `&resourceVersion=${N}`]] as const;
      const states = new Map<string, { w: WatchStream; rv: number }>();
      for (const [what, rv] of cases) {
        const w = await watch(`${base}?${WATCH_LIST}&labelSelector=app%3Da${rv}`);
        const { added, end } = await initialEvents(w, `rv ${what}`);
        assertEndMark(end, 'ConfigMap', 'v1', `rv ${what}: the end mark`);
        const stateRV = rvOf(end);
        if (what === 'unset') assert.ok(stateRV >= written, `rv unset: the latest state (${stateRV} >= ${written})`);
        if (what === 'N') assert.ok(stateRV >= N, `rv N: a state not older than N (${stateRV} >= ${N})`);
        for (const e of added) {
          assert.equal(e.object.kind, 'ConfigMap');
          assert.equal(e.object.apiVersion, 'v1');
          assert.equal(e.object.metadata.labels.app, 'a', `rv ${what}: only what the selector matches`);
          assert.ok(rvOf(e) <= stateRV, `rv ${what}: no object newer than the state`);
        }
        // The initial events are the collection exactly as it was at the end mark's resourceVersion.
        const exact = await c.get(`${base}?labelSelector=app%3Da&resourceVersion=${stateRV}&resourceVersionMatch=Exact`);
        assert.equal(exact.status, 200, exact.text);
        assert.deepEqual(added.map((e) => `${e.object.metadata.name}@${e.object.metadata.resourceVersion}`).sort(),
          exact.body.items.map((i: KubeObject) => `${i.metadata.name}@${i.metadata.resourceVersion}`).sort(), `rv ${what}: the state at ${stateRV}`);
        if (stateRV >= written) assert.deepEqual(added.map((e) => e.object.metadata.name).sort(), ['a1', 'a2', 'a3'], `rv ${what}`);
        states.set(what, { w, rv: stateRV });
      }

      // The changes after the state: a change, a new object, one leaving the selector, one never in it.
      const live = [
        await update(ns, 'a2', (o) => (o.data = { v: '2' })),
        await cm(ns, 'a4', { app: 'a' }),
        await update(ns, 'a1', (o) => (o.metadata.labels.app = 'b')),
      ];
      await cm(ns, 'b2', { app: 'b' });
      const expected = [`MODIFIED a2@${live[0]!.metadata.resourceVersion}`, `ADDED a4@${live[1]!.metadata.resourceVersion}`, `DELETED a1@${live[2]!.metadata.resourceVersion}`];
      for (const [what, { w, rv }] of states) {
        const after: WatchEvent[] = [];
        while (after.length === 0 || said(after[after.length - 1]!) !== expected[2]) {
          const e = await w.next(10_000);
          assert.ok(e, `rv ${what}: the changes after the state arrive; got ${JSON.stringify(after.map(said))}`);
          after.push(e);
        }
        let last = rv;
        for (const e of after) {
          assert.ok(rvOf(e) > last, `rv ${what}: ${said(e)} comes after ${last}, in order`);
          last = rvOf(e);
        }
        // A state older than the last write before the watch (rv 0 or N from a cache behind) is followed by what came since.
        if (rv >= written) assert.deepEqual(after.map(said), expected, `rv ${what}`);
        else assert.deepEqual(after.slice(-3).map(said), expected, `rv ${what}`);
      }
    });

    test('a watch-list of one object, by its path or by metadata.name, shows that object alone', async () => {
      const ns = 'wl-seq';
      const base = `/api/v1/namespaces/${ns}/configmaps`;
      await cm(ns, 'one', {});
      await cm(ns, 'one-more', {}); // its key has the other's as a prefix
      for (const path of [`${base}/one?${WATCH_LIST}`, `${base}?${WATCH_LIST}&fieldSelector=metadata.name%3Done`, `/api/v1/configmaps?${WATCH_LIST}&fieldSelector=metadata.name%3Done,metadata.namespace%3D${ns}`]) {
        const { added, end } = await initialEvents(await watch(path), path);
        assert.deepEqual(added.map((e) => e.object.metadata.name), ['one'], path);
        assertEndMark(end, 'ConfigMap', 'v1', path);
      }
      const { added } = await initialEvents(await watch(`${base}/nothing?${WATCH_LIST}`), 'an object that does not exist');
      assert.deepEqual(added, [], 'no object, only the end mark');
    });

    test('a node agent\'s watch-list of the pods bound to it (fieldSelector spec.nodeName, which the pod cache indexes)', async () => {
      const ns = 'wl-seq';
      await ensureDefaultServiceAccount(c, ns);
      for (const [name, nodeName] of [['p-1', 'node-a'], ['p-2', 'node-b'], ['p-3', 'node-a']]) {
        await write('POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'registry.example/app:1' }] } });
      }
      const w = await watch(`/api/v1/pods?${WATCH_LIST}&fieldSelector=spec.nodeName%3Dnode-a`);
      const { added, end } = await initialEvents(w, 'pods of node-a');
      assert.deepEqual(added.map((e) => `${e.object.kind} ${e.object.metadata.name}`).sort(), ['Pod p-1', 'Pod p-3']);
      assertEndMark(end, 'Pod', 'v1', 'pods');
    });

    test('sendInitialEvents=false: no initial events, the changes from now without a resourceVersion and from N with one', async () => {
      const ns = 'wl-opts';
      const base = `/api/v1/namespaces/${ns}/configmaps`;
      const before = await cm(ns, 'f-before', {});
      const first = await cm(ns, 'f-first', {});
      const fromNow = await watch(`${base}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
      const fromN = await watch(`${base}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=${before.metadata.resourceVersion}`);
      const next = await cm(ns, 'f-next', {});
      const events = (w: WatchStream) => w.take(2, 10_000).then((es) => es.filter((e) => e.type !== 'BOOKMARK').map(said));
      assert.deepEqual((await events(fromNow)).slice(0, 1), [`ADDED f-next@${next.metadata.resourceVersion}`], 'from now: only the write after the watch began');
      assert.deepEqual(await events(fromN), [`ADDED f-first@${first.metadata.resourceVersion}`, `ADDED f-next@${next.metadata.resourceVersion}`], 'from N: the writes after N');
    });

    test('the end mark needs allowWatchBookmarks (as upstream); a legacy watch from resourceVersion unset or 0 that allows bookmarks gets it too', async () => {
      const ns = 'wl-opts';
      const base = `/api/v1/namespaces/${ns}/configmaps`;
      await cm(ns, 'm-1', { m: 'x' });
      const noBookmarks = await watch(`${base}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&labelSelector=m%3Dx`);
      // Upstream defaults a watch from resourceVersion unset or "0" to a watch-list.
      const legacy = [await watch(`${base}?watch=true&allowWatchBookmarks=true&labelSelector=m%3Dx`), await watch(`${base}?watch=true&resourceVersion=0&allowWatchBookmarks=true&labelSelector=m%3Dx`)];
      const [added] = await noBookmarks.take(1);
      assert.equal(added && said(added).startsWith('ADDED m-1@'), true, JSON.stringify(added));
      for (const w of legacy) assert.deepEqual((await initialEvents(w, 'legacy')).added.map((e) => e.object.metadata.name), ['m-1']);
      const next = await cm(ns, 'm-2', { m: 'x' });
      assert.deepEqual((await noBookmarks.take(1)).map(said), [`ADDED m-2@${next.metadata.resourceVersion}`], 'no BOOKMARK without allowWatchBookmarks');
    });

    for (const format of ['json', 'protobuf'] as WireFormat[]) {
      test(`pkg/client in ${format}: watch({sendInitialEvents}) gets the state, the end mark and the changes`, async () => {
        const kc = writeKubeconfig(t);
        const { client } = KubeClient.fromKubeconfig(kc.path, {}, { format });
        try {
          const cms = client.resource<KubeObject>('', 'v1', 'configmaps').namespace('wl-forms');
          await cms.create({ metadata: { name: `${format}-1`, labels: { f: format } } });
          const w = await cms.watch({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true, labelSelector: `f=${format}` });
          try {
            const it = w[Symbol.asyncIterator]();
            const next = async (): Promise<KubeWatchEvent<KubeObject>> => {
              const r = await Promise.race([it.next(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no event within 10 s')), 10_000).unref())]);
              assert.ok(!r.done, 'the watch goes on');
              return r.value;
            };
            const added = await next();
            assert.equal(added.type, 'ADDED');
            assert.equal(added.object.metadata.name, `${format}-1`);
            const end = await next();
            assert.equal(end.type, 'BOOKMARK');
            assert.deepEqual(end.object.metadata.annotations, END_ANNOTATIONS);
            assert.ok(Number(end.object.metadata.resourceVersion) >= Number(added.object.metadata.resourceVersion));
            const made = await cms.create({ metadata: { name: `${format}-2`, labels: { f: format } } });
            let live = await next();
            while (live.type === 'BOOKMARK') live = await next();
            assert.deepEqual([live.type, live.object.metadata.name, live.object.metadata.resourceVersion], ['ADDED', `${format}-2`, made.metadata.resourceVersion]);
          } finally {
            w.stop();
          }
        } finally {
          client.close();
          kc.remove();
        }
      });
    }

    test('Table and PartialObjectMetadata watch-lists carry the end mark in their own form', async () => {
      const base = '/api/v1/namespaces/wl-forms/configmaps';
      await cm('wl-forms', 'tbl', { form: 'tbl' });
      const table = await watch(`${base}?${WATCH_LIST}&labelSelector=form%3Dtbl&includeObject=None`, { Accept: 'application/json;as=Table;g=meta.orch.io;v=v1' });
      const [added, end] = await table.take(2);
      assert.equal(added?.type, 'ADDED');
      assert.equal(added.object.kind, 'Table');
      assert.ok(added.object.columnDefinitions.length > 0, 'the first event carries the columns');
      assert.equal(added.object.rows[0].cells[0], 'tbl');
      assert.equal(added.object.rows[0].object, undefined, 'includeObject=None');
      assert.equal(end?.type, 'BOOKMARK');
      assert.equal(end.object.kind, 'Table');
      assert.deepEqual(end.object.columnDefinitions, []);
      assert.equal(end.object.rows.length, 1);
      // Upstream's Table keeps the end mark's metadata on its row whatever includeObject says.
      assert.deepEqual(end.object.rows[0].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1', metadata: { resourceVersion: end.object.metadata.resourceVersion, annotations: END_ANNOTATIONS } });

      const partial = await watch(`${base}?${WATCH_LIST}&labelSelector=form%3Dtbl`, { Accept: 'application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1' });
      const { added: objects, end: mark } = await initialEvents(partial, 'PartialObjectMetadata');
      assert.deepEqual(objects.map((e) => [e.object.kind, e.object.metadata.name]), [['PartialObjectMetadata', 'tbl']]);
      assert.equal(mark.object.kind, 'PartialObjectMetadata');
    });

    test('a watch-list for a resourceVersion etcd has not reached ends with an ERROR: 504 Too large resource version', async () => {
      const base = '/api/v1/namespaces/wl-opts/configmaps';
      const current = Number((await c.get(base)).body.metadata.resourceVersion);
      const w = await watch(`${base}?${WATCH_LIST}&resourceVersion=${current + 1000}`);
      const events = await w.take(2, 15_000);
      assert.equal(events.length, 1, `one event, then the end of the stream: ${JSON.stringify(events)}`);
      const [e] = events;
      assert.equal(e!.type, 'ERROR');
      assert.equal(e!.object.code, 504);
      assert.equal(e!.object.reason, 'Timeout');
      assert.match(e!.object.message, new RegExp(`^Too large resource version: ${current + 1000}, current: \\d+$`));
      assert.equal(e!.object.details.causes[0].reason, 'ResourceVersionTooLarge');
      assert.ok(w.ended() || (await w.next(5_000)) === undefined, 'the stream ends');
    });

    test('a large initial state is encoded as the connection takes it: a reader that stalls holds little of it, and gets all of it when it reads', async () => {
      const ns = 'wl-big';
      const base = `/api/v1/namespaces/${ns}/configmaps`;
      const count = 200;
      // 50 MiB in all: half of it is far more than a connection's socket buffers take (a few MiB each side).
      const payload = 'x'.repeat(250 * 1024);
      for (let i = 0; i < count; i++) await cm(ns, `big-${String(i).padStart(3, '0')}`, {}, { payload });
      const sent = async () => {
        const text = (await c.get('/metrics')).text;
        return Number(/^apiserver_watch_events_total\{[^}]*kind="ConfigMap"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0);
      };
      const before = await sent();
      const stalled: IncomingMessage = await c.openStream(`${base}?${WATCH_LIST}`);
      try {
        assert.equal(stalled.statusCode, 200);
        // What the socket's buffers take, and no more, is encoded: the count settles well below the state.
        let last = -1;
        const settled = await pollUntil(async () => {
          const prev = last;
          last = await sent();
          return { prev, now: last };
        }, (v) => v.now === v.prev, 'the events encoded for the stalled reader to settle', 15_000);
        assert.ok(settled.now - before < count / 2, `a stalled reader of ${count} events of 250 KiB had ${settled.now - before} of them encoded`);

        // Read now: every object, then the end mark.
        const names: string[] = [];
        let buf = '';
        let done = false;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`only ${names.length} events came`)), 30_000);
          stalled.setEncoding('utf8');
          stalled.on('data', (chunk: string) => {
            buf += chunk;
            for (let i = buf.indexOf('\n'); i >= 0 && !done; i = buf.indexOf('\n')) {
              const e = JSON.parse(buf.slice(0, i)) as WatchEvent;
              buf = buf.slice(i + 1);
              if (!isEnd(e)) names.push(`${e.type} ${e.object.metadata.name}`);
              else {
                done = true;
                clearTimeout(timer);
                resolve();
              }
            }
          });
          stalled.resume();
        });
        assert.equal(names.length, count);
        assert.deepEqual(new Set(names), new Set(Array.from({ length: count }, (_, i) => `ADDED big-${String(i).padStart(3, '0')}`)));
      } finally {
        stalled.destroy();
      }
    });
  });
}

describe('watch-list with --api-domain k8s.io', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ apiDomain: 'k8s.io' });
  });
  after(async () => t?.stop());

  test('the end mark carries upstream\'s annotation alone, and refusals name ListOptions.meta.k8s.io', async () => {
    const base = '/api/v1/namespaces/default/configmaps';
    assert.equal((await t.client.post(base, { metadata: { name: 'k8s' } })).status, 201);
    const w = await t.client.watch(`${base}?${WATCH_LIST}&fieldSelector=metadata.name%3Dk8s`);
    try {
      const [added, end] = await w.take(2);
      assert.equal(added?.type, 'ADDED');
      assert.equal(end?.type, 'BOOKMARK');
      assert.deepEqual(end.object.metadata.annotations, { 'k8s.io/initial-events-end': 'true' });
    } finally {
      w.close();
    }
    const r = await t.client.get(`${base}?watch=true&sendInitialEvents=true`);
    assert.equal(r.status, 422, r.text);
    assert.match(r.body.message, /^ListOptions\.meta\.k8s\.io "" is invalid: /);
  });
});
