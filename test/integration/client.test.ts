// pkg/client against the real server over HTTPS: CRUD, status and patches of several kinds in JSON
// and protobuf, watches in both encodings, an informer that lists then watches, survives a server
// restart and relists after a 410, and clients that authenticate with an exec plug-in (printing a
// token of the server's token file) and with a client certificate.
import assert from 'node:assert/strict';
import { chmodSync, readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { TestCA } from '../../pkg/authentication/testing/ca.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import {
  Client, deletedObject, isConflict, isDeletedFinalStateUnknown, isNotFound, isUnauthorized, SharedInformerFactory, StatusError,
  type KubeObject, type RestConfig, type WatchEvent, type WireFormat,
} from '../../pkg/client/index.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { fixtures } from './fixtures.js';

const token = 'client-admin-token-3f9a1c';
const clientCA = TestCA.root({ commonName: 'client-ca' });
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Polls `fn` until it returns true, failing with `what` at the deadline. */
async function until(what: string, fn: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** The next `n` events of a watch (failing after 10s). */
async function take<T>(w: AsyncIterable<WatchEvent<T>>, n: number): Promise<WatchEvent<T>[]> {
  const out: WatchEvent<T>[] = [];
  const it = w[Symbol.asyncIterator]();
  const timer = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`only ${out.length} of ${n} events came`)), 10_000).unref());
  while (out.length < n) {
    const r = await Promise.race([it.next(), timer]);
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

/** A TCP relay to the server that can be cut (every connection reset, new ones refused) and mended. */
function relay(port: number): Promise<{ port: number; cut(): void; mend(): void; close(): Promise<void> }> {
  let open = true;
  const sockets = new Set<Socket>();
  const server: Server = createServer((c) => {
    if (!open) return void c.destroy();
    const s = connect(port, '127.0.0.1');
    sockets.add(c).add(s);
    c.pipe(s).pipe(c);
    const drop = () => {
      c.destroy();
      s.destroy();
      sockets.delete(c);
      sockets.delete(s);
    };
    c.on('error', drop).on('close', drop);
    s.on('error', drop).on('close', drop);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: (server.address() as { port: number }).port,
    cut: () => {
      open = false;
      for (const s of sockets) s.destroy();
    },
    mend: () => {
      open = true;
    },
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  })));
}

describe('pkg/client against the real server', () => {
  const files = tempFiles('orch-client-');
  let t: TestServer;
  let config: RestConfig;
  const clients: Client[] = [];
  const client = (format: WireFormat, over: Partial<RestConfig> = {}) => {
    const c = new Client({ ...config, ...over }, { format });
    clients.push(c);
    return c;
  };

  before(async () => {
    t = await startTestServer({
      etcdCompactionIntervalMs: 300,
      authentication: {
        ...defaultAuthenticationOptions(),
        anonymousAuth: false,
        clientCAFile: files.write('client-ca.pem', clientCA.certPem),
        tokenAuthFile: files.write('tokens.csv', `${token},admin,admin-uid,"system:masters"`),
      },
    });
    config = { server: `https://127.0.0.1:${t.server.port}`, caData: t.server.cert.cert, bearerToken: token, qps: -1 };
    const admin = client('json');
    for (const ns of ['json', 'protobuf', 'informer', 'relist', 'ticks']) {
      await admin.resource('', 'v1', 'namespaces').create({ metadata: { name: ns } });
      await admin.resource('', 'v1', 'serviceaccounts').namespace(ns).create({ metadata: { name: 'default' } });
    }
  });
  after(async () => {
    for (const c of clients) c.close();
    await t?.stop();
    files.remove();
  });

  const kinds = fixtures.filter((f) => ['ConfigMap', 'Deployment', 'Service', 'Node', 'Role', 'Job'].includes(f.kind));

  for (const format of ['json', 'protobuf'] as const) {
    test(`CRUD, status and patches of several kinds in ${format}`, async () => {
      const c = client(format);
      for (const f of kinds) {
        const [group, version] = f.apiVersion.includes('/') ? f.apiVersion.split('/') as [string, string] : ['', f.apiVersion];
        let rc = c.resource(group, version, f.resource);
        if (f.namespaced) rc = rc.namespace(format);
        const name = `${format}-${f.resource}`.slice(0, 40);
        const made = await rc.create(f.make(name) as KubeObject);
        assert.equal(made.metadata.name, name, f.kind);
        assert.equal(made.kind, f.kind);
        assert.ok(made.metadata.uid);

        const got = await rc.get(name);
        assert.equal(got.metadata.resourceVersion, made.metadata.resourceVersion, f.kind);

        const list = await rc.list({ fieldSelector: `metadata.name=${name}` });
        assert.deepEqual(list.items.map((i) => i.metadata.name), [name], f.kind);
        assert.ok(list.metadata.resourceVersion);
        assert.equal(list.items[0]!.kind, f.kind, 'list items carry their kind');

        const labelled = await rc.update({ ...got, metadata: { ...got.metadata, labels: { ...got.metadata.labels, updated: 'yes' } } });
        assert.equal(labelled.metadata.labels?.updated, 'yes', f.kind);
        // A write with the old resourceVersion is a Conflict carrying the server's Status.
        await assert.rejects(rc.update(got), (e: unknown) => isConflict(e) && (e as StatusError).code === 409);

        const patched = await rc.patch(name, 'merge', f.patch);
        assert.notEqual(f.patched(patched as Record<string, unknown>), undefined, `${f.kind} merge patch`);
        const jsonPatched = await rc.patch(name, 'json', [{ op: 'add', path: '/metadata/annotations', value: { via: 'json-patch' } }]);
        assert.equal(jsonPatched.metadata.annotations?.via, 'json-patch');
        const applied = await rc.apply({ apiVersion: f.apiVersion, kind: f.kind, metadata: { name, ...(f.namespaced ? { namespace: format } : {}), labels: { applied: 'yes' } } }, { fieldManager: 'client-test' });
        assert.equal(applied.metadata.labels?.applied, 'yes');

        if (f.status) {
          const current = await rc.get(name);
          const withStatus = await rc.updateStatus({ ...current, status: f.status });
          assert.deepEqual(Object.keys(f.status).map((k) => (withStatus.status as Record<string, unknown>)[k] !== undefined), Object.keys(f.status).map(() => true), `${f.kind} status`);
          const statusPatched = await rc.patch(name, 'merge', { metadata: { labels: { ignored: 'yes' } }, status: f.status }, { subresource: 'status' });
          assert.equal(statusPatched.metadata.labels?.ignored, undefined, 'a status write leaves the rest alone');
        }

        await rc.delete(name);
        await until(`${f.kind} ${name} to go`, async () => {
          try {
            await rc.get(name);
            return false;
          } catch (e) {
            return isNotFound(e);
          }
        });
        await assert.rejects(rc.get(name), (e: unknown) => {
          assert.ok(e instanceof StatusError);
          assert.equal(e.code, 404);
          assert.equal(e.reason, 'NotFound');
          assert.equal(e.status.details?.name, name);
          return true;
        });
      }
      // deleteCollection by label.
      const cms = c.resource('', 'v1', 'configmaps').namespace(format);
      for (const n of ['dc-1', 'dc-2', 'keep']) await cms.create({ metadata: { name: n, labels: { drop: n === 'keep' ? 'no' : 'yes' } } });
      await cms.deleteCollection({ labelSelector: 'drop=yes' });
      assert.deepEqual((await cms.list()).items.map((i) => i.metadata.name).filter((n) => n !== 'kube-root-ca.crt'), ['keep']);
    });

    test(`watch in ${format}: ADDED, MODIFIED, DELETED from a resourceVersion, and bookmarks`, async () => {
      const cms = client(format).resource('', 'v1', 'configmaps').namespace(format);
      const from = (await cms.list()).metadata.resourceVersion!;
      const w = await cms.watch({ resourceVersion: from, allowWatchBookmarks: true });
      try {
        const made = await cms.create({ metadata: { name: 'watched' }, data: { a: '1' } });
        await cms.patch('watched', 'merge', { data: { a: '2' } });
        await cms.delete('watched');
        const events = (await take(w, 4)).filter((e) => e.type !== 'BOOKMARK').slice(0, 3);
        const more = events.length < 3 ? (await take(w, 3 - events.length)).filter((e) => e.type !== 'BOOKMARK') : [];
        const all = [...events, ...more];
        assert.deepEqual(all.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
        assert.equal(all[0]!.object.metadata.uid, made.metadata.uid);
        assert.equal((all[1]!.object as KubeObject & { data: Record<string, string> }).data.a, '2');
        assert.equal(all[0]!.object.kind, 'ConfigMap');
        // etcd's progress notifications arrive every second as bookmarks.
        const [bookmark] = (await take(w, 1));
        assert.equal(bookmark!.type, 'BOOKMARK');
        assert.ok(Number(bookmark!.object.metadata.resourceVersion) >= Number(all[2]!.object.metadata.resourceVersion));
      } finally {
        w.stop();
      }
    });
  }

  test('discovery finds the namespaced kinds', async () => {
    const found = await client('json').discovery.namespacedResources(['list', 'deletecollection']);
    const names = found.map((r) => `${r.group}/${r.name}`);
    for (const n of ['/configmaps', '/pods', 'apps/deployments', 'batch/jobs', `rbac.authorization.orch.io/roles`]) assert.ok(names.includes(n), n);
    assert.ok(!names.includes('/namespaces') && !names.includes('/nodes'));
  });

  test('an informer lists, then watches, and survives a server restart', async () => {
    const c = client('protobuf');
    const cms = c.resource('', 'v1', 'configmaps').namespace('informer');
    await cms.create({ metadata: { name: 'before' } });
    const factory = new SharedInformerFactory(c, { namespace: 'informer' });
    const inf = factory.forResource('', 'v1', 'configmaps');
    assert.equal(factory.forResource('', 'v1', 'configmaps'), inf, 'one informer per resource');
    inf.addIndexer('byLabel', (o) => Object.values(o.metadata.labels ?? {}));
    const seen: string[] = [];
    inf.addEventHandler({
      onAdd: (o, initial) => seen.push(`add ${o.metadata.name}${initial ? ' (initial)' : ''}`),
      onUpdate: (a, b) => { if (a.metadata.resourceVersion !== b.metadata.resourceVersion) seen.push(`update ${b.metadata.name}`); },
      onDelete: (o) => seen.push(`delete ${deletedObject(o).metadata.name}`),
    });
    factory.start();
    try {
      assert.ok(await factory.waitForCacheSync(10_000));
      assert.ok(seen.includes('add before (initial)'));
      await cms.create({ metadata: { name: 'during', labels: { tier: 'gold' } } });
      await until('the watch to deliver "during"', () => inf.indexer.get('informer', 'during') !== undefined);
      assert.deepEqual(inf.indexer.byIndex('byLabel', 'gold').map((o) => o.metadata.name), ['during']);
      assert.ok(inf.indexer.byNamespace('informer').length >= 2);
      const rvBefore = inf.lastSyncResourceVersion();
      await until('a bookmark to move the resourceVersion on', () => Number(inf.lastSyncResourceVersion()) > Number(rvBefore));

      const watchesBefore = inf.stats.watches;
      await t.restart();
      await cms.patch('during', 'merge', { metadata: { labels: { tier: 'silver' } } });
      await cms.delete('before');
      await until('the informer to follow the changes after the restart', () =>
        inf.indexer.get('informer', 'before') === undefined && inf.indexer.get('informer', 'during')?.metadata.labels?.tier === 'silver');
      assert.ok(inf.stats.watches > watchesBefore, 'the watch was resumed');
      assert.deepEqual(inf.indexer.byIndex('byLabel', 'silver').map((o) => o.metadata.name), ['during']);
      assert.deepEqual(inf.indexer.byIndex('byLabel', 'gold'), [], 'the index follows updates');
      assert.ok(seen.includes('update during') && seen.includes('delete before'), seen.join(', '));
    } finally {
      await factory.shutdown();
    }
  });

  test('an informer cut off until its resourceVersion is compacted relists (410) and reports what changed meanwhile', async () => {
    const r = await relay(t.server.port);
    const c = client('json', { server: `https://127.0.0.1:${r.port}` });
    const direct = client('json');
    const cms = direct.resource('', 'v1', 'configmaps').namespace('relist');
    await cms.create({ metadata: { name: 'stays' } });
    await cms.create({ metadata: { name: 'goes' } });
    const factory = new SharedInformerFactory(c, { namespace: 'relist' });
    const inf = factory.forResource('', 'v1', 'configmaps', { initialBackoffMs: 100, maxBackoffMs: 200 });
    const deleted: { name: string; unknown: boolean }[] = [];
    const added: string[] = [];
    inf.addEventHandler({
      onAdd: (o) => added.push(o.metadata.name!),
      onDelete: (o) => deleted.push({ name: deletedObject(o).metadata.name!, unknown: isDeletedFinalStateUnknown(o) }),
    });
    factory.start();
    try {
      assert.ok(await factory.waitForCacheSync(10_000));
      const rv = inf.lastSyncResourceVersion();
      r.cut();
      await cms.delete('goes');
      await cms.create({ metadata: { name: 'arrives' } });
      // History after rv is compacted away while the informer cannot reach the server.
      const ticks = direct.resource('', 'v1', 'configmaps').namespace('ticks');
      await until('etcd to compact past the informer', async () => {
        await ticks.create({ metadata: { generateName: 'tick-' } });
        try {
          await cms.list({ resourceVersion: String(Number(rv) + 1), resourceVersionMatch: 'Exact' });
          return false;
        } catch (e) {
          return e instanceof StatusError && e.code === 410;
        }
      });
      // A restarted server has no recent events in memory to replay from, so the watch from the old
      // resourceVersion can only be answered by etcd, which compacted it: 410, and a relist.
      await t.restart();
      r.mend();
      await until('the informer to relist', () => inf.stats.expired > 0 && inf.indexer.get('relist', 'arrives') !== undefined, 30_000);
      assert.deepEqual(inf.indexer.list().map((o) => o.metadata.name).sort(), ['arrives', 'stays']);
      assert.deepEqual(deleted, [{ name: 'goes', unknown: true }], 'a deletion missed while away is reported with its last known state');
      assert.ok(added.includes('arrives'));
    } finally {
      await factory.shutdown();
      await r.close();
    }
  });

  test('an exec plug-in prints a token of the token file; it runs once while the token is good, again after a 401', async () => {
    const count = files.write('runs', '');
    const tokenOut = files.write('token-to-print', token);
    const plugin = files.write('plugin.sh', `#!/bin/sh
echo run >> "${count}"
printf '{"apiVersion":"client.authentication.orch.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$(cat "${tokenOut}")"
`);
    chmodSync(plugin, 0o755);
    const kubeconfig = files.write('exec.kubeconfig', stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'k', cluster: { server: config.server, 'certificate-authority-data': b64(config.caData!) } }],
      users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.orch.io/v1', command: './plugin.sh', interactiveMode: 'Never' } } }],
      contexts: [{ name: 'c', context: { cluster: 'k', user: 'u', namespace: 'json' } }],
    }));
    const { client: c, namespace } = Client.fromKubeconfig(kubeconfig, {}, { format: 'protobuf' });
    clients.push(c);
    assert.equal(namespace, 'json');
    const review = await c.resource('authentication.orch.io', 'v1', 'selfsubjectreviews').create({ metadata: {} });
    assert.equal((review.status as { userInfo: { username: string } }).userInfo.username, 'admin');
    const runs = () => readFileSync(count, 'utf8').split('\n').filter(Boolean).length;
    await c.resource('', 'v1', 'configmaps').namespace(namespace).list();
    assert.equal(runs(), 1, 'the credential is cached');
    // A plug-in that would now print a refused token is not asked while the cached one is good.
    files.write('token-to-print', 'not-a-token');
    await c.resource('', 'v1', 'configmaps').namespace(namespace).list();
    assert.equal(runs(), 1);
    // A fresh client gets the refused token: the 401 drops it, and the next request runs the plug-in again.
    const { client: c2 } = Client.fromKubeconfig(kubeconfig);
    clients.push(c2);
    await assert.rejects(c2.resource('', 'v1', 'configmaps').namespace('json').list(), isUnauthorized);
    assert.equal(runs(), 2);
    files.write('token-to-print', token);
    await c2.resource('', 'v1', 'configmaps').namespace('json').list();
    assert.equal(runs(), 3, 'run again after the 401');
  });

  test('an exec plug-in\'s client certificate is used until it expires; the next one is presented on a fresh TLS connection', async () => {
    const first = clientCA.client('first-cert-user', ['system:masters']);
    const second = clientCA.client('second-cert-user', ['system:masters']);
    const certFile = files.write('exec-cert.pem', first.certPem);
    const keyFile = files.write('exec-key.pem', first.keyPem);
    // The credential expires a second after it is printed, so the client must ask again.
    const plugin = files.write('cert-plugin.sh', `#!/bin/sh
exp=$(date -u -d '+1 second' +%Y-%m-%dT%H:%M:%SZ)
node -e 'const fs=require("fs");process.stdout.write(JSON.stringify({apiVersion:"client.authentication.orch.io/v1",kind:"ExecCredential",status:{expirationTimestamp:process.argv[3],clientCertificateData:fs.readFileSync(process.argv[1],"utf8"),clientKeyData:fs.readFileSync(process.argv[2],"utf8")}}))' "${certFile}" "${keyFile}" "$exp"
`);
    chmodSync(plugin, 0o755);
    const kubeconfig = files.write('exec-cert.kubeconfig', stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'k', cluster: { server: config.server, 'certificate-authority-data': b64(config.caData!) } }],
      users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.orch.io/v1', command: './cert-plugin.sh', interactiveMode: 'Never' } } }],
      contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
    }));
    const { client: c } = Client.fromKubeconfig(kubeconfig);
    clients.push(c);
    const whoami = async () => ((await c.resource('authentication.orch.io', 'v1', 'selfsubjectreviews').create({ metadata: {} })).status as { userInfo: { username: string } }).userInfo.username;
    assert.equal(await whoami(), 'first-cert-user');
    files.write('exec-cert.pem', second.certPem);
    files.write('exec-key.pem', second.keyPem);
    // A kept-alive connection would go on presenting the first certificate.
    await until('the renewed certificate to be presented', async () => (await whoami()) === 'second-cert-user');
  });

  test('a client certificate authenticates, and a kubeconfig with certificate files relative to it works', async () => {
    const jane = clientCA.client('jane', ['system:masters']);
    files.write('jane.crt', jane.certPem);
    files.write('jane.key', jane.keyPem);
    files.write('ca.crt', config.caData!);
    const kubeconfig = files.write('cert.kubeconfig', stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'k', cluster: { server: config.server, 'certificate-authority': 'ca.crt' } }],
      users: [{ name: 'jane', user: { 'client-certificate': 'jane.crt', 'client-key': 'jane.key' } }],
      contexts: [{ name: 'c', context: { cluster: 'k', user: 'jane' } }],
    }));
    const { client: c, namespace } = Client.fromKubeconfig(kubeconfig, {}, { format: 'protobuf' });
    clients.push(c);
    assert.equal(namespace, 'default');
    const review = await c.resource('authentication.orch.io', 'v1', 'selfsubjectreviews').create({ metadata: {} });
    const user = (review.status as { userInfo: { username: string; groups: string[] } }).userInfo;
    assert.equal(user.username, 'jane');
    assert.ok(user.groups.includes('system:masters'));
  });
});
