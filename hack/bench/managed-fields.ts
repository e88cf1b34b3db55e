// What managedFields cost in a list: N 1 KiB ConfigMaps created through the API (each with its one
// managedFields entry) against the same objects written to etcd without them; the size of the list
// response and of the stored values of each set, and how much larger the list is with them. The
// lines are printed in the form earlier runs printed them, which other issues quote.
import { Etcd3Storage } from '../../pkg/storage/etcd3/store.js';
import { jsonStorageCodec } from '../../pkg/storage/json-codec.js';
import type { BenchContext } from './context.js';

async function inParallel(count: number, width: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await fn(next++);
  }));
}

export async function managedFieldsFigures(ctx: BenchContext): Promise<void> {
  const { api, report } = ctx;
  const count = ctx.config.mfObjects;
  report.line(`\n## managedFields (${count} ConfigMaps)`);
  for (const name of ['bench-mf', 'bench-nomf']) {
    await api.ok('POST', '/api/v1/namespaces', Buffer.from(JSON.stringify({ metadata: { name } })));
  }
  await inParallel(count, 16, async (i) => {
    const body = { metadata: { name: `cm-${i}`, labels: { app: 'bench' } }, data: { key: 'value', other: 'x'.repeat(1024) } };
    await api.ok('POST', '/api/v1/namespaces/bench-mf/configmaps?fieldManager=bench', Buffer.from(JSON.stringify(body)));
  });
  const etcd = new Etcd3Storage({ servers: [ctx.cluster.etcd.endpoint], prefix: '/registry', codec: jsonStorageCodec });
  try {
    const stored = await etcd.list('/core/configmaps/bench-mf/', {});
    await inParallel(stored.items.length, 16, async (i) => {
      const { managedFields: _m, resourceVersion: _rv, ...metadata } = stored.items[i]!.metadata;
      await etcd.create(`/core/configmaps/bench-nomf/${metadata.name!}`, { ...stored.items[i]!, metadata: { ...metadata, namespace: 'bench-nomf' } });
    });
    const sizes: number[] = [];
    for (const [what, ns] of [['with managedFields', 'bench-mf'], ['without managedFields', 'bench-nomf']] as const) {
      const list = await api.ok('GET', `/api/v1/namespaces/${ns}/configmaps`);
      const items = (JSON.parse(list.body.toString('utf8')) as { items: unknown[] }).items.length;
      sizes.push(list.body.length);
      report.figure(`list of ${items} ConfigMaps ${what}: response`, list.body.length, 'bytes');
      const values = await etcd.list(`/core/configmaps/${ns}/`, {});
      const bytes = values.items.reduce((n, o) => n + Buffer.byteLength(jsonStorageCodec.encode(o)), 0);
      report.figure(`  stored values (${values.items.length} in etcd)`, bytes, 'bytes');
      report.add({ figure: `list of ${items} ConfigMaps ${what}: response (bytes)`, orch: String(list.body.length) });
    }
    const overhead = (sizes[0]! / sizes[1]! - 1) * 100;
    report.figure('  the list is larger with managedFields by', overhead, '%');
    report.add({ figure: 'the list is larger with managedFields by (%)', orch: overhead.toFixed(1) });
  } finally {
    await etcd.close();
  }
}
