import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Response } from 'express';
import { defaultApiDomain } from '../../api/domain.js';
import type { ObjectWithMeta } from '../../api/meta/v1/types.js';
import type { ResourceInfo } from '../runtime/scheme.js';
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
