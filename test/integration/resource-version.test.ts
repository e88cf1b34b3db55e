// resourceVersion as a client sees it (spec 4.5, 4.6, 7): get with unset / 0 / non-zero, every
// combination of resourceVersion, resourceVersionMatch and paging on list, the invalid ones, reads
// ahead of etcd (wait, then 504 "Too large resource version" with Retry-After) and reads behind
// etcd's compacted history (410 Expired).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { assertBadRequest } from './framework/assertions.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import type { Client, Response } from './framework/client.js';

/** The name, resourceVersion and data of every item, in list order. */
function summary(items: any[]): string[] {
  return items.map((i) => `${i.metadata.name}@${i.metadata.resourceVersion}:${JSON.stringify(i.data ?? {})}`);
}


function assertTooLarge(r: Response, what: string): void {
  assert.equal(r.status, 504, `${what}: ${r.text}`);
  assert.equal(r.body.kind, 'Status', what);
  assert.equal(r.body.code, 504, what);
  assert.equal(r.body.reason, 'Timeout', what);
  assert.match(r.body.message, /Too large resource version/, what);
  assert.match(String(r.headers['retry-after']), /^\d+$/, `${what}: a Retry-After header in seconds`);
}

function assertExpired(r: Response, what: string): void {
  assert.equal(r.status, 410, `${what}: ${r.text}`);
  assert.equal(r.body.kind, 'Status', what);
  assert.equal(r.body.code, 410, what);
  assert.equal(r.body.reason, 'Expired', what);
}

describe('resourceVersion semantics', () => {
  let t: TestServer;
  let c: Client;

  const cm = async (ns: string, name: string, data: Record<string, string> = { v: '1' }) => {
    const r = await c.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data });
    assert.equal(r.status, 201, r.text);
    return r.body;
  };
  /** etcd's current revision, as the resourceVersion of a fresh list. */
  const currentRV = async (): Promise<number> => {
    const r = await c.get('/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 200, r.text);
    return Number(r.body.metadata.resourceVersion);
  };
  /** Reads the rest of a chunked list; every chunk must carry the first chunk's resourceVersion. */
  const readAll = async (path: string, first: Response): Promise<any[]> => {
    assert.equal(first.status, 200, first.text);
    const items = [...first.body.items];
    let page = first;
    for (let i = 0; page.body.metadata.continue; i++) {
      assert.ok(i < 50, 'the chunks end');
      page = await c.get(`${path}?limit=2&continue=${encodeURIComponent(page.body.metadata.continue)}`);
      assert.equal(page.status, 200, page.text);
      assert.equal(page.body.metadata.resourceVersion, first.body.metadata.resourceVersion, 'every chunk has the resourceVersion of the first');
      items.push(...page.body.items);
    }
    return items;
  };

  before(async () => {
    t = await startTestServer();
    c = t.client;
    for (const ns of ['rv-get', 'rv-list', 'rv-ahead', 'rv-old', 'rv-gone']) {
      const r = await c.post('/api/v1/namespaces', { metadata: { name: ns } });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => t?.stop());

  test('get: unset reads the latest, 0 reads any version, non-zero reads one not older than it', async () => {
    const created = await cm('rv-get', 'x');
    const rv1 = created.metadata.resourceVersion;
    const patched = await c.patch('/api/v1/namespaces/rv-get/configmaps/x', { data: { v: '2' } });
    assert.equal(patched.status, 200, patched.text);
    const rv2 = patched.body.metadata.resourceVersion;
    assert.ok(Number(rv2) > Number(rv1));

    const latest = await c.get('/api/v1/namespaces/rv-get/configmaps/x');
    assert.equal(latest.status, 200, latest.text);
    assert.equal(latest.body.metadata.resourceVersion, rv2);
    assert.equal(latest.body.data.v, '2');

    const any = await c.get('/api/v1/namespaces/rv-get/configmaps/x?resourceVersion=0');
    assert.equal(any.status, 200, any.text);
    assert.ok([rv1, rv2].includes(any.body.metadata.resourceVersion), `rv=0 returns one of the object's versions, got ${any.body.metadata.resourceVersion}`);
    assert.equal(any.body.data.v, any.body.metadata.resourceVersion === rv1 ? '1' : '2');

    // Not older than the first version: either version qualifies, but it must be a real one.
    const notOlder1 = await c.get(`/api/v1/namespaces/rv-get/configmaps/x?resourceVersion=${rv1}`);
    assert.equal(notOlder1.status, 200, notOlder1.text);
    assert.ok(Number(notOlder1.body.metadata.resourceVersion) >= Number(rv1));
    assert.ok([rv1, rv2].includes(notOlder1.body.metadata.resourceVersion));
    // Not older than the second: only the second qualifies.
    const notOlder2 = await c.get(`/api/v1/namespaces/rv-get/configmaps/x?resourceVersion=${rv2}`);
    assert.equal(notOlder2.status, 200, notOlder2.text);
    assert.equal(notOlder2.body.metadata.resourceVersion, rv2);
    assert.equal(notOlder2.body.data.v, '2');
    // Newer than the object but not newer than etcd: fine, the latest state.
    const cur = await currentRV();
    const atCurrent = await c.get(`/api/v1/namespaces/rv-get/configmaps/x?resourceVersion=${cur}`);
    assert.equal(atCurrent.status, 200, atCurrent.text);
    assert.equal(atCurrent.body.metadata.resourceVersion, rv2);

    const missing = await c.get(`/api/v1/namespaces/rv-get/configmaps/nope?resourceVersion=${rv2}`);
    assert.equal(missing.status, 404, missing.text);
    assertBadRequest(await c.get('/api/v1/namespaces/rv-get/configmaps/x?resourceVersion=abc'), 'get with a non-numeric resourceVersion');
  });

  test('list: every combination of resourceVersion, resourceVersionMatch and limit of the table in 4.6', async () => {
    const base = '/api/v1/namespaces/rv-list/configmaps';
    const a1 = await cm('rv-list', 'a');
    const b1 = await cm('rv-list', 'b');
    const c1 = await cm('rv-list', 'c');
    const rv0 = await currentRV();
    assert.ok(rv0 >= Number(c1.metadata.resourceVersion));
    const atRv0 = summary([a1, b1, c1]);
    // Changes after rv0: a modified, c deleted, d created.
    const a2 = await c.patch(`${base}/a`, { data: { v: '2' } });
    assert.equal(a2.status, 200, a2.text);
    assert.equal((await c.delete(`${base}/c`)).status, 200);
    const d1 = await cm('rv-list', 'd');
    const latestRV = Number(d1.metadata.resourceVersion);
    const latest = summary([a2.body, b1, d1]);

    /** The unpaged Exact list at `rv`: what the collection was at that version. */
    const snapshot = async (rv: string): Promise<string[]> => {
      const r = await c.get(`${base}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.metadata.resourceVersion, rv);
      return summary(r.body.items);
    };
    type Semantic = 'Most Recent' | 'Any' | 'Not older than' | 'Exact';
    const check = async (query: string, semantic: Semantic) => {
      const what = `list ?${query} (${semantic})`;
      const first = await c.get(`${base}?${query}`);
      assert.equal(first.status, 200, `${what}: ${first.text}`);
      assert.equal(first.body.kind, 'ConfigMapList', what);
      assert.match(first.body.metadata.resourceVersion, /^\d+$/, what);
      const rv = first.body.metadata.resourceVersion;
      const expected = await snapshot(rv);
      if (query.includes('limit=2')) {
        assert.ok(first.body.items.length <= 2, `${what}: a chunk holds at most limit items`);
        assert.equal(!!first.body.metadata.continue, expected.length > 2, `${what}: a continue token exactly when more items exist`);
      } else {
        assert.equal(first.body.metadata.continue ?? '', '', `${what}: an unchunked list has no continue`);
      }
      const items = summary(await readAll(base, first));
      // Whatever the semantic, the items are the collection as it was at the returned version.
      assert.deepEqual(items, expected, `${what}: the items are the collection at metadata.resourceVersion ${rv}`);
      switch (semantic) {
        case 'Most Recent':
          assert.ok(Number(rv) >= latestRV, `${what}: ${rv} is the latest (>= ${latestRV})`);
          assert.deepEqual(items, latest, what);
          break;
        case 'Not older than':
          assert.ok(Number(rv) >= rv0, `${what}: ${rv} is not older than ${rv0}`);
          break;
        case 'Exact':
          assert.equal(rv, String(rv0), `${what}: metadata.resourceVersion is the requested one`);
          assert.deepEqual(items, atRv0, `${what}: the collection as it was at ${rv0}`);
          break;
        case 'Any':
          break;
      }
    };

    // Every cell is checked even when an earlier one fails, so one run reports them all.
    const problems: string[] = [];
    const soft = async (what: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (e) {
        problems.push(`${what}: ${(e as Error).message.split('\n')[0]!.slice(0, 400)}`);
      }
    };
    const expect400 = (what: string, query: string) =>
      soft(`?${query}`, async () => assertBadRequest(await c.get(`${base}?${query}`), what));

    // resourceVersionMatch unset, limit unset.
    await soft('rv unset', () => check('', 'Most Recent'));
    await soft('rv 0', () => check('resourceVersion=0', 'Any'));
    await soft('rv non-zero', () => check(`resourceVersion=${rv0}`, 'Not older than'));
    // resourceVersionMatch unset, limit=n, no continue.
    await soft('limit, rv unset', () => check('limit=2', 'Most Recent'));
    await soft('limit, rv 0', () => check('limit=2&resourceVersion=0', 'Any'));
    await soft('limit, rv non-zero', () => check(`limit=2&resourceVersion=${rv0}`, 'Exact'));
    // Exact, with and without limit.
    await soft('Exact', () => check(`resourceVersion=${rv0}&resourceVersionMatch=Exact`, 'Exact'));
    await soft('Exact, limit', () => check(`limit=2&resourceVersion=${rv0}&resourceVersionMatch=Exact`, 'Exact'));
    // NotOlderThan, with and without limit.
    await soft('NotOlderThan, rv 0', () => check('resourceVersion=0&resourceVersionMatch=NotOlderThan', 'Any'));
    await soft('NotOlderThan', () => check(`resourceVersion=${rv0}&resourceVersionMatch=NotOlderThan`, 'Not older than'));
    await soft('NotOlderThan, limit, rv 0', () => check('limit=2&resourceVersion=0&resourceVersionMatch=NotOlderThan', 'Any'));
    await soft('NotOlderThan, limit', () => check(`limit=2&resourceVersion=${rv0}&resourceVersionMatch=NotOlderThan`, 'Not older than'));

    // limit=n with a continue token: the version kept inside the token.
    const firstExact = await c.get(`${base}?limit=2&resourceVersion=${rv0}&resourceVersionMatch=Exact`);
    assert.equal(firstExact.status, 200, firstExact.text);
    assert.deepEqual(summary(firstExact.body.items), atRv0.slice(0, 2));
    const token = encodeURIComponent(firstExact.body.metadata.continue);
    for (const rvParam of ['', '&resourceVersion=0']) {
      await soft(`continue${rvParam}`, async () => {
        const next = await c.get(`${base}?limit=2&continue=${token}${rvParam}`);
        assert.equal(next.status, 200, next.text);
        assert.equal(next.body.metadata.resourceVersion, String(rv0), "the token's version");
        assert.deepEqual(summary(next.body.items), atRv0.slice(2), `the rest of the collection at ${rv0}`);
        assert.equal(next.body.metadata.continue ?? '', '', 'the last chunk has an empty continue');
      });
    }
    await expect400('continue with a non-zero resourceVersion', `limit=2&continue=${token}&resourceVersion=${rv0}`);
    await expect400('continue with the latest resourceVersion', `limit=2&continue=${token}&resourceVersion=${latestRV}`);
    await expect400('continue with Exact', `limit=2&continue=${token}&resourceVersion=${rv0}&resourceVersionMatch=Exact`);
    await expect400('continue with NotOlderThan', `limit=2&continue=${token}&resourceVersion=${rv0}&resourceVersionMatch=NotOlderThan`);
    await expect400('continue with NotOlderThan and 0', `limit=2&continue=${token}&resourceVersion=0&resourceVersionMatch=NotOlderThan`);

    // The invalid cells of the table.
    for (const limit of ['', 'limit=2&']) {
      await expect400('Exact without resourceVersion', `${limit}resourceVersionMatch=Exact`);
      await expect400('Exact with resourceVersion 0', `${limit}resourceVersion=0&resourceVersionMatch=Exact`);
      await expect400('NotOlderThan without resourceVersion', `${limit}resourceVersionMatch=NotOlderThan`);
      // An empty resourceVersion is an unset one.
      await expect400('Exact with an empty resourceVersion', `${limit}resourceVersion=&resourceVersionMatch=Exact`);
      await expect400('NotOlderThan with an empty resourceVersion', `${limit}resourceVersion=&resourceVersionMatch=NotOlderThan`);
      await expect400('an unknown resourceVersionMatch', `${limit}resourceVersion=${rv0}&resourceVersionMatch=Newest`);
      await expect400('resourceVersionMatch is case-sensitive', `${limit}resourceVersion=${rv0}&resourceVersionMatch=exact`);
      await expect400('a non-numeric resourceVersion', `${limit}resourceVersion=abc`);
    }
    assert.equal(problems.length, 0, `cells of the table the server gets wrong:\n${problems.join('\n')}`);
  });

  test('an Exact list at an older version shows the collection as it was, for namespaced, status-bearing and cluster-scoped kinds', async () => {
    // The example of the issue: create three, note the version, delete one.
    for (const n of ['one', 'two', 'three']) await cm('rv-old', n);
    const noted = await currentRV();
    assert.equal((await c.delete('/api/v1/namespaces/rv-old/configmaps/two')).status, 200);
    const now = await c.get('/api/v1/namespaces/rv-old/configmaps');
    assert.deepEqual(now.body.items.map((i: any) => i.metadata.name), ['one', 'three']);
    const then = await c.get(`/api/v1/namespaces/rv-old/configmaps?resourceVersion=${noted}&resourceVersionMatch=Exact`);
    assert.equal(then.status, 200, then.text);
    assert.equal(then.body.metadata.resourceVersion, String(noted));
    assert.deepEqual(then.body.items.map((i: any) => i.metadata.name), ['one', 'three', 'two']);

    // A status write after the noted version is not in the Exact list.
    const rq = await c.post('/api/v1/namespaces/rv-old/resourcequotas', { metadata: { name: 'quota' }, spec: { hard: { pods: '10' } } });
    assert.equal(rq.status, 201, rq.text);
    const beforeStatus = await currentRV();
    const st = await c.put('/api/v1/namespaces/rv-old/resourcequotas/quota/status', { ...rq.body, status: { hard: { pods: '10' }, used: { pods: '4' } } });
    assert.equal(st.status, 200, st.text);
    const rqThen = await c.get(`/api/v1/namespaces/rv-old/resourcequotas?resourceVersion=${beforeStatus}&resourceVersionMatch=Exact`);
    assert.equal(rqThen.status, 200, rqThen.text);
    assert.equal(rqThen.body.metadata.resourceVersion, String(beforeStatus));
    assert.equal(rqThen.body.items.length, 1);
    assert.equal(rqThen.body.items[0].status?.used, undefined, 'the quota as it was before its status was written');
    assert.equal(rqThen.body.items[0].metadata.resourceVersion, rq.body.metadata.resourceVersion);
    const rqNow = await c.get('/api/v1/namespaces/rv-old/resourcequotas');
    assert.equal(rqNow.body.items[0].status.used.pods, '4');

    // Cluster-scoped: a namespace created after the noted version is not there.
    const nsBefore = await currentRV();
    assert.equal((await c.post('/api/v1/namespaces', { metadata: { name: 'rv-later' } })).status, 201);
    const nsThen = await c.get(`/api/v1/namespaces?resourceVersion=${nsBefore}&resourceVersionMatch=Exact`);
    assert.equal(nsThen.status, 200, nsThen.text);
    assert.equal(nsThen.body.metadata.resourceVersion, String(nsBefore));
    const thenNames = nsThen.body.items.map((i: any) => i.metadata.name);
    assert.ok(thenNames.includes('rv-old') && !thenNames.includes('rv-later'), thenNames.join(','));
    const nsPaged = await c.get(`/api/v1/namespaces?limit=1&resourceVersion=${nsBefore}`);
    assert.equal(nsPaged.body.metadata.resourceVersion, String(nsBefore), 'limit with a non-zero version is Exact for cluster-scoped kinds too');
  });

  test('a resourceVersion that is no uint64 is refused at once with the same 400 by get, list and watch', async () => {
    const base = '/api/v1/namespaces/rv-get/configmaps';
    for (const [rv, why] of [['99999999999999999999', 'value out of range'], ['-1', 'invalid syntax'], ['1e3', 'invalid syntax']] as const) {
      const message = `invalid resource version: resourceVersion: Invalid value: "${rv}": strconv.ParseUint: parsing "${rv}": ${why}`;
      const started = Date.now();
      for (const [verb, path] of [['get', `${base}/x`], ['list', base], ['watch', `${base}?watch=true&timeoutSeconds=5`]] as const) {
        const r = await c.get(`${path}${path.includes('?') ? '&' : '?'}resourceVersion=${rv}`);
        assertBadRequest(r, `${verb} resourceVersion=${rv}`);
        assert.equal(r.body.message, message, verb);
      }
      assert.ok(Date.now() - started < 2500, 'refused, not waited for as a version etcd has yet to reach');
    }
    // The largest uint64 is a well-formed version, only far ahead of etcd.
    assertTooLarge(await c.get(`${base}?resourceVersion=18446744073709551615`), 'the largest uint64');
  });

  test('a resourceVersion newer than etcd waits briefly, then answers 504 "Too large resource version" with Retry-After', async () => {
    await cm('rv-ahead', 'here');
    const far = (await currentRV()) + 1000;
    const base = '/api/v1/namespaces/rv-ahead/configmaps';
    const cases: [string, string][] = [
      ['get', `${base}/here?resourceVersion=${far}`],
      ['list, not older than', `${base}?resourceVersion=${far}`],
      ['list, limit (Exact)', `${base}?limit=1&resourceVersion=${far}`],
      ['list, Exact', `${base}?resourceVersion=${far}&resourceVersionMatch=Exact`],
      ['list, Exact with limit', `${base}?limit=1&resourceVersion=${far}&resourceVersionMatch=Exact`],
      ['list, NotOlderThan', `${base}?resourceVersion=${far}&resourceVersionMatch=NotOlderThan`],
      ['list, NotOlderThan with limit', `${base}?limit=1&resourceVersion=${far}&resourceVersionMatch=NotOlderThan`],
      ['cluster-scoped list', `/api/v1/namespaces?resourceVersion=${far}`],
    ];
    const started = Date.now();
    const answers = await Promise.all(cases.map(([, path]) => c.get(path)));
    answers.forEach((r, i) => assertTooLarge(r, cases[i]![0]));
    assert.ok(Date.now() - started < 20_000, 'answered within a generous bound');
    // Nothing was written meanwhile: the object is still there, unchanged.
    assert.equal((await c.get(`${base}/here`)).status, 200);
  });

  test('a read slightly ahead of etcd is answered once etcd reaches that version', async () => {
    const base = '/api/v1/namespaces/rv-ahead/configmaps';
    const next = (await currentRV()) + 1;
    // The object asked for does not exist yet; the write that creates it is what etcd waits for.
    const pending = Promise.all([
      c.get(`${base}/late?resourceVersion=${next}`),
      c.get(`${base}?resourceVersion=${next}`),
      c.get(`${base}?resourceVersion=${next}&resourceVersionMatch=NotOlderThan`),
      c.get(`${base}?resourceVersion=${next}&resourceVersionMatch=Exact`),
    ]);
    await new Promise((r) => setTimeout(r, 300));
    const late = await cm('rv-ahead', 'late');
    const [got, notOlder, notOlderMatch, exact] = await pending;
    assert.equal(got!.status, 200, `get waits for the version: ${got!.text}`);
    assert.equal(got!.body.metadata.name, 'late');
    for (const [what, r] of [['not older than', notOlder!], ['NotOlderThan', notOlderMatch!]] as const) {
      assert.equal(r.status, 200, `${what}: ${r.text}`);
      assert.ok(Number(r.body.metadata.resourceVersion) >= next, what);
      assert.ok(r.body.items.some((i: any) => i.metadata.name === 'late'), `${what}: the list holds the object written meanwhile`);
    }
    assert.equal(exact!.status, 200, exact!.text);
    assert.equal(exact!.body.metadata.resourceVersion, String(next));
    const hasLate = exact!.body.items.some((i: any) => i.metadata.name === 'late');
    assert.equal(hasLate, Number(late.metadata.resourceVersion) <= next, 'the Exact list is the collection at that version');
  });

  // Last: compacts etcd's history, which the tests above rely on.
  test('versions older than the compacted history are 410 Expired for Exact lists, continue tokens and watches', async () => {
    const base = '/api/v1/namespaces/rv-gone/configmaps';
    for (const n of ['g1', 'g2', 'g3']) await cm('rv-gone', n);
    const old = await currentRV();
    const first = await c.get(`${base}?limit=1`);
    assert.equal(first.status, 200, first.text);
    const token = first.body.metadata.continue;
    assert.ok(token);
    assert.equal((await c.delete(`${base}/g2`)).status, 200);
    await cm('rv-gone', 'g4');
    const compactTo = await currentRV();
    const etcd = new Etcd3({ hosts: t.etcd.endpoint });
    try {
      await etcd.kv.compact({ revision: compactTo, physical: true });
    } finally {
      etcd.close();
    }

    assertExpired(await c.get(`${base}?resourceVersion=${old}&resourceVersionMatch=Exact`), 'Exact list at a compacted version');
    assertExpired(await c.get(`${base}?limit=1&resourceVersion=${old}`), 'limit with a compacted version (Exact)');
    assertExpired(await c.get(`${base}?limit=1&continue=${encodeURIComponent(token)}`), 'continue token of a compacted version');

    // Reads that do not need the history still work.
    const notOlder = await c.get(`${base}?resourceVersion=${old}`);
    assert.equal(notOlder.status, 200, notOlder.text);
    assert.deepEqual(notOlder.body.items.map((i: any) => i.metadata.name), ['g1', 'g3', 'g4']);
    assert.equal((await c.get(`${base}?resourceVersion=0`)).status, 200);
    assert.equal((await c.get(`${base}/g1?resourceVersion=${old}`)).status, 200);
    const fresh = await c.get(`${base}?resourceVersion=${compactTo}&resourceVersionMatch=Exact`);
    assert.equal(fresh.status, 200, 'the compaction revision itself is still readable');

    // A watch from a compacted version: 410, either as the answer or as an ERROR event ending the stream.
    const w = await c.watch(`${base}?watch=true&resourceVersion=${old}`);
    try {
      if (w.status === 200) {
        const ev = await w.next(10_000);
        assert.equal(ev?.type, 'ERROR', `a watch from a compacted version fails: ${JSON.stringify(ev)}`);
        assert.equal(ev!.object.kind, 'Status');
        assert.equal(ev!.object.code, 410, `the ERROR event carries 410 Expired: ${JSON.stringify(ev!.object)}`);
        assert.equal(ev!.object.reason, 'Expired');
        assert.equal(await w.next(5_000), undefined, 'the stream ends after the ERROR event');
      } else {
        assert.equal(w.status, 410);
      }
    } finally {
      w.close();
    }
    // A watch from the compaction revision on is fine and sees later writes.
    const w2 = await c.watch(`${base}?watch=true&resourceVersion=${compactTo}`);
    try {
      assert.equal(w2.status, 200);
      const g5 = await cm('rv-gone', 'g5');
      const ev = await w2.next();
      assert.equal(ev?.type, 'ADDED');
      assert.equal(ev!.object.metadata.name, 'g5');
      assert.equal(ev!.object.metadata.resourceVersion, g5.metadata.resourceVersion);
    } finally {
      w2.close();
    }
  });
});
