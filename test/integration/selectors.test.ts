// Label and field selectors (spec 4.3, 4.5): every label operator on list, watch and
// deletecollection; the selectable fields of ConfigMap, Namespace and Secret; malformed selectors
// and unsupported fields are 400; a label-selected watch sees objects enter and leave.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertBadRequest } from './framework/assertions.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import type { Client, Response, WatchEvent, WatchStream } from './framework/client.js';

/** The objects every selector runs against. */
const population: Record<string, Record<string, string>> = {
  a: { app: 'web', tier: 'frontend', env: 'prod' },
  b: { app: 'web', tier: 'backend', env: 'dev' },
  c: { app: 'db', tier: 'backend' },
  d: {},
  e: { app: 'cache', env: 'prod' },
  f: { 'example.com/owner': 'team-1', app: 'web' },
};

/** A label selector and the names of the population it matches. */
const labelCases: [string, string[]][] = [
  ['app=web', ['a', 'b', 'f']],
  ['app==web', ['a', 'b', 'f']],
  ['app!=web', ['c', 'd', 'e']],
  ['env in (prod,dev)', ['a', 'b', 'e']],
  ['env in ( prod , dev )', ['a', 'b', 'e']],
  ['env notin (prod)', ['b', 'c', 'd', 'f']],
  ['tier', ['a', 'b', 'c']],
  ['!tier', ['d', 'e', 'f']],
  ['example.com/owner', ['f']],
  ['example.com/owner=team-1,app=web', ['f']],
  ['app=web,tier=backend', ['b']],
  ['app in (web,db),!env', ['c', 'f']],
  ['tier,env!=dev', ['a', 'c']],
  ['app notin (web),tier', ['c']],
  ['app=web,app!=web', []],
  ['app=nothing', []],
  ['', ['a', 'b', 'c', 'd', 'e', 'f']],
];

const malformedLabels = [
  'app in (web',
  'app in web',
  '=web',
  'app=web,',
  '!app=web',
  'app=we b',
  'app=-web',
  '-app=web',
  'app=web)',
  'app notin',
  'a/b/c=x',
  `${'k'.repeat(64)}=v`,
  `app=${'v'.repeat(64)}`,
];

const names = (r: Response): string[] => r.body.items.map((i: any) => i.metadata.name).sort();
const q = (s: string) => encodeURIComponent(s);


describe('label and field selectors', () => {
  let t: TestServer;
  let c: Client;
  const open: WatchStream[] = [];
  /** resourceVersion before the population of namespace `sel` was created. */
  let beforePopulation = '';

  const populate = async (ns: string) => {
    for (const [name, labels] of Object.entries(population)) {
      const r = await c.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels }, data: { n: name } });
      assert.equal(r.status, 201, r.text);
    }
  };
  const namespace = async (name: string, labels: Record<string, string> = {}) => {
    const r = await c.post('/api/v1/namespaces', { metadata: { name, labels } });
    assert.equal(r.status, 201, r.text);
    return r.body;
  };
  const watch = async (path: string): Promise<WatchStream> => {
    const w = await c.watch(path);
    open.push(w);
    assert.equal(w.status, 200, `watch ${path}`);
    return w;
  };

  before(async () => {
    t = await startTestServer();
    c = t.client;
    await namespace('sel');
    beforePopulation = (await c.get('/api/v1/namespaces/sel/configmaps')).body.metadata.resourceVersion;
    await populate('sel');
  });
  after(async () => {
    for (const w of open) w.close();
    await t?.stop();
  });

  test('labelSelector on list: =, ==, !=, in, notin, exists, !exists and combinations', async () => {
    const problems: string[] = [];
    for (const [selector, expected] of labelCases) {
      const r = await c.get(`/api/v1/namespaces/sel/configmaps?labelSelector=${q(selector)}`);
      if (r.status !== 200) problems.push(`${JSON.stringify(selector)}: ${r.status} ${r.text}`);
      else if (names(r).join(',') !== expected.join(',')) problems.push(`${JSON.stringify(selector)}: got [${names(r)}], want [${expected}]`);
    }
    assert.equal(problems.length, 0, problems.join('\n'));
    // Across namespaces and with paging the same filter applies.
    await namespace('sel-other');
    const extra = await c.post('/api/v1/namespaces/sel-other/configmaps', { metadata: { name: 'z', labels: { app: 'web' } } });
    assert.equal(extra.status, 201, extra.text);
    const all = await c.get(`/api/v1/configmaps?labelSelector=${q('app=web')}`);
    assert.deepEqual(all.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`), ['sel-other/z', 'sel/a', 'sel/b', 'sel/f']);
  });

  test('labelSelector on watch: replayed history and synthetic ADDED events are filtered alike', async () => {
    const base = '/api/v1/namespaces/sel/configmaps?watch=true';
    // From before the population: the real ADDED events of matching objects only.
    const fromHistory = await Promise.all(labelCases.map(([s]) => watch(`${base}&resourceVersion=${beforePopulation}&labelSelector=${q(s)}`)));
    // Without a version: synthetic ADDED events of matching objects only.
    const synthetic = await Promise.all(labelCases.map(([s]) => watch(`${base}&labelSelector=${q(s)}`)));
    const problems: string[] = [];
    await Promise.all(labelCases.map(async ([selector, expected], k) => {
      for (const [how, w] of [['from history', fromHistory[k]!], ['synthetic', synthetic[k]!]] as const) {
        const events = await w.take(expected.length, 5_000);
        const extra = await w.next(400);
        if (extra) events.push(extra);
        const got = events.map((e) => `${e.type} ${e.object.metadata.name}`).sort();
        const want = expected.map((n) => `ADDED ${n}`);
        if (got.join(',') !== want.join(',')) problems.push(`${JSON.stringify(selector)} ${how}: got [${got}], want [${want}]`);
      }
    }));
    assert.equal(problems.length, 0, problems.join('\n'));
  });

  test('labelSelector on deletecollection deletes exactly the matching objects', async () => {
    await namespace('sel-dc');
    await populate('sel-dc');
    const base = '/api/v1/namespaces/sel-dc/configmaps';
    const steps: [string, string[], string[]][] = [
      ['tier,env notin (dev)', ['a', 'c'], ['b', 'd', 'e', 'f']],
      ['!tier,app', ['e', 'f'], ['b', 'd']],
      ['app in (db,cache)', [], ['b', 'd']],
      ['app!=web', ['d'], ['b']],
      ['app==web', ['b'], []],
    ];
    for (const [selector, deleted, left] of steps) {
      const r = await c.delete(`${base}?labelSelector=${q(selector)}`);
      assert.equal(r.status, 200, `${selector}: ${r.text}`);
      assert.equal(r.body.kind, 'ConfigMapList');
      assert.deepEqual(names(r), deleted, `${selector}: deleted`);
      assert.deepEqual(names(await c.get(base)), left, `${selector}: left`);
    }
    // The population in the other namespace was not touched.
    assert.deepEqual(names(await c.get('/api/v1/namespaces/sel/configmaps')), Object.keys(population));
  });

  test('fieldSelector: metadata.name and metadata.namespace on list, watch and deletecollection', async () => {
    const base = '/api/v1/namespaces/sel/configmaps';
    const cases: [string, string[]][] = [
      ['metadata.name=a', ['a']],
      ['metadata.name==a', ['a']],
      ['metadata.name!=a', ['b', 'c', 'd', 'e', 'f']],
      ['metadata.name!=a,metadata.name!=b', ['c', 'd', 'e', 'f']],
      ['metadata.namespace=sel', ['a', 'b', 'c', 'd', 'e', 'f']],
      ['metadata.namespace!=sel', []],
      ['metadata.name=a,metadata.namespace=sel', ['a']],
      ['metadata.name=nobody', []],
    ];
    for (const [selector, expected] of cases) {
      const r = await c.get(`${base}?fieldSelector=${q(selector)}`);
      assert.equal(r.status, 200, `${selector}: ${r.text}`);
      assert.deepEqual(names(r), expected, selector);
    }
    // Combined with a label selector: both must match.
    const both = await c.get(`${base}?labelSelector=${q('app=web')}&fieldSelector=${q('metadata.name!=a')}`);
    assert.deepEqual(names(both), ['b', 'f']);
    // Across namespaces.
    const inSel = await c.get(`/api/v1/configmaps?fieldSelector=${q('metadata.namespace=sel')}`);
    assert.deepEqual(inSel.body.items.map((i: any) => i.metadata.namespace + '/' + i.metadata.name), Object.keys(population).map((n) => `sel/${n}`));
    const notSel = await c.get(`/api/v1/configmaps?fieldSelector=${q('metadata.namespace!=sel')}`);
    assert.ok(notSel.body.items.length > 0 && notSel.body.items.every((i: any) => i.metadata.namespace !== 'sel'));
    // Cluster-scoped kind.
    const ns = await c.get(`/api/v1/namespaces?fieldSelector=${q('metadata.name=sel')}`);
    assert.deepEqual(names(ns), ['sel']);

    // Watch.
    const w = await watch(`${base}?watch=true&resourceVersion=${beforePopulation}&fieldSelector=${q('metadata.name!=a,metadata.name!=b')}`);
    const events = await w.take(4, 5_000);
    assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED c', 'ADDED d', 'ADDED e', 'ADDED f']);
    assert.equal(await w.next(400), undefined, 'nothing else');

    // Deletecollection.
    await namespace('sel-fdc');
    await populate('sel-fdc');
    const dc = await c.delete(`/api/v1/namespaces/sel-fdc/configmaps?fieldSelector=${q('metadata.name=c')}`);
    assert.equal(dc.status, 200, dc.text);
    assert.deepEqual(names(dc), ['c']);
    assert.deepEqual(names(await c.get('/api/v1/namespaces/sel-fdc/configmaps')), ['a', 'b', 'd', 'e', 'f']);
    const dc2 = await c.delete(`/api/v1/namespaces/sel-fdc/configmaps?fieldSelector=${q('metadata.name!=d')}&labelSelector=${q('env')}`);
    assert.equal(dc2.status, 200, dc2.text);
    assert.deepEqual(names(dc2), ['a', 'b', 'e']);
    assert.deepEqual(names(await c.get('/api/v1/namespaces/sel-fdc/configmaps')), ['d', 'f']);
  });

  test('fieldSelector: Namespace status.phase and Secret type', async () => {
    await namespace('sel-active');
    // A namespace held by a finalizer stays after DELETE, in phase Terminating.
    const held = await c.post('/api/v1/namespaces', { metadata: { name: 'sel-leaving', finalizers: ['example.com/hold'] } });
    assert.equal(held.status, 201, held.text);
    const del = await c.delete('/api/v1/namespaces/sel-leaving');
    assert.ok(del.status === 200 || del.status === 202, del.text);
    let leaving = await c.get('/api/v1/namespaces/sel-leaving');
    assert.equal(leaving.status, 200, leaving.text);
    assert.ok(leaving.body.metadata.deletionTimestamp, 'marked for deletion');
    if (leaving.body.status?.phase !== 'Terminating') {
      // The namespace controller's part, when no controller runs.
      const st = await c.put('/api/v1/namespaces/sel-leaving/status', { ...leaving.body, status: { ...leaving.body.status, phase: 'Terminating' } });
      assert.equal(st.status, 200, st.text);
      leaving = st;
    }
    assert.equal(leaving.body.status.phase, 'Terminating');

    const terminating = await c.get(`/api/v1/namespaces?fieldSelector=${q('status.phase=Terminating')}`);
    assert.equal(terminating.status, 200, terminating.text);
    assert.deepEqual(names(terminating), ['sel-leaving']);
    const active = await c.get(`/api/v1/namespaces?fieldSelector=${q('status.phase=Active')}`);
    assert.equal(active.status, 200, active.text);
    assert.ok(names(active).includes('sel-active') && names(active).includes('default') && !names(active).includes('sel-leaving'), names(active).join(','));
    const notActive = await c.get(`/api/v1/namespaces?fieldSelector=${q('status.phase!=Active')}`);
    assert.deepEqual(names(notActive), ['sel-leaving']);
    const combined = await c.get(`/api/v1/namespaces?fieldSelector=${q('status.phase=Active,metadata.name=sel-active')}`);
    assert.deepEqual(names(combined), ['sel-active']);
    const w = await watch(`/api/v1/namespaces?watch=true&fieldSelector=${q('status.phase=Terminating')}`);
    const initial = await w.take(1, 5_000);
    assert.deepEqual(initial.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED sel-leaving']);
    assert.equal(await w.next(400), undefined, 'only the terminating namespace');

    // Secrets: type, including the default type of a secret created without one.
    await namespace('sel-sec');
    const secrets: [string, Record<string, unknown>][] = [
      ['plain', { stringData: { k: 'v' } }],
      ['opaque', { type: 'Opaque', stringData: { k: 'v' } }],
      ['custom', { type: 'example.com/custom', stringData: { k: 'v' } }],
      ['basic', { type: 'orch.io/basic-auth', stringData: { username: 'u', password: 'p' } }],
    ];
    for (const [name, body] of secrets) {
      const r = await c.post('/api/v1/namespaces/sel-sec/secrets', { metadata: { name }, ...body });
      assert.equal(r.status, 201, r.text);
    }
    const byType: [string, string[]][] = [
      ['type=Opaque', ['opaque', 'plain']],
      ['type==example.com/custom', ['custom']],
      ['type=orch.io/basic-auth', ['basic']],
      ['type!=Opaque', ['basic', 'custom']],
      ['type!=Opaque,metadata.name!=basic', ['custom']],
      ['type=orch.io/tls', []],
    ];
    for (const [selector, expected] of byType) {
      const r = await c.get(`/api/v1/namespaces/sel-sec/secrets?fieldSelector=${q(selector)}`);
      assert.equal(r.status, 200, `${selector}: ${r.text}`);
      assert.deepEqual(names(r), expected, selector);
    }
    const dc = await c.delete(`/api/v1/namespaces/sel-sec/secrets?fieldSelector=${q('type=example.com/custom')}`);
    assert.equal(dc.status, 200, dc.text);
    assert.deepEqual(names(dc), ['custom']);
    assert.deepEqual(names(await c.get('/api/v1/namespaces/sel-sec/secrets')), ['basic', 'opaque', 'plain']);
  });

  test('malformed selectors and unsupported fields are 400 on list, watch and deletecollection, and delete nothing', async () => {
    const base = '/api/v1/namespaces/sel/configmaps';
    const problems: string[] = [];
    const expect400 = async (what: string, r: Promise<Response>) => {
      try {
        assertBadRequest(await r, what);
      } catch (e) {
        problems.push((e as Error).message.split('\n')[0]!.slice(0, 300));
      }
    };
    for (const s of malformedLabels) {
      await expect400(`list labelSelector=${JSON.stringify(s)}`, c.get(`${base}?labelSelector=${q(s)}`));
    }
    const badFields: [string, string][] = [
      [base, 'metadata.name'],
      [base, '=a'],
      [base, 'metadata.name=a=b'],
      [base, 'metadata.name~a'],
      [base, 'spec.nope=x'],
      [base, 'data.n=a'],
      [base, 'metadata.labels=x'],
      [base, 'status.phase=Active'],
      [base, 'type=Opaque'],
      ['/api/v1/namespaces/sel/secrets', 'status.phase=Active'],
      ['/api/v1/namespaces/sel/secrets', 'data.k=v'],
      ['/api/v1/namespaces', 'type=Opaque'],
      ['/api/v1/namespaces', 'spec.finalizers=orch'],
      ['/api/v1/namespaces/sel/resourcequotas', 'status.phase=Active'],
    ];
    for (const [path, s] of badFields) {
      await expect400(`list ${path} fieldSelector=${JSON.stringify(s)}`, c.get(`${path}?fieldSelector=${q(s)}`));
    }
    for (const s of ['app in (web', '!app=web']) {
      await expect400(`watch labelSelector=${JSON.stringify(s)}`, c.get(`${base}?watch=true&labelSelector=${q(s)}`));
      await expect400(`deletecollection labelSelector=${JSON.stringify(s)}`, c.delete(`${base}?labelSelector=${q(s)}`));
    }
    for (const s of ['spec.nope=x', 'metadata.name']) {
      await expect400(`watch fieldSelector=${JSON.stringify(s)}`, c.get(`${base}?watch=true&fieldSelector=${q(s)}`));
      await expect400(`deletecollection fieldSelector=${JSON.stringify(s)}`, c.delete(`${base}?fieldSelector=${q(s)}`));
    }
    assert.equal(problems.length, 0, problems.join('\n'));
    assert.deepEqual(names(await c.get(base)), Object.keys(population), 'a rejected deletecollection deleted nothing');
  });

  test('a label-selected watch sees objects that start matching as ADDED and objects that stop matching as DELETED', async () => {
    await namespace('sel-move');
    const base = '/api/v1/namespaces/sel-move/configmaps';
    const rv = (await c.get(base)).body.metadata.resourceVersion;
    const w = await watch(`${base}?watch=true&resourceVersion=${rv}&labelSelector=${q('app=web')}`);
    const nsWatch = await watch(`/api/v1/namespaces?watch=true&resourceVersion=${rv}&labelSelector=${q('zone in (blue)')}`);
    const line = (e: WatchEvent | undefined) => (e ? `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion} ${e.object.metadata.labels?.app ?? e.object.metadata.labels?.zone ?? '-'}` : 'nothing');
    const patchLabels = async (path: string, labels: Record<string, string | null>) => {
      const r = await c.patch(path, { metadata: { labels } });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };

    const m1 = await c.post(base, { metadata: { name: 'm1', labels: { app: 'web' } } });
    const m2 = await c.post(base, { metadata: { name: 'm2', labels: { app: 'db' } } });
    assert.equal(m1.status, 201, m1.text);
    assert.equal(m2.status, 201, m2.text);
    const out = await patchLabels(`${base}/m1`, { app: 'db' }); // leaves the selector
    const into = await patchLabels(`${base}/m2`, { app: 'web' }); // enters it
    const within = await patchLabels(`${base}/m2`, { extra: 'x' }); // stays in it
    await patchLabels(`${base}/m1`, { extra: 'y' }); // stays out of it: nothing
    const back = await patchLabels(`${base}/m1`, { app: 'web' }); // enters again
    const dropped = await patchLabels(`${base}/m2`, { app: null }); // leaves by losing the label
    assert.equal((await c.delete(`${base}/m2`)).status, 200); // deleted while not matching: nothing
    assert.equal((await c.delete(`${base}/m1`)).status, 200); // deleted while matching

    // The same for a cluster-scoped kind.
    await namespace('sel-zone', { zone: 'red' });
    const nsIn = await patchLabels('/api/v1/namespaces/sel-zone', { zone: 'blue' });
    const nsOut = await patchLabels('/api/v1/namespaces/sel-zone', { zone: 'green' });

    const events = await w.take(7, 5_000);
    const nsEvents = await nsWatch.take(2, 5_000);
    const expected = [
      `ADDED m1 ${m1.body.metadata.resourceVersion} web`,
      // Leaving: the last state that matched, at the version of the change that made it leave.
      `DELETED m1 ${out.metadata.resourceVersion} web`,
      `ADDED m2 ${into.metadata.resourceVersion} web`,
      `MODIFIED m2 ${within.metadata.resourceVersion} web`,
      `ADDED m1 ${back.metadata.resourceVersion} web`,
      `DELETED m2 ${dropped.metadata.resourceVersion} web`,
    ];
    const nsExpected = [`ADDED sel-zone ${nsIn.metadata.resourceVersion} blue`, `DELETED sel-zone ${nsOut.metadata.resourceVersion} blue`];
    assert.deepEqual({ configmaps: events.slice(0, 6).map(line), namespaces: nsEvents.map(line) }, { configmaps: expected, namespaces: nsExpected });
    assert.equal(events[6]?.type, 'DELETED');
    assert.equal(events[6]?.object.metadata.name, 'm1');
    assert.ok(rvOfAll(events), 'strictly increasing resourceVersions');
    const stray = await w.next(500);
    assert.equal(stray, undefined, `nothing about objects outside the selector: ${line(stray)}`);
  });
});

function rvOfAll(events: WatchEvent[]): boolean {
  return events.every((e, k) => k === 0 || Number(e.object.metadata.resourceVersion) > Number(events[k - 1]!.object.metadata.resourceVersion));
}
