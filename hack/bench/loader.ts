// A loader thread: its own event loop, keep-alive agent and etcd3 client, generating the load of
// its share of the clients and receiving its share of the watches. Several of them keep the load
// tool from being the bottleneck, and none shares an event loop with the server (a separate process).
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';
import { Etcd3 } from 'etcd3';
import { ApiClient, configMap, configMapsPath, resourceVersionOf } from './api-client.js';
import { nowMs } from './clock.js';
import { benchItem, benchItemsPath } from './custom-resource.js';
import { CRUD_NAMESPACE, type Backend, type CrudResult, type ListResult, type LoaderInit, type Op, type Reply, type Request, type Resource, type Task, type WatchResult } from './protocol.js';

/** How the cells write each resource: its collection's path, a body (with `seq` varying an update), its objects' names, and its raw etcd keys. */
const resources: Record<Resource, { path: string; body: (name: string, seq?: number, resourceVersion?: string) => Buffer; namePrefix: string; rawPrefix: string }> = {
  configmap: {
    path: configMapsPath(CRUD_NAMESPACE),
    body: (name, seq, rv) => configMap(CRUD_NAMESPACE, name, seq, rv),
    namePrefix: 'cm',
    rawPrefix: `/bench-raw/configmaps/${CRUD_NAMESPACE}/`,
  },
  'custom-resource': {
    path: benchItemsPath(CRUD_NAMESPACE),
    body: (name, seq, rv) => benchItem(CRUD_NAMESPACE, name, seq, rv),
    namePrefix: 'cr',
    rawPrefix: `/bench-raw/benchitems/${CRUD_NAMESPACE}/`,
  },
};

const init = workerData as LoaderInit;

/** An object this thread created: only it touches it, so updates never conflict across threads. */
interface Owned {
  name: string;
  resourceVersion: string;
}

const owned: Record<Backend, Record<Resource, Owned[]>> = { orch: { configmap: [], 'custom-resource': [] }, etcd: { configmap: [], 'custom-resource': [] } };
let seq = 0;
let etcdClient: Etcd3 | undefined;

function etcd(): Etcd3 {
  // One client (one gRPC channel) for the thread, as the server holds one for the process; full
  // lists of 10,000 objects exceed gRPC's default 4 MiB receive limit, as they would for the server.
  etcdClient ??= new Etcd3({ hosts: [init.etcdEndpoint], grpcOptions: { 'grpc.max_receive_message_length': -1 } });
  return etcdClient;
}

/** One request of a cell against the server; rejects on anything but success. */
async function orchOp(api: ApiClient, resource: Resource, op: Op, pick: () => Owned): Promise<void> {
  const { path, body, namePrefix } = resources[resource];
  if (op === 'create') {
    const name = `${namePrefix}-l${init.index}-${seq++}`;
    const r = await api.ok('POST', path, body(name));
    owned.orch[resource].push({ name, resourceVersion: resourceVersionOf(r.body) });
  } else if (op === 'get') {
    await api.ok('GET', `${path}/${pick().name}`);
  } else {
    // PUT with the resourceVersion last read: optimistic concurrency exactly as a controller does it.
    const o = pick();
    const r = await api.ok('PUT', `${path}/${o.name}`, body(o.name, seq++, o.resourceVersion));
    o.resourceVersion = resourceVersionOf(r.body);
  }
}

/** The same request straight to etcd: create as a transaction, get, update as a compare-and-swap. */
async function etcdOp(resource: Resource, op: Op, pick: () => Owned): Promise<void> {
  const c = etcd();
  const { body, namePrefix, rawPrefix } = resources[resource];
  if (op === 'create') {
    const name = `${namePrefix}-l${init.index}-${seq++}`;
    const key = rawPrefix + name;
    const r = await c.if(key, 'Create', '==', 0).then(c.put(key).value(body(name))).commit();
    if (!r.succeeded) throw new Error(`etcd create of ${key}: the key exists`);
    owned.etcd[resource].push({ name, resourceVersion: r.header.revision });
  } else if (op === 'get') {
    const key = rawPrefix + pick().name;
    if ((await c.get(key).buffer()) === null) throw new Error(`etcd get of ${key}: not found`);
  } else {
    const o = pick();
    const key = rawPrefix + o.name;
    const r = await c.if(key, 'Mod', '==', o.resourceVersion).then(c.put(key).value(body(o.name, seq++))).commit();
    if (!r.succeeded) throw new Error(`etcd compare-and-swap of ${key} at ${o.resourceVersion}: lost`);
    o.resourceVersion = r.header.revision;
  }
}

async function crud(t: Extract<Task, { kind: 'crud' }>): Promise<CrudResult> {
  const objects = owned[t.backend][t.resource];
  if (t.op !== 'create' && objects.length < t.clients) throw new Error(`${objects.length} ${t.backend} ${t.resource} objects for ${t.clients} clients; run the creates first`);
  const api = t.backend === 'orch' ? new ApiClient(init.target, t.clients) : undefined;
  const measureFrom = t.startAt + t.warmupMs;
  const end = measureFrom + t.measureMs;
  let latencies = new Float64Array(4096);
  let count = 0;
  const wait = t.startAt - nowMs();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  try {
    await Promise.all(Array.from({ length: t.clients }, async (_, k) => {
      // Client k reads and writes only its own slice, so no two clients race on one object.
      const mine = objects.filter((_o, i) => i % t.clients === k);
      let next = 0;
      const pick = () => mine[next++ % mine.length]!;
      while (nowMs() < end) {
        const start = nowMs();
        await (api ? orchOp(api, t.resource, t.op, pick) : etcdOp(t.resource, t.op, pick));
        const done = nowMs();
        if (done >= measureFrom && done <= end) {
          if (count === latencies.length) {
            const grown = new Float64Array(latencies.length * 2);
            grown.set(latencies);
            latencies = grown;
          }
          latencies[count++] = done - start;
        }
      }
    }));
  } finally {
    api?.close();
  }
  return { count, latenciesMs: latencies.slice(0, count) };
}

async function populate(t: Extract<Task, { kind: 'populate' }>): Promise<number> {
  const api = new ApiClient(init.target, t.clients);
  let next = t.from;
  try {
    await Promise.all(Array.from({ length: t.clients }, async () => {
      while (next < t.to) {
        const i = next++;
        await api.ok('POST', configMapsPath(t.namespace), configMap(t.namespace, `${t.prefix}${i}`));
      }
    }));
  } finally {
    api.close();
  }
  return t.to - t.from;
}

async function list(t: Extract<Task, { kind: 'list' }>): Promise<ListResult> {
  const api = new ApiClient(init.target, 1);
  let ms = 0;
  let items = 0;
  let bytes = 0;
  let pages = 0;
  try {
    let token = '';
    do {
      const query = t.limit ? `?limit=${t.limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}` : '';
      const start = nowMs();
      const r = await api.ok('GET', t.path + (t.path.includes('?') && query ? query.replace('?', '&') : query));
      ms += nowMs() - start;
      // Parsed outside the timed part: the figure is the server's, not JSON.parse's.
      const body = JSON.parse(r.body.toString('utf8')) as { items: unknown[]; metadata: { continue?: string } };
      items += body.items.length;
      bytes += r.body.length;
      pages++;
      token = body.metadata.continue ?? '';
    } while (token);
  } finally {
    api.close();
  }
  return { ms, items, bytes, pages };
}

/** The first key after every key that starts with `prefix`. */
function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]!++;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

async function etcdList(t: Extract<Task, { kind: 'etcd-list' }>): Promise<ListResult> {
  const c = etcd();
  const rangeEnd = prefixEnd(Buffer.from(t.prefix));
  let key = Buffer.from(t.prefix);
  let revision: string | undefined;
  let ms = 0;
  let items = 0;
  let bytes = 0;
  let pages = 0;
  for (;;) {
    const start = nowMs();
    const r = await c.kv.range({ key, range_end: rangeEnd, serializable: t.serializable ?? false, ...(t.limit ? { limit: t.limit } : {}), ...(revision ? { revision } : {}) });
    ms += nowMs() - start;
    revision ??= r.header.revision;
    items += r.kvs.length;
    bytes += r.kvs.reduce((n, kv) => n + kv.value.length, 0);
    pages++;
    if (!t.limit || !r.more || r.kvs.length === 0) break;
    key = Buffer.concat([r.kvs[r.kvs.length - 1]!.key, Buffer.from([0])]);
  }
  return { ms, items, bytes, pages };
}

/** The open watches of this thread and what each has received. */
interface OpenWatch {
  req: ReturnType<typeof https.get>;
  received: number;
}

let watchState: {
  agent: https.Agent;
  watches: OpenWatch[];
  events: number;
  lastReceivedAt: Float64Array;
  complete: number;
  allAt: number;
  failure: Error | undefined;
  wake: () => void;
} | undefined;

const OPEN_AT_ONCE = 128;

async function watchOpen(t: Extract<Task, { kind: 'watch-open' }>): Promise<number> {
  // Every watch needs its own connection (HTTP/1.1 streams one response per socket).
  const agent = new https.Agent({ keepAlive: true, maxSockets: Infinity });
  const state = {
    agent,
    watches: [] as OpenWatch[],
    events: t.events,
    lastReceivedAt: new Float64Array(t.events),
    complete: 0,
    allAt: 0,
    failure: undefined as Error | undefined,
    wake: () => undefined as void,
  };
  watchState = state;
  const marker = `"name":"${t.prefix}`;
  const fail = (e: Error) => {
    state.failure ??= e;
    state.wake();
  };
  const open = () => new Promise<void>((resolve, reject) => {
    const w: OpenWatch = { req: undefined as unknown as OpenWatch['req'], received: 0 };
    w.req = https.get({ host: init.target.host, port: init.target.port, ca: init.target.ca, agent, path: t.path, headers: { Authorization: `Bearer ${init.target.token}`, Accept: 'application/json' } }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch ${t.path}: ${res.statusCode}`));
        res.resume();
        return;
      }
      resolve();
      res.setEncoding('utf8');
      let partial = '';
      res.on('data', (chunk: string) => {
        const at = nowMs();
        partial += chunk;
        let nl: number;
        // One JSON event per line; only the name is read, so the receiving side stays cheap.
        while ((nl = partial.indexOf('\n')) >= 0) {
          const line = partial.slice(0, nl);
          partial = partial.slice(nl + 1);
          if (line.startsWith('{"type":"ERROR"')) {
            fail(new Error(`a watcher got an ERROR event: ${line.slice(0, 300)}`));
            continue;
          }
          if (!line.startsWith('{"type":"ADDED"')) continue;
          const m = line.indexOf(marker);
          const i = m < 0 ? NaN : parseInt(line.slice(m + marker.length, m + marker.length + 12), 10);
          if (!(i >= 0 && i < state.events)) continue;
          if (at > state.lastReceivedAt[i]!) state.lastReceivedAt[i] = at;
          if (++w.received === state.events) {
            state.complete++;
            if (state.complete === state.watches.length) {
              state.allAt = at;
              state.wake();
            }
          }
        }
      });
      res.on('end', () => {
        if (w.received < state.events) fail(new Error(`a watch ended after ${w.received} of ${state.events} events`));
      });
    });
    w.req.on('error', (e) => {
      reject(e);
      if (w.received < state.events) fail(e);
    });
    state.watches.push(w);
  });
  // At most OPEN_AT_ONCE handshakes in flight: thousands at once overflow the server's accept backlog.
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(OPEN_AT_ONCE, t.count) }, async () => {
    while (next < t.count) {
      next++;
      await open();
    }
  }));
  return t.count;
}

async function watchWait(t: Extract<Task, { kind: 'watch-wait' }>): Promise<WatchResult> {
  const s = watchState;
  if (!s) throw new Error('no watches open');
  if (s.complete < s.watches.length && !s.failure) {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      s.wake = resolve;
      timer = setTimeout(resolve, t.timeoutMs);
    });
    clearTimeout(timer);
  }
  if (s.failure) throw s.failure;
  if (s.complete < s.watches.length) {
    const missing = s.watches.filter((w) => w.received < s.events);
    const fewest = Math.min(...missing.map((w) => w.received));
    throw new Error(`${missing.length} of ${s.watches.length} watchers still miss events after ${t.timeoutMs} ms (the worst has ${fewest} of ${s.events})`);
  }
  return { lastReceivedAt: s.lastReceivedAt, allAt: s.allAt };
}

function watchClose(): number {
  const s = watchState;
  watchState = undefined;
  if (!s) return 0;
  // A wait still pending (the run failed before the events were all sent) ends now.
  s.failure ??= new Error('the watches were closed');
  s.wake();
  for (const w of s.watches) w.req.destroy();
  s.agent.destroy();
  return s.watches.length;
}

async function handle(task: Task): Promise<unknown> {
  switch (task.kind) {
    case 'ping': return init.index;
    case 'crud': return crud(task);
    case 'populate': return populate(task);
    case 'list': return list(task);
    case 'etcd-list': return etcdList(task);
    case 'watch-open': return watchOpen(task);
    case 'watch-wait': return watchWait(task);
    case 'watch-close': return watchClose();
  }
}

parentPort!.on('message', (m: Request) => {
  handle(m.task).then(
    (result) => parentPort!.postMessage({ id: m.id, ok: true, result } satisfies Reply),
    (e: unknown) => parentPort!.postMessage({ id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) } satisfies Reply),
  );
});
