// Chunked lists (spec 2.2, 4.5): limit/continue read every chunk from the snapshot of the first,
// the continue token is opaque and checked, remainingItemCount is there exactly when it should be.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertBadRequest } from './framework/assertions.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import type { Client, Response } from './framework/client.js';

const names = (items: any[]): string[] => items.map((i) => i.metadata.name);
const pad = (i: number) => String(i).padStart(2, '0');


describe('chunked lists', () => {
  let t: TestServer;
  let c: Client;

  const cm = async (ns: string, name: string, labels: Record<string, string> = {}) => {
    const r = await c.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels }, data: { v: '1' } });
    assert.equal(r.status, 201, r.text);
    return r.body;
  };
  /** Every chunk of a list from the first on; checks what every chunk must satisfy. */
  const pages = async (path: string, limit: number, opts: { selector?: boolean } = {}): Promise<Response[]> => {
    const sep = path.includes('?') ? '&' : '?';
    const out: Response[] = [];
    let token = '';
    for (let i = 0; ; i++) {
      assert.ok(i < 100, 'the chunks end');
      const r = await c.get(`${path}${sep}limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.body.items.length <= limit, `a chunk holds at most ${limit} items`);
      if (out.length > 0) assert.equal(r.body.metadata.resourceVersion, out[0]!.body.metadata.resourceVersion, 'every chunk has the resourceVersion of the first');
      out.push(r);
      token = r.body.metadata.continue ?? '';
      if (!token) {
        assert.equal(r.body.metadata.remainingItemCount, undefined, 'the last chunk has no remainingItemCount');
        return out;
      }
      if (opts.selector) assert.equal(r.body.metadata.remainingItemCount, undefined, 'no remainingItemCount with a selector');
      else assert.equal(typeof r.body.metadata.remainingItemCount, 'number', 'a non-final chunk without selectors has remainingItemCount');
    }
  };

  before(async () => {
    t = await startTestServer();
    c = t.client;
    for (const ns of ['pg-snap', 'pg-count', 'pg-token', 'pg-status']) {
      const r = await c.post('/api/v1/namespaces', { metadata: { name: ns } });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => t?.stop());

  test('every chunk comes from the snapshot of the first, whatever is written between chunks', async () => {
    const base = '/api/v1/namespaces/pg-snap/configmaps';
    const original = new Map<string, any>();
    for (let i = 0; i < 10; i++) original.set(`p-${pad(i)}`, await cm('pg-snap', `p-${pad(i)}`));

    const first = await c.get(`${base}?limit=3`);
    assert.equal(first.status, 200, first.text);
    const rv = first.body.metadata.resourceVersion;
    assert.deepEqual(names(first.body.items), ['p-00', 'p-01', 'p-02']);
    assert.equal(first.body.metadata.remainingItemCount, 7);
    assert.ok(first.body.metadata.continue);

    // Writes before, inside and after the part still to be read, and to what was already read.
    await cm('pg-snap', 'p-035');
    await cm('pg-snap', 'p-10');
    await cm('pg-snap', 'a-first');
    assert.equal((await c.delete(`${base}/p-05`)).status, 200);
    assert.equal((await c.delete(`${base}/p-01`)).status, 200);
    assert.equal((await c.patch(`${base}/p-07`, { data: { v: '2' } })).status, 200);
    assert.equal((await c.patch(`${base}/p-03`, { metadata: { labels: { touched: 'yes' } } })).status, 200);
    const now = await c.get(base);
    assert.deepEqual(names(now.body.items), ['a-first', 'p-00', 'p-02', 'p-03', 'p-035', 'p-04', 'p-06', 'p-07', 'p-08', 'p-09', 'p-10'], 'the writes happened');

    const chunks = [first];
    const expectedRemaining = [7, 4, 1];
    for (let token = first.body.metadata.continue; token; token = chunks[chunks.length - 1]!.body.metadata.continue) {
      const r = await c.get(`${base}?limit=3&continue=${encodeURIComponent(token)}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.metadata.resourceVersion, rv, 'every chunk has the resourceVersion of the first');
      chunks.push(r);
      assert.ok(chunks.length <= 10, 'the chunks end');
    }
    assert.deepEqual(chunks.map((p) => names(p.body.items)), [['p-00', 'p-01', 'p-02'], ['p-03', 'p-04', 'p-05'], ['p-06', 'p-07', 'p-08'], ['p-09']]);
    assert.deepEqual(chunks.map((p) => p.body.metadata.remainingItemCount), [...expectedRemaining, undefined]);
    assert.equal(chunks[3]!.body.metadata.continue ?? '', '', 'the last chunk has an empty continue');

    // The union is the collection at the first chunk's version: same objects, same versions, same content.
    const union = chunks.flatMap((p) => p.body.items);
    for (const item of union) {
      const o = original.get(item.metadata.name);
      assert.equal(item.metadata.resourceVersion, o.metadata.resourceVersion, `${item.metadata.name} as it was`);
      assert.deepEqual(item.data, o.data);
      assert.deepEqual(item.metadata.labels, o.metadata.labels);
    }
    const exact = await c.get(`${base}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 200, exact.text);
    assert.deepEqual(union, exact.body.items);
  });

  test('remainingItemCount: correct on non-final chunks without selectors, omitted with selectors, on the last chunk and unchunked', async () => {
    const base = '/api/v1/namespaces/pg-count/configmaps';
    for (let i = 0; i < 7; i++) await cm('pg-count', `pc-${i}`, { parity: i % 2 === 0 ? 'even' : 'odd' });
    const all = ['pc-0', 'pc-1', 'pc-2', 'pc-3', 'pc-4', 'pc-5', 'pc-6'];

    const by3 = await pages(base, 3);
    assert.deepEqual(by3.map((p) => p.body.metadata.remainingItemCount), [4, 1, undefined]);
    assert.deepEqual(by3.flatMap((p) => names(p.body.items)), all);
    const by6 = await pages(base, 6);
    assert.deepEqual(by6.map((p) => p.body.metadata.remainingItemCount), [1, undefined]);
    assert.deepEqual(by6.map((p) => p.body.items.length), [6, 1]);
    const by1 = await pages(base, 1);
    assert.deepEqual(by1.map((p) => p.body.metadata.remainingItemCount), [6, 5, 4, 3, 2, 1, undefined]);

    // Everything fits: one chunk, no continue, no count.
    for (const limit of [7, 100]) {
      const r = await c.get(`${base}?limit=${limit}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(names(r.body.items), all);
      assert.equal(r.body.metadata.continue ?? '', '', `limit=${limit}: no continue`);
      assert.equal(r.body.metadata.remainingItemCount, undefined, `limit=${limit}: no remainingItemCount`);
    }
    for (const q of ['', '?limit=0']) {
      const r = await c.get(`${base}${q}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(names(r.body.items), all, `${q || 'no limit'}: unchunked`);
      assert.equal(r.body.metadata.continue ?? '', '');
      assert.equal(r.body.metadata.remainingItemCount, undefined, `${q || 'no limit'}: no remainingItemCount`);
    }

    // With a label or field selector the chunks hold only matching items and carry no count.
    const even = await pages(`${base}?labelSelector=parity%3Deven`, 2, { selector: true });
    assert.ok(even.length >= 2, 'four matches and limit=2 take more than one chunk');
    assert.ok(even[0]!.body.metadata.continue, 'a continue token on the first chunk');
    assert.deepEqual(even.flatMap((p) => names(p.body.items)), ['pc-0', 'pc-2', 'pc-4', 'pc-6']);
    const byField = await pages(`${base}?fieldSelector=metadata.namespace%3Dpg-count`, 3, { selector: true });
    assert.ok(byField.length >= 3);
    assert.deepEqual(byField.flatMap((p) => names(p.body.items)), all);
    const notOne = await pages(`${base}?fieldSelector=metadata.name!%3Dpc-1`, 2, { selector: true });
    assert.deepEqual(notOne.flatMap((p) => names(p.body.items)), all.filter((n) => n !== 'pc-1'));
    const both = await pages(`${base}?labelSelector=parity%3Dodd&fieldSelector=metadata.name!%3Dpc-3`, 1, { selector: true });
    assert.deepEqual(both.flatMap((p) => names(p.body.items)), ['pc-1', 'pc-5']);
  });

  test('chunks across all namespaces and of a cluster-scoped kind add up to the unchunked list', async () => {
    for (const [path, limit] of [['/api/v1/configmaps', 4], ['/api/v1/namespaces', 2]] as const) {
      const whole = await c.get(path);
      assert.equal(whole.status, 200, whole.text);
      assert.ok(whole.body.items.length > limit, `${path}: enough items to page`);
      const chunks = await pages(path, limit);
      assert.equal(chunks[0]!.body.metadata.remainingItemCount, whole.body.items.length - limit, `${path}: remainingItemCount of the first chunk`);
      const key = (i: any) => `${i.metadata.namespace ?? ''}/${i.metadata.name}`;
      assert.deepEqual(chunks.flatMap((p) => p.body.items.map(key)), whole.body.items.map(key), path);
      chunks.forEach((p, i) => {
        if (i < chunks.length - 1) {
          assert.equal(p.body.metadata.remainingItemCount, whole.body.items.length - limit * (i + 1), `${path}: chunk ${i}`);
        }
      });
    }
  });

  test('paging a kind with status: status written between chunks is not seen', async () => {
    const base = '/api/v1/namespaces/pg-status/resourcequotas';
    for (let i = 0; i < 4; i++) {
      const r = await c.post(base, { metadata: { name: `q-${i}` }, spec: { hard: { pods: '10' } } });
      assert.equal(r.status, 201, r.text);
    }
    const first = await c.get(`${base}?limit=2`);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.kind, 'ResourceQuotaList');
    assert.equal(first.body.metadata.remainingItemCount, 2);
    for (let i = 0; i < 4; i++) {
      const cur = await c.get(`${base}/q-${i}`);
      const st = await c.put(`${base}/q-${i}/status`, { ...cur.body, status: { hard: { pods: '10' }, used: { pods: String(i) } } });
      assert.equal(st.status, 200, st.text);
    }
    const second = await c.get(`${base}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
    assert.deepEqual(names(second.body.items), ['q-2', 'q-3']);
    for (const item of second.body.items) assert.equal(item.status?.used, undefined, `${item.metadata.name}: as it was before its status was written`);
    assert.equal(second.body.metadata.continue ?? '', '');
    const now = await c.get(base);
    assert.deepEqual(now.body.items.map((i: any) => i.status.used.pods), ['0', '1', '2', '3']);
  });

  test('the continue token is opaque: garbage or a tampered token is 400, the real one keeps working', async () => {
    const base = '/api/v1/namespaces/pg-token/configmaps';
    for (let i = 0; i < 5; i++) await cm('pg-token', `t-${i}`);
    const first = await c.get(`${base}?limit=2`);
    assert.equal(first.status, 200, first.text);
    const token: string = first.body.metadata.continue;
    assert.ok(token, 'a continue token');

    const bad: [string, string][] = [
      ['garbage', 'not-a-token'],
      ['punctuation', '%%%'],
      ['truncated', token.slice(0, Math.floor(token.length / 2))],
      ['other JSON', Buffer.from('{"hello":"world"}').toString('base64')],
      ['JSON null', Buffer.from('null').toString('base64')],
      ['a number', Buffer.from('42').toString('base64')],
      ['reversed', [...token].reverse().join('')],
    ];
    for (const [what, value] of bad) {
      const r = await c.get(`${base}?limit=2&continue=${encodeURIComponent(value)}`);
      assertBadRequest(r, `continue token: ${what}`);
    }
    // Tampering inside the token: an unknown version, a non-numeric revision, a key escaping the collection.
    const decoded = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, unknown>;
    const tampered: [string, Record<string, unknown>][] = [
      ['unknown token version', { ...decoded, v: 'somebody.else/v9' }],
      ['revision not a number', { ...decoded, rv: 'yesterday' }],
      ['negative revision', { ...decoded, rv: -5 }],
      ['start key climbing out', { ...decoded, start: '../../secrets/pg-token/x' }],
    ];
    for (const [what, body] of tampered) {
      const r = await c.get(`${base}?limit=2&continue=${encodeURIComponent(Buffer.from(JSON.stringify(body)).toString('base64'))}`);
      assertBadRequest(r, `continue token: ${what}`);
    }

    // None of that broke anything: the real token still reads the next chunk.
    const second = await c.get(`${base}?limit=2&continue=${encodeURIComponent(token)}`);
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(names(second.body.items), ['t-2', 't-3']);
    assert.equal(second.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
    assert.equal(second.body.metadata.remainingItemCount, 1);
    // An empty continue is no continue: the first chunk.
    const empty = await c.get(`${base}?limit=2&continue=`);
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(names(empty.body.items), ['t-0', 't-1']);
  });
});
