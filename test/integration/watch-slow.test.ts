// A watcher that does not read is closed once its connection holds more than the server's bound
// of unsent bytes, rather than buffered for without end; what it had been sent is a clean prefix
// of the stream (whole events, in order, no gap), and it resumes from its last resourceVersion.
// The watchers that keep up see nothing of it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';

interface Event {
  type: string;
  object: { metadata: { name: string; resourceVersion: string } };
}

/** Every event of a stream read to its end, and whether it ended cleanly (the last chunk arrived). */
function readToEnd(res: import('node:http').IncomingMessage, timeoutMs: number): Promise<{ events: Event[]; rest: string; clean: boolean }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the stream did not end within ${timeoutMs} ms`)), timeoutMs);
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    const done = (clean: boolean) => {
      clearTimeout(timer);
      const lines = text.split('\n');
      const rest = lines.pop()!;
      resolve({ events: lines.map((l) => JSON.parse(l) as Event), rest, clean });
    };
    res.on('end', () => done(true));
    res.on('aborted', () => done(false));
    res.on('error', () => done(false));
    res.resume();
  });
}

describe('watch of a client that does not keep up', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ watchMaxBufferedBytes: 1024 * 1024 });
  });
  after(async () => t?.stop());

  test('is closed at an event boundary once its unsent bytes pass the bound, and resumes from its last resourceVersion', async () => {
    const ns = 'slow-watch';
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const rv = (await t.client.get(`${path}?limit=1`)).body as { metadata: { resourceVersion: string } };
    const from = rv.metadata.resourceVersion;
    // It stays open to the end, so the resumed watch below is served from what the server keeps.
    const keeping = await t.client.watch(`${path}?watch=true&resourceVersion=${from}`);
    const stalled = await t.client.openStream(`${path}?watch=true&resourceVersion=${from}`);
    assert.equal(stalled.statusCode, 200);

    // Events of 100 KiB until the server gives up on the reader that reads nothing: first the
    // kernel's socket buffers fill (a few MiB), then the server's bound, held for a moment.
    const payload = 'x'.repeat(100 * 1024);
    const closed = () => t.logs.some((l) => l.includes('Forcing watcher close due to unresponsiveness'));
    let count = 0;
    const deadline = Date.now() + 60_000;
    for (; !closed() && count < 400 && Date.now() < deadline; count++) {
      // One at a time, so the watcher that reads is never far behind.
      const r = await t.client.post(path, { metadata: { name: `cm-${String(count).padStart(3, '0')}` }, data: { payload } });
      assert.equal(r.status, 201, r.text);
    }
    assert.ok(closed(), `the server closed the slow watcher (after ${count} events)`);
    const all = await keeping.take(count, 60_000);
    assert.equal(all.length, count, 'the watcher that keeps up has every event');

    const got = await readToEnd(stalled, 30_000);
    assert.equal(got.clean, true, 'the stream ended with its last chunk, not cut off');
    assert.equal(got.rest, '', 'no partial event');
    assert.ok(got.events.length > 0 && got.events.length < count, `a prefix of the stream (${got.events.length} of ${count} events)`);
    const key = (e: { type: string; object: unknown }) => {
      const m = (e.object as Event['object']).metadata;
      return `${e.type} ${m.name} ${m.resourceVersion}`;
    };
    assert.deepEqual(got.events.map(key), all.slice(0, got.events.length).map(key), 'the same events in the same order as the watcher that kept up, none skipped');

    // The client resumes where it stopped and misses nothing.
    const last = got.events[got.events.length - 1]!.object.metadata.resourceVersion;
    const resumed = await t.client.watch(`${path}?watch=true&resourceVersion=${last}`);
    const rest = await resumed.take(count - got.events.length, 30_000);
    resumed.close();
    keeping.close();
    assert.deepEqual(rest.map(key), all.slice(got.events.length).map(key));
  });
});
