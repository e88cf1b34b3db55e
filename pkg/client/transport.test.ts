import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { Transport } from './transport.js';

test('a request retried after the Retry-After of a 429 leaves no listener on its abort signal', async () => {
  // Every second request is told to come back (after 0 s), as a busy API server tells a client.
  let n = 0;
  const server = createServer((_req, res) => {
    if (n++ % 2 === 0) res.writeHead(429, { 'Retry-After': '0' }).end('{}');
    else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const transport = new Transport({ server: `http://127.0.0.1:${port}`, qps: -1 });
  const abort = new AbortController();
  try {
    for (let i = 0; i < 20; i++) {
      const r = await transport.do({ method: 'GET', path: '/api', headers: {}, signal: abort.signal });
      assert.equal(r.status, 200);
    }
    assert.equal(n, 40, 'each request was retried once');
    // An informer's signal lives as long as the informer: every retry used to leave a listener on it.
    assert.equal(getEventListeners(abort.signal, 'abort').length, 0);
  } finally {
    transport.close();
    server.close();
  }
});
