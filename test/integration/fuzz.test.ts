// Bad input of any kind gets a 4xx Status, never a 5xx, and the server stays up: seeded random
// mutations of valid objects, patches of every type, and hostile query strings and headers.
import { seededRandom } from '../../pkg/util/seeded-random.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { collectionPath, fixtures, itemPath } from './fixtures.js';


type J = null | boolean | number | string | J[] | { [k: string]: J };

function mutate(v: J, r: () => number, depth = 0): J {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const wild = (): J => pick<() => J>([
    () => null, () => true, () => -1, () => 2 ** 53, () => 1e308, () => -0.5, () => '', () => 'x'.repeat(5000),
    () => '\u0000\ud800\u202e', () => [], () => ({}), () => ({ $patch: 'delete' }), () => [[[[[[[]]]]]]],
    () => ({ __proto__: { polluted: 1 } } as unknown as J), () => '2026-13-45T99:99:99Z', () => '1e999Gi', () => 'abc/def',
  ])();
  if (depth > 6 || r() < 0.08) return wild();
  if (Array.isArray(v)) return r() < 0.2 ? wild() : v.map((x) => (r() < 0.3 ? mutate(x, r, depth + 1) : x));
  if (v && typeof v === 'object') {
    const out: { [k: string]: J } = {};
    for (const [k, x] of Object.entries(v)) {
      if (r() < 0.05) continue;
      out[r() < 0.03 ? `${k}Typo` : k] = r() < 0.35 ? mutate(x, r, depth + 1) : x;
    }
    if (r() < 0.1) out[pick(['status', 'spec', 'metadata', 'extra', 'items'])] = wild();
    return out;
  }
  return r() < 0.5 ? wild() : v;
}

describe('fuzzing the API with bad input', () => {
  let t: TestServer;
  const failures: string[] = [];
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  const check = (what: string, r: { status: number; text: string }) => {
    if (r.status >= 500 || r.status === 0) failures.push(`${what} -> ${r.status} ${r.text.slice(0, 300)}`);
  };

  test('mutated objects and patches of every kind never cause a 5xx', async () => {
    const r = seededRandom(20261121);
    for (const f of fixtures) {
      const base = f.make(`${f.resource.slice(0, 8)}-fz`) as J;
      const created = await t.client.post(collectionPath(f), base);
      assert.equal(created.status, 201, created.text);
      for (let i = 0; i < 25; i++) {
        const body = mutate(base, r);
        check(`POST ${f.kind} ${JSON.stringify(body).slice(0, 200)}`, await t.client.post(collectionPath(f), body));
        check(`PUT ${f.kind}`, await t.client.put(itemPath(f, `${f.resource.slice(0, 8)}-fz`), mutate(created.body as J, r)));
        const patch = mutate({ metadata: { labels: { a: 'b' } }, spec: { x: 1 }, status: {} }, r);
        for (const ct of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
          check(`PATCH ${ct} ${f.kind} ${JSON.stringify(patch).slice(0, 200)}`, await t.client.request('PATCH', itemPath(f, `${f.resource.slice(0, 8)}-fz`), { body: patch, contentType: ct }));
        }
        const ops = mutate([{ op: 'add', path: '/metadata/labels/x', value: 'y' }, { op: 'replace', path: '/spec', value: {} }] as J, r);
        check(`PATCH json-patch ${f.kind} ${JSON.stringify(ops).slice(0, 200)}`, await t.client.request('PATCH', itemPath(f, `${f.resource.slice(0, 8)}-fz`), { body: ops, contentType: 'application/json-patch+json' }));
        if (f.hasStatus) check(`PUT status ${f.kind}`, await t.client.put(`${itemPath(f, `${f.resource.slice(0, 8)}-fz`)}/status`, mutate(created.body as J, r)));
      }
    }
    assert.deepEqual(failures, []);
  });

  test('hostile query strings, paths and headers never cause a 5xx', async () => {
    const r = seededRandom(7);
    const junk = ['%00', '%ff%fe', '..%2f..%2f', "' OR 1=1", '\u202e', 'a'.repeat(8000), '-1', '1e400', 'NaN', '[]', '{}', '%', '&&&', '=='];
    const params = ['labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'timeoutSeconds', 'watch', 'dryRun', 'fieldValidation', 'includeObject', 'propagationPolicy', 'gracePeriodSeconds', 'pretty', 'allowWatchBookmarks'];
    const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
    for (let i = 0; i < 150; i++) {
      const q = Array.from({ length: 1 + Math.floor(r() * 3) }, () => `${pick(params)}=${encodeURIComponent(pick(junk))}`).join('&');
      const path = pick(['/api/v1/namespaces/default/configmaps', '/api/v1/namespaces', '/apis/apps/v1/statefulsets', `/api/v1/namespaces/${pick(junk)}/configmaps`, '/api/v1/namespaces/default/configmaps/x']);
      const method = pick(['GET', 'DELETE', 'POST', 'PATCH', 'PUT']);
      const headers: Record<string, string> = { Accept: pick(['application/json', '*/*;q=abc', 'application/json;as=Table;g=meta.orch.io;v=v1;q=0.5', 'application/vnd.orch.protobuf', ';;;', 'a/b/c']) };
      const res = await t.client.request(method, `${path}?${q}`, { raw: pick(['', '{', 'null', '{"metadata":{"name":"x"}}', '\u0000']), contentType: pick(['application/json', 'application/yaml', 'application/vnd.orch.protobuf', 'text/plain', 'application/json; charset=latin9']), headers });
      // A watch that was accepted streams until its timeout; everything else is answered at once.
      check(`${method} ${path}?${q.slice(0, 200)}`, res);
    }
    assert.deepEqual(failures, []);
    const live = await t.client.get('/livez');
    assert.equal(live.status, 200, 'the server is still up');
  });
});
