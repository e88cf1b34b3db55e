// What operators rely on: health endpoints with named checks, and Prometheus metrics.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';

/** Samples of the Prometheus text format: name, labels, value. */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  return text.split('\n').filter((l) => l && !l.startsWith('#')).map((line) => {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)!;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    return { name: m[1]!, labels, value: Number(m[3]) };
  });
}

describe('health and metrics', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('verbose health output names every check in the spec shape', async () => {
    const ready = await t.client.get('/readyz?verbose');
    assert.equal(ready.status, 200);
    assert.equal(ready.text, [
      '[+]ping ok', '[+]log ok', '[+]etcd ok',
      '[+]poststarthook/start-system-namespaces ok',
      '[+]poststarthook/crd-informer-synced ok',
      '[+]poststarthook/bootstrap-controller ok',
      '[+]poststarthook/bootstrap-cluster-info ok',
      '[+]poststarthook/start-kube-aggregator-informers ok',
      '[+]poststarthook/kube-apiserver-autoregistration ok',
      '[+]poststarthook/start-cluster-authentication-info-controller ok',
      '[+]poststarthook/scheduling/bootstrap-system-priority-classes ok',
      '[+]poststarthook/start-storage-compaction ok',
      '[+]shutdown ok',
      // With --workers (ORCH_TEST_WORKERS), one check per worker thread.
      ...Array.from({ length: t.options.workers > 1 ? t.options.workers : 0 }, (_, i) => `[+]worker-${i + 1} ok`),
      'readyz check passed', '',
    ].join('\n'));
    const live = await t.client.get('/livez?verbose');
    assert.match(live.text, /\[\+\]etcd ok\n/);
    assert.doesNotMatch(live.text, /shutdown/, 'livez has no shutdown check');
    assert.match(live.text, /livez check passed\n$/);
    assert.equal((await t.client.get('/healthz')).text, 'ok');
  });

  test('checks can be excluded, and read one by one', async () => {
    const r = await t.client.get('/readyz?verbose&exclude=etcd&exclude=log');
    assert.match(r.text, /\[\+\]etcd excluded: ok\n/);
    assert.match(r.text, /\[\+\]log excluded: ok\n/);
    const unknown = await t.client.get('/readyz?verbose&exclude=nope');
    assert.match(unknown.text, /no matches for "nope"/);
    assert.equal((await t.client.get('/livez/etcd')).text, 'ok');
    assert.equal((await t.client.get('/readyz/poststarthook/start-system-namespaces')).status, 200);
    assert.equal((await t.client.get('/readyz/no-such-check')).status, 404);
  });

  test('metrics count requests, open watches, watch events, stored objects and etcd latency', async () => {
    const c = t.client;
    await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'm1' } });
    await c.get('/api/v1/namespaces/default/configmaps/m1');
    await c.get('/api/v1/namespaces/default/configmaps/missing');
    await c.get('/apis/apps/v1/statefulsets');
    const w = await c.watch('/api/v1/namespaces/default/configmaps?watch=true');
    assert.equal((await w.next())?.type, 'ADDED');
    const m = await c.get('/metrics');
    assert.equal(m.status, 200);
    assert.match(String(m.headers['content-type']), /text\/plain/);
    const has = (name: string, labels: Record<string, string>, value?: number) => {
      const found = samples(m.text).filter((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
      assert.equal(found.length, 1, `${name} ${JSON.stringify(labels)} in:\n${m.text.split('\n').filter((l) => l.startsWith(name)).join('\n')}`);
      if (value !== undefined) assert.equal(found[0]!.value, value, `${name} ${JSON.stringify(labels)}`);
    };
    const api = { dry_run: '', component: 'apiserver' };
    has('apiserver_request_total', { ...api, verb: 'POST', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'namespace', code: '201' }, 1);
    has('apiserver_request_total', { ...api, verb: 'GET', resource: 'configmaps', scope: 'resource', code: '404' }, 1);
    has('apiserver_request_total', { ...api, verb: 'LIST', group: 'apps', version: 'v1', resource: 'statefulsets', scope: 'cluster', code: '200' }, 1);
    has('apiserver_request_duration_seconds_bucket', { ...api, verb: 'POST', resource: 'configmaps', le: '+Inf' }, 1);
    has('apiserver_longrunning_requests', { verb: 'WATCH', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'namespace', component: 'apiserver' }, 1);
    has('apiserver_watch_events_total', { group: '', version: 'v1', kind: 'ConfigMap' }, 1);
    // Ours, and cluster-info, which the API server publishes in orch-public.
    has('apiserver_storage_objects', { resource: 'configmaps' }, 2);
    has('apiserver_storage_objects', { resource: 'namespaces' }, 4);
    has('apiserver_storage_objects', { resource: 'statefulsets.apps' }, 0);
    has('apiserver_current_inflight_requests', { request_kind: 'readOnly' });
    has('etcd_request_duration_seconds_count', { operation: 'create', type: 'configmaps' }, 2);
    has('process_cpu_seconds_total', {});
    has('nodejs_heap_size_used_bytes', {});
    w.close();
    await new Promise((r) => setTimeout(r, 200));
    const after = samples((await c.get('/metrics')).text).find((x) => x.name === 'apiserver_longrunning_requests' && x.labels.resource === 'configmaps');
    assert.equal(after?.value, 0, 'a closed watch is no longer counted');
  });
});
