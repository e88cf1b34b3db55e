// The watch cache (pkg/storage/cacher) through the real server: every list it answers is the
// collection exactly as etcd had it at the list's resourceVersion (checked against an Exact read
// by a second server on the same etcd without a cache, which etcd answers), consistent lists
// include every write that finished before them, resourceVersion=0 lists never go back in time,
// NotOlderThan lists include the write they name, selectors and namespaces filter as etcd's lists
// do, and chunks still form one snapshot, from memory while nothing under them changes. Run with
// ORCH_TEST_WATCH_CACHE=false as well: the same answers without the cache.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runAPIServer, type RunningAPIServer } from '../../cmd/apiserver/app/server.js';
import { Logger } from '../../pkg/log/logger.js';
import { startTestServer, testOptions, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { Client } from './framework/client.js';

type Item = { metadata: { name: string; namespace?: string; resourceVersion: string; labels?: Record<string, string> } };
const summary = (items: Item[]) => items.map((i) => `${i.metadata.namespace ?? ''}/${i.metadata.name}@${i.metadata.resourceVersion}`);

/** Lists of a core resource answered from memory so far (apiserver_cache_list_total over its label sets). */
async function cacheLists(client: Client, resource: string): Promise<number> {
  const text = (await client.get('/metrics')).text;
  let n = 0;
  for (const m of text.matchAll(new RegExp(`^apiserver_cache_list_total\\{[^}]*resource_prefix="/core/${resource}/"[^}]*\\} (\\d+)`, 'gm'))) n += Number(m[1]);
  return n;
}

/**
 * Lists `path` (a resourceVersion=0 list of `resource`) until one is answered from memory: the first
 * read starts the resource's cache, and later ones are answered from it once it is ready.
 */
async function untilListedFromMemory(client: Client, resource: string, path: string, what: string): Promise<void> {
  assert.equal((await client.get(path)).status, 200);
  const before = await cacheLists(client, resource);
  await pollUntil(async () => {
    assert.equal((await client.get(path)).status, 200);
    return cacheLists(client, resource);
  }, (n) => n > before, what);
}

describe('watch cache', () => {
  let t: TestServer;
  let c: Client;
  /** A second server on the same etcd, without a watch cache: what etcd holds, read through the API. */
  let reference: RunningAPIServer | undefined;
  let etcdClient: Client;
  const referenceCerts = mkdtempSync(join(tmpdir(), 'orch-certs-'));
  before(async () => {
    t = await startTestServer();
    c = t.client;
    reference = await runAPIServer(testOptions(t.etcd, referenceCerts, { watchCache: false }), new Logger(0, () => undefined));
    etcdClient = new Client(`https://127.0.0.1:${reference.port}`, reference.cert.cert);
    for (const ns of ['wc-a', 'wc-b', 'wc-race', 'wc-page']) assert.equal((await c.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
  });
  after(async () => {
    await reference?.stop();
    rmSync(referenceCerts, { recursive: true, force: true });
    await t?.stop();
  });

  /** ConfigMap lists answered from memory so far. */
  const configMapCacheLists = () => cacheLists(c, 'configmaps');

  /** Lists `path`, then checks the items are exactly what etcd held at the list's resourceVersion. */
  const listChecked = async (path: string, exactPath = path.split('?')[0]!) => {
    const r = await c.get(path);
    assert.equal(r.status, 200, r.text);
    const rv = r.body.metadata.resourceVersion as string;
    const sep = exactPath.includes('?') ? '&' : '?';
    const exact = await etcdClient.get(`${exactPath}${sep}resourceVersion=${rv}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 200, exact.text);
    assert.deepEqual(summary(r.body.items), summary(exact.body.items), `${path}: the items are etcd's at ${rv}`);
    return { rv: Number(rv), items: r.body.items as Item[] };
  };

  test('lists from memory are etcd\'s state at their resourceVersion, with selectors and namespaces, in key order', async () => {
    for (const ns of ['wc-a', 'wc-b']) {
      for (const [i, name] of ['m', 'b', 'z', 'a-1', 'a'].entries()) {
        const r = await c.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels: { tier: i % 2 ? 'web' : 'db' } }, data: { v: '1' } });
        assert.equal(r.status, 201, r.text);
      }
    }
    assert.equal((await c.delete('/api/v1/namespaces/wc-b/configmaps/z')).status, 200);
    const before = await configMapCacheLists();
    if (t.options.watchCache) await untilListedFromMemory(c, 'configmaps', '/api/v1/namespaces/wc-a/configmaps?resourceVersion=0', 'a resourceVersion=0 list to be answered from memory once the cache is ready');
    for (const q of ['resourceVersion=0', '', 'resourceVersion=1&resourceVersionMatch=NotOlderThan']) {
      for (const sel of ['', 'labelSelector=tier%3Dweb', 'fieldSelector=metadata.name%3Da', 'labelSelector=tier%21%3Dweb&fieldSelector=metadata.name%21%3Da']) {
        const query = [q, sel].filter(Boolean).join('&');
        const a = await listChecked(`/api/v1/namespaces/wc-a/configmaps?${query}`, `/api/v1/namespaces/wc-a/configmaps${sel ? `?${sel}` : ''}`);
        assert.ok(a.items.every((i) => i.metadata.namespace === 'wc-a'), 'only the namespace listed');
        const all = await listChecked(`/api/v1/configmaps?${query}`, `/api/v1/configmaps${sel ? `?${sel}` : ''}`);
        assert.ok(all.items.some((i) => i.metadata.namespace === 'wc-b'), 'every namespace');
      }
    }
    const a = await listChecked('/api/v1/namespaces/wc-a/configmaps?resourceVersion=0');
    assert.deepEqual(a.items.map((i) => i.metadata.name), ['a', 'a-1', 'b', 'm', 'z'], 'in key order, as etcd returns them');
    const b = await listChecked('/api/v1/namespaces/wc-b/configmaps');
    assert.deepEqual(b.items.map((i) => i.metadata.name), ['a', 'a-1', 'b', 'm'], 'the deleted one is gone');
    const web = await listChecked('/api/v1/namespaces/wc-b/configmaps?resourceVersion=0&labelSelector=tier%3Dweb', '/api/v1/namespaces/wc-b/configmaps?labelSelector=tier%3Dweb');
    assert.deepEqual(web.items.map((i) => i.metadata.name), ['a-1', 'b']);
    if (t.options.watchCache) assert.ok((await configMapCacheLists()) > before, 'the lists were answered from memory');
  });

  test('objects from memory go out in every representation (they are shared and frozen: nothing may change them)', async () => {
    const accepts = [
      'application/json', 'application/yaml', 'application/vnd.orch.protobuf',
      'application/json;as=Table;g=meta.orch.io;v=v1', 'application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1',
      'application/json;as=PartialObjectMetadataList;g=meta.orch.io;v=v1',
    ];
    for (const accept of accepts) {
      for (const path of ['/api/v1/namespaces/wc-a/configmaps?resourceVersion=0', '/api/v1/namespaces/wc-a/configmaps', '/api/v1/namespaces/wc-a/configmaps/a?resourceVersion=0']) {
        if (accept.includes('PartialObjectMetadataList') && path.includes('/a?')) continue;
        if (accept.includes('as=PartialObjectMetadata;') && !path.includes('/a?')) continue;
        for (let i = 0; i < 2; i++) {
          const r = await c.get(path, { headers: { Accept: accept } });
          assert.equal(r.status, 200, `${accept} ${path}: ${r.text}`);
        }
      }
    }
    // A list of objects written with managed fields still shows them after other readers had them.
    const full = await c.get('/api/v1/namespaces/wc-a/configmaps/a?resourceVersion=0');
    assert.ok(full.body.metadata.managedFields?.length > 0);
  });

  test('pods are indexed by spec.nodeName, as upstream: field selectors on it answer from the index', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    for (const [name, node] of [['p-1', 'n1'], ['p-2', 'n2'], ['p-3', 'n1'], ['p-4', '']] as const) {
      const r = await c.post(pods, { metadata: { name }, spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: 'c', image: 'img' }] } });
      assert.equal(r.status, 201, r.text);
    }
    const indexed = async () => {
      const text = (await c.get('/metrics')).text;
      return Number(/^apiserver_cache_list_total\{index="f:spec.nodeName",resource_prefix="\/core\/pods\/"\} (\d+)/m.exec(text)?.[1] ?? 0);
    };
    await c.get(`${pods}?resourceVersion=0`); // starts the pods cache
    const deadline = Date.now() + 10_000;
    const before = await indexed();
    for (const q of ['resourceVersion=0&', '', 'resourceVersion=1&resourceVersionMatch=NotOlderThan&']) {
      for (const [sel, want] of [['spec.nodeName%3Dn1', ['p-1', 'p-3']], ['spec.nodeName%3D', ['p-4']], ['spec.nodeName%3Dn2,metadata.name%21%3Dp-2', []]] as const) {
        for (;;) {
          const r = await listChecked(`${pods}?${q}fieldSelector=${sel}`, `${pods}?fieldSelector=${sel}`);
          assert.deepEqual(r.items.map((i) => i.metadata.name), want, sel);
          if (!t.options.watchCache || (await indexed()) > before || q) break;
          assert.ok(Date.now() < deadline, 'the pods cache starts');
        }
      }
    }
    if (t.options.watchCache) assert.ok((await indexed()) > before, 'lists were answered through the index');
  });

  test('a resourceVersion=0 list with a limit is chunked, and its chunks are one snapshot', async () => {
    const ns = 'wc-a';
    let token = '';
    let rv = '';
    const got: Item[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await c.get(`/api/v1/namespaces/${ns}/configmaps?limit=2${token ? `&continue=${encodeURIComponent(token)}` : '&resourceVersion=0'}`);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.body.items.length <= 2);
      if (rv) assert.equal(r.body.metadata.resourceVersion, rv, 'every chunk has the first one\'s resourceVersion');
      rv = r.body.metadata.resourceVersion;
      got.push(...r.body.items);
      token = r.body.metadata.continue ?? '';
      if (!token) break;
      // A change between chunks is not seen by the later ones.
      if (i === 0) assert.equal((await c.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'zz-between' } })).status, 201);
    }
    assert.equal(token, '', 'the chunks end');
    const exact = await etcdClient.get(`/api/v1/namespaces/${ns}/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    assert.deepEqual(summary(got), summary(exact.body.items));
    assert.ok(!got.some((i) => i.metadata.name === 'zz-between'));
  });

  /** Reads a list chunk by chunk (`limit`), calling `between` after each chunk; answers the items, the resourceVersion and how many chunks memory answered. */
  const chunked = async (path: string, limit: number, between: (chunk: number) => Promise<void> = async () => undefined) => {
    const fromMemoryBefore = await configMapCacheLists();
    const items: Item[] = [];
    let token = '';
    let rv = '';
    let chunks = 0;
    do {
      const r = await c.get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.body.items.length <= limit);
      if (rv) assert.equal(r.body.metadata.resourceVersion, rv, 'every chunk has the first one\'s resourceVersion');
      rv = r.body.metadata.resourceVersion;
      items.push(...r.body.items);
      token = r.body.metadata.continue ?? '';
      await between(chunks++);
    } while (token);
    return { items, rv, chunks, fromMemory: (await configMapCacheLists()) - fromMemoryBefore };
  };

  /** Asserts `items` are exactly what etcd held under `path` at `rv`. */
  const assertEtcdHeld = async (path: string, rv: string, items: Item[]) => {
    const exact = await etcdClient.get(`${path}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 200, exact.text);
    assert.deepEqual(summary(items), summary(exact.body.items), `the chunks are etcd's state at ${rv}`);
  };

  test('a consistent list in chunks is one snapshot, answered from memory while nothing under it changes', async () => {
    const base = '/api/v1/namespaces/wc-page/configmaps';
    for (let i = 0; i < 7; i++) assert.equal((await c.post(base, { metadata: { name: `p-${i}` } })).status, 201);
    // Writes elsewhere between chunks (another namespace) leave the chunks to memory.
    const calm = await chunked(base, 2, async (i) => {
      assert.equal((await c.post('/api/v1/namespaces/wc-b/configmaps', { metadata: { name: `elsewhere-${i}` } })).status, 201);
    });
    assert.deepEqual(calm.items.map((i) => i.metadata.name), ['p-0', 'p-1', 'p-2', 'p-3', 'p-4', 'p-5', 'p-6']);
    assert.equal(calm.chunks, 4);
    await assertEtcdHeld(base, calm.rv, calm.items);
    if (t.options.watchCache) {
      // The first chunk waits until the cache is confirmed current; a slow confirmation leaves it to etcd.
      assert.ok(calm.fromMemory >= 3, `the continued chunks come from memory (${calm.fromMemory} of 4 did)`);
    }
    // Across every namespace.
    const wide = await chunked('/api/v1/configmaps', 3);
    await assertEtcdHeld('/api/v1/configmaps', wide.rv, wide.items);

    // Writes under the list between chunks: later chunks still show the first chunk's state (from etcd).
    const busy = await chunked(base, 2, async (i) => {
      if (i === 0) assert.equal((await c.post(base, { metadata: { name: 'p-9-between' } })).status, 201);
      if (i === 1) assert.equal((await c.delete(`${base}/p-6`)).status, 200);
      if (i === 2) assert.equal((await c.put(`${base}/p-5`, { metadata: { name: 'p-5' }, data: { changed: 'yes' } })).status, 200);
    });
    assert.deepEqual(busy.items.map((i) => i.metadata.name), ['p-0', 'p-1', 'p-2', 'p-3', 'p-4', 'p-5', 'p-6'], 'neither the create, the delete nor the update after the first chunk');
    await assertEtcdHeld(base, busy.rv, busy.items);
    // An Exact list of a version the namespace has changed since is etcd's too.
    const old = await c.get(`${base}?resourceVersion=${calm.rv}&resourceVersionMatch=Exact`);
    assert.equal(old.status, 200, old.text);
    assert.deepEqual(summary(old.body.items), summary(calm.items));
  });

  test('gets with a resourceVersion see at least that version; NotOlderThan lists include the write they name', async () => {
    const base = '/api/v1/namespaces/wc-b/configmaps';
    for (let i = 0; i < 20; i++) {
      const w = await c.put(`${base}/m`, { metadata: { name: 'm' }, data: { v: String(i) } });
      assert.equal(w.status, 200, w.text);
      const rv = w.body.metadata.resourceVersion;
      const g = await c.get(`${base}/m?resourceVersion=${rv}`);
      assert.equal(g.status, 200, g.text);
      assert.ok(Number(g.body.metadata.resourceVersion) >= Number(rv), 'a get not older than the write');
      const l = await c.get(`${base}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`);
      assert.equal(l.status, 200, l.text);
      assert.ok(Number(l.body.metadata.resourceVersion) >= Number(rv));
      assert.equal(l.body.items.find((o: Item) => o.metadata.name === 'm')?.metadata.resourceVersion, rv, 'the write is in the list');
      const g0 = await c.get(`${base}/m?resourceVersion=0`);
      assert.equal(g0.status, 200, g0.text);
    }
    assert.equal((await c.get(`${base}/none?resourceVersion=0`)).status, 404);
  });

  test('with writers and deleters running, consistent lists include every finished write and rv=0 lists never go back', async (tc) => {
    const ns = 'wc-race';
    const base = `/api/v1/namespaces/${ns}/configmaps`;
    let stop = false;
    const errors: string[] = [];
    // Background churn in the same namespace: creates and deletes of other keys.
    const churn = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const name = `churn-${w}-${i % 5}`;
        const r = await c.post(base, { metadata: { name } });
        if (r.status !== 201 && r.status !== 409) errors.push(`create ${name}: ${r.status}`);
        const d = await c.delete(`${base}/${name}`);
        if (d.status !== 200 && d.status !== 404) errors.push(`delete ${name}: ${d.status}`);
      }
    };
    const writers = [churn(0), churn(1)];
    let lastZero = 0;
    const fromMemoryBefore = await configMapCacheLists();
    try {
      for (let round = 0; round < 40; round++) {
        const name = `probe-${round}`;
        const created = await c.post(base, { metadata: { name } });
        assert.equal(created.status, 201, created.text);
        const after = await c.get(base);
        assert.equal(after.status, 200, after.text);
        assert.ok(Number(after.body.metadata.resourceVersion) >= Number(created.body.metadata.resourceVersion), 'a consistent list is not older than a finished write');
        assert.equal(after.body.items.find((o: Item) => o.metadata.name === name)?.metadata.resourceVersion, created.body.metadata.resourceVersion, `round ${round}: a consistent list includes the create that finished before it`);
        assert.equal((await c.delete(`${base}/${name}`)).status, 200);
        const gone = await c.get(base);
        assert.ok(!gone.body.items.some((o: Item) => o.metadata.name === name), `round ${round}: a consistent list right after a delete does not have the object`);
        const zero = await c.get(`${base}?resourceVersion=0`);
        assert.equal(zero.status, 200, zero.text);
        const zrv = Number(zero.body.metadata.resourceVersion);
        assert.ok(zrv >= lastZero, `round ${round}: a resourceVersion=0 list (${zrv}) is not older than an earlier one (${lastZero})`);
        lastZero = zrv;
      }
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    assert.deepEqual(errors, []);
    // 40 resourceVersion=0 lists and 80 consistent ones: the consistent ones too are answered from
    // memory, unless the cache could not confirm it was current in time (then etcd answers).
    const fromMemory = (await configMapCacheLists()) - fromMemoryBefore;
    tc.diagnostic(`${fromMemory} of 120 lists answered from memory`);
    if (t.options.watchCache) assert.ok(fromMemory > 40, `consistent lists are answered from memory (${fromMemory} of 120 lists were)`);
  });
});

describe('--watch-cache-sizes', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ watchCacheSizes: ['configmaps#0'] });
  });
  after(async () => t?.stop());

  test('a resource of size 0 stays out of the cache (its reads go to etcd) while the others are cached', async () => {
    const base = '/api/v1/namespaces/default';
    assert.equal((await t.client.post(`${base}/configmaps`, { metadata: { name: 'sized' } })).status, 201);
    assert.equal((await t.client.post(`${base}/secrets`, { metadata: { name: 'sized' } })).status, 201);
    if (t.options.watchCache) await untilListedFromMemory(t.client, 'secrets', `${base}/secrets?resourceVersion=0`, 'secrets to be answered from memory once their cache is ready');
    for (let i = 0; i < 5; i++) {
      const r = await t.client.get(`${base}/configmaps?resourceVersion=0`);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.body.items.some((o: Item) => o.metadata.name === 'sized'));
    }
    assert.equal(await cacheLists(t.client, 'configmaps'), 0, 'no ConfigMap list came from memory');
  });
});
