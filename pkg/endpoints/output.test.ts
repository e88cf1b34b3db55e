import assert from 'node:assert/strict';
import { createServer, get, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { Response } from 'express';
import { defaultApiDomain } from '../../api/domain.js';
import type { ObjectWithMeta } from '../../api/meta/v1/types.js';
import type { ResourceInfo } from '../runtime/scheme.js';
import { eventually } from '../util/testing/eventually.js';
import { ResponseWriter, type ListLike, type ProtobufEncoder } from './output.js';

/** A response that records what is written: headers, each write, and the end. */
function recording() {
  const r = {
    code: 0,
    headers: {} as Record<string, string>,
    writes: [] as string[],
    ended: false,
    status(code: number) {
      r.code = code;
      return r;
    },
    setHeader(name: string, value: string) {
      r.headers[name.toLowerCase()] = value;
      return r;
    },
    write(chunk: string) {
      r.writes.push(chunk);
      return true;
    },
    end(chunk?: string) {
      if (chunk !== undefined) r.writes.push(chunk);
      r.ended = true;
      return r;
    },
    locals: {},
  };
  return r;
}

const list = (n: number): ListLike => ({
  kind: 'ConfigMapList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '42', continue: 'abc' },
  items: Array.from({ length: n }, (_, i) => ({
    metadata: { name: `cm-${i}`, namespace: 'ns', labels: { 'items': '[]', quote: '"items":[]' } },
    data: { text: `ü ${i} "x"\n` },
  }) as unknown as ObjectWithMeta),
});

const writeList = (l: ListLike, pretty = false) => {
  const res = recording();
  new ResponseWriter(res as unknown as Response, { format: 'json' }, pretty, {} as ProtobufEncoder, defaultApiDomain).list(200, {} as ResourceInfo, l);
  return res;
};

test('a long JSON list is written in runs of items, the same bytes as the whole document', () => {
  for (const n of [251, 500, 1001]) {
    const l = list(n);
    const res = writeList(l);
    assert.equal(res.writes.join(''), JSON.stringify(l), `${n} items`);
    assert.ok(res.writes.length > 3, `${n} items: written in several pieces (${res.writes.length})`);
    assert.equal(res.code, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.headers['cache-control'], 'no-cache, private');
    assert.ok(res.ended);
  }
});

test('short lists and pretty lists are one body', () => {
  for (const [l, pretty] of [[list(0), false], [list(250), false], [list(600), true]] as const) {
    const res = writeList(l, pretty);
    assert.equal(res.writes.length, 1);
    assert.equal(res.writes[0], pretty ? JSON.stringify(l, null, 2) + '\n' : JSON.stringify(l));
  }
});

/**
 * A real HTTP server writing a list of `n` items of about 2 KiB, each counting how often it is
 * encoded; the client's response is handed over paused, so it reads nothing until resumed.
 */
async function listOverHttp(n: number) {
  let encoded = 0;
  const l = list(n);
  for (const item of l.items) {
    const data = { blob: 'x'.repeat(2048) };
    Object.defineProperty(item, 'data', { enumerable: true, get: () => (encoded++, data) });
  }
  const expected = JSON.stringify(l);
  encoded = 0;
  let served: ServerResponse | undefined;
  const server = createServer((_req, res) => {
    served = res;
    const express = Object.assign(res, { locals: {}, status: (code: number) => ((res.statusCode = code), express) });
    new ResponseWriter(express as unknown as Response, { format: 'json' }, false, {} as ProtobufEncoder, defaultApiDomain).list(200, {} as ResourceInfo, l);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/' }, (r) => {
      r.pause();
      resolve(r);
    }).on('error', reject);
  });
  return { expected, response, server, served: () => served as ServerResponse, encoded: () => encoded };
}

test('a long JSON list is encoded as the client reads it: one that stops reading holds a run of items, not the list', async () => {
  // 40 MiB of items, far beyond what the loopback connection's buffers take.
  const n = 20_000;
  const { expected, response, server, served, encoded } = await listOverHttp(n);
  try {
    await eventually(() => served() !== undefined && (served().writableNeedDrain || served().writableEnded), 'the server to be held up by the connection');
    assert.ok(encoded() < n / 2, `with the client not reading, ${encoded()} of ${n} items were encoded`);
    response.resume();
    let body = '';
    response.setEncoding('utf8');
    response.on('data', (d: string) => (body += d));
    await new Promise((resolve) => response.once('end', resolve));
    assert.equal(body, expected);
    assert.equal(encoded(), n);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('a client that goes away in the middle of a long JSON list stops its encoding', async () => {
  const n = 20_000;
  const { response, server, served, encoded } = await listOverHttp(n);
  try {
    await eventually(() => served() !== undefined && (served().writableNeedDrain || served().writableEnded), 'the server to be held up by the connection');
    let finished = false;
    served().once('finish', () => (finished = true));
    response.destroy();
    await eventually(() => served().destroyed, 'the server to see the connection close');
    const at = encoded();
    assert.ok(at < n / 2, `${at} of ${n} items were encoded`);
    // Whatever was under way when the connection closed: nothing is encoded or sent after it.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(encoded(), at);
    assert.equal(finished, false);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
