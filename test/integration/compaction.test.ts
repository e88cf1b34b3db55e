// Compaction (--etcd-compaction-interval): history older than an interval is gone, and reads or
// watches that need it answer 410 Gone with reason Expired.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';

const cms = '/api/v1/namespaces/default/configmaps';

describe('compaction', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ etcdCompactionIntervalMs: 300 });
  });
  after(async () => t?.stop());

  /**
   * Waits until history after `rv` is gone too: a watch from `rv` starts at rv+1, which etcd still
   * serves when it compacted to exactly rv+1.
   */
  async function waitCompactedPast(rv: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      await t.client.post(cms, { metadata: { generateName: 'tick-' } });
      const r = await t.client.get(`${cms}?resourceVersion=${Number(rv) + 1}&resourceVersionMatch=Exact`);
      if (r.status === 410) return;
      await new Promise((res) => setTimeout(res, 200));
    }
    assert.fail(`revision ${rv} was never compacted`);
  }

  test('Exact lists, watches and continue tokens at compacted revisions answer 410 Expired', async () => {
    const c = t.client;
    for (let i = 0; i < 5; i++) await c.post(cms, { metadata: { name: `page-${i}` } });
    const first = await c.get(`${cms}?limit=2`);
    assert.equal(first.status, 200);
    const rv = first.body.metadata.resourceVersion;
    const token = first.body.metadata.continue;
    assert.ok(token);
    await waitCompactedPast(rv);

    const exact = await c.get(`${cms}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 410, exact.text);
    assert.equal(exact.body.reason, 'Expired');

    const cont = await c.get(`${cms}?limit=2&continue=${encodeURIComponent(token)}`);
    assert.equal(cont.status, 410, cont.text);
    assert.equal(cont.body.reason, 'Expired');
    const fresh = cont.body.metadata.continue;
    assert.ok(fresh, 'the Status carries a fresh continue token');
    const rest = await c.get(`${cms}?limit=100&continue=${encodeURIComponent(fresh)}`);
    assert.equal(rest.status, 200, rest.text);
    assert.ok(rest.body.items.some((i: any) => i.metadata.name === 'page-2'), 'the fresh token continues after the first chunk');
    assert.ok(!rest.body.items.some((i: any) => i.metadata.name === 'page-0'));

    const w = await c.watch(`${cms}?watch=true&resourceVersion=${rv}`);
    const ev = await w.next(10_000);
    assert.equal(ev?.type, 'ERROR');
    assert.equal(ev?.object.kind, 'Status');
    assert.equal(ev?.object.code, 410);
    assert.equal(ev?.object.reason, 'Expired');
    assert.equal(await w.next(5000), undefined, 'the stream ends after the error');
  });

  test('a continue token of a list nothing has changed under since is 410 Expired all the same once its version is compacted', async () => {
    const c = t.client;
    assert.equal((await c.post('/api/v1/namespaces', { metadata: { name: 'still' } })).status, 201);
    const still = '/api/v1/namespaces/still/configmaps';
    for (let i = 0; i < 3; i++) assert.equal((await c.post(still, { metadata: { name: `s-${i}` } })).status, 201);
    const first = await c.get(`${still}?limit=1`);
    assert.equal(first.status, 200, first.text);
    const token = first.body.metadata.continue;
    assert.ok(token);
    // The watch cache still holds that state of the namespace; etcd no longer holds its version.
    await waitCompactedPast(first.body.metadata.resourceVersion);
    const cont = await c.get(`${still}?limit=1&continue=${encodeURIComponent(token)}`);
    assert.equal(cont.status, 410, cont.text);
    assert.equal(cont.body.reason, 'Expired');
    assert.equal((await c.get(`${still}?limit=1`)).status, 200, 'a new list works');
  });
});
