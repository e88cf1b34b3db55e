// The chart's highly available topology, run here from its own rendering (topology.ts): 3 etcd
// members, 2 API servers and 2 controller managers as processes on loopback, with the chart's
// flags, certificates and kubeconfigs. Under 16 writers spread over both API servers it kills
// (SIGKILL) an etcd member for 10 s, an API server, and the leading controller manager, and checks
// what a client can observe: no acknowledged write lost and none made twice, the member caught up,
// a client moving to the other replica going on, the other manager leading within the lease and
// finishing a namespace deletion, and a watcher on each server seeing the same events in order.
// Recovery times are printed as diagnostics.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { noop } from 'cockatiel';
import { Etcd3 } from 'etcd3';
import { parseDuration } from '../../pkg/util/duration.js';
import { pollUntil } from '../integration/framework/authentication.js';
import { Client } from '../integration/framework/client.js';
import { pause, Watcher, Writer, type Seen } from './load.js';
import { flag, objectNamed, podSpec, renderChart, valuesFile } from './chart.js';
import { Topology, type PodProcess } from './topology.js';

const release = 'ha';
const namespace = 'orch';
const fullname = `${release}-orch`;
const WRITERS = 16;
const LOAD = 'load';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

describe('the chart\'s HA topology as processes', { timeout: 300_000 }, () => {
  let topo: Topology;
  let etcds: PodProcess[];
  let apiservers: PodProcess[];
  let managers: PodProcess[];
  /** An admin client per API server. */
  let clients: Client[];
  let writers: Writer[] = [];
  let watchers: Watcher[] = [];
  const etcdClients: Etcd3[] = [];
  const alive = (i: number) => apiservers[i]!.pid !== undefined;
  /** The controller managers' leader election flags, in seconds, as the chart rendered them (values/ha.yaml). */
  let lease: { durationS: number; renewS: number; retryS: number };
  /** From the processes' start until both API servers were ready and a manager led. */
  let readyMs = 0;

  before(async () => {
    const { objects: manifests } = await renderChart(release, namespace, ['--values', valuesFile('ha')]);
    const cm = podSpec(objectNamed(manifests, 'Deployment', `${fullname}-controller-manager`)).containers[0]!;
    const flagSeconds = (name: string) => parseDuration(flag(cm, name)) / 1000;
    lease = { durationS: flagSeconds('leader-elect-lease-duration'), renewS: flagSeconds('leader-elect-renew-deadline'), retryS: flagSeconds('leader-elect-retry-period') };
    // A Service's name reaches its last pod: for the API server's Service (which the controller
    // managers' kubeconfig names) the replica that stays up throughout.
    topo = await Topology.build(manifests, namespace, (_service, pods) => pods[pods.length - 1]!);
    etcds = topo.of('etcd');
    apiservers = topo.of('apiserver');
    managers = topo.of('controller-manager');
    assert.deepEqual([etcds.length, apiservers.length, managers.length], [3, 2, 2]);
    for (const p of topo.pods) p.start();
    const serving = topo.secret(`${fullname}-apiserver-serving`)['ca.crt']!;
    const token = topo.secret(`${fullname}-admin-kubeconfig`).token!;
    clients = apiservers.map((p) => new Client(`https://127.0.0.1:${p.portsByName.get('https')}`, serving).withToken(token));
    const etcdTLS = topo.secret(`${fullname}-etcd-client`);
    for (const m of etcds) {
      etcdClients.push(new Etcd3({
        hosts: [`https://127.0.0.1:${m.portsByName.get('client')}`],
        credentials: { rootCertificate: Buffer.from(etcdTLS['ca.crt']!), certChain: Buffer.from(etcdTLS['tls.crt']!), privateKey: Buffer.from(etcdTLS['tls.key']!) },
        faultHandling: { global: noop, host: () => noop },
      }));
    }
    const started = Date.now();
    try {
      for (const c of clients) await pollUntil(() => c.get('/readyz').catch((e: Error) => ({ status: 0, text: e.message })), (r) => r.status === 200, 'an API server ready', 90_000);
      await pollUntil(() => leaseHolder(), (h) => h !== undefined, 'a leading controller manager', 60_000);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${topo.describe()}`);
    }
    readyMs = Date.now() - started;
    assert.equal((await clients[0]!.post('/api/v1/namespaces', { metadata: { name: LOAD } })).status, 201);
    const listed = await clients[1]!.get(`/api/v1/configmaps?limit=1`);
    assert.equal(listed.status, 200, listed.text);
    const rv = String(listed.body.metadata.resourceVersion);
    watchers = clients.map((_, i) => new Watcher(i, clients, rv, alive));
    for (const w of watchers) w.start();
    writers = Array.from({ length: WRITERS }, (_, i) => new Writer(i, clients, i % clients.length, LOAD, alive));
    for (const w of writers) w.start();
    await pollUntil(async () => writers.every((w) => w.acked.length > 0), (ok) => ok, 'every writer acknowledged', 60_000);
  });

  after(async () => {
    await Promise.all([...writers, ...watchers].map((w) => w.stop()));
    for (const c of etcdClients) c.close();
    if (process.env.ORCH_TEST_LOG && topo) process.stderr.write(`${topo.describe()}\n`);
    await topo?.stop();
  });

  const acksSince = (at: number) => writers.flatMap((w) => w.acked).filter((a) => a.at >= at);
  /** The longest time between `from` and `to` in which no writer had a create acknowledged. */
  const longestStall = (from: number, to: number) => {
    const times = [from, ...acksSince(from).map((a) => a.at).filter((at) => at <= to).sort((x, y) => x - y), to];
    return Math.max(...times.slice(1).map((at, i) => at - times[i]!));
  };
  const leaseSpec = async (): Promise<{ holderIdentity?: string; renewTime?: string; acquireTime?: string }> => {
    const r = await clients[1]!.get('/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-controller-manager');
    return r.status === 200 ? r.body.spec ?? {} : {};
  };
  const leaseHolder = async (): Promise<string | undefined> => (await leaseSpec()).holderIdentity || undefined;
  /** Each member's revision and who it thinks leads; a member that does not answer is undefined. */
  const memberStatus = () => Promise.all(etcdClients.map((c) => c.maintenance.status().then(
    (s) => ({ revision: Number(s.header.revision), leader: s.leader, id: s.header.member_id }),
    () => undefined,
  )));

  test('SIGKILL of the etcd leader for 10 s: writes go on, the member comes back and catches up', async (t) => {
    t.diagnostic(`the topology (3 etcd members, 2 API servers, 2 controller managers) was ready ${seconds(readyMs)} after its processes started`);
    const before = await memberStatus();
    const leaderIndex = before.findIndex((s) => s && s.id === s.leader);
    assert.ok(leaderIndex >= 0, `a leader among ${JSON.stringify(before)}`);
    const member = etcds[leaderIndex]!;
    const killedAt = Date.now();
    await member.kill();
    // etcd's own part of the recovery: the others elect a leader among themselves.
    await pollUntil(memberStatus, (s) => s.some((m, i) => i !== leaderIndex && m !== undefined && m.leader !== before[leaderIndex]!.id && m.leader !== '0'), 'a new etcd leader', 10_000);
    const electedAt = Date.now();
    // The outage itself: ten seconds without this member, by design.
    await pause(10_000 - (electedAt - killedAt));
    assert.ok(acksSince(electedAt).length > 0, 'writes were acknowledged after the new leader was elected, while the member was down');
    // What the others had committed while it was down: the backlog it must catch up on (the
    // writers go on meanwhile; equal revisions of all three are checked once they stop).
    const backlog = Math.max(...(await memberStatus()).map((m) => m?.revision ?? 0));
    const restartedAt = Date.now();
    member.start();
    const caughtUp = await pollUntil(memberStatus, (s) => s.every((m) => m !== undefined) && s[leaderIndex]!.revision >= backlog && s.every((m) => m!.leader === s[0]!.leader), 'the member back with the others\' revision and leader', 60_000);
    const caughtUpAt = Date.now();
    t.diagnostic(`etcd leader (${member.name}) killed: a new leader elected ${seconds(electedAt - killedAt)} after the kill; the longest stall of all writes ${seconds(longestStall(killedAt, restartedAt))}; writes acknowledged during the 10 s outage: ${acksSince(killedAt).filter((a) => a.at < restartedAt).length}`);
    t.diagnostic(`etcd member restarted: at the others' revision of its restart (${backlog}) ${seconds(caughtUpAt - restartedAt)} after its start (now ${caughtUp[leaderIndex]!.revision})`);
  });

  test('SIGKILL of an API server: its clients go on on the other replica, the other replica\'s watch goes on', async (t) => {
    const killed = 0;
    const movers = writers.filter((w) => (w.moves.at(-1)?.to ?? w.id % clients.length) === killed);
    assert.ok(movers.length > 0);
    const killedAt = Date.now();
    await apiservers[killed]!.kill();
    const resumed = await pollUntil(async () => movers.map((w) => w.acked.find((a) => a.at > killedAt && a.server !== killed)), (acks) => acks.every(Boolean), 'every client of the killed server acknowledged by the other', 30_000);
    const worst = Math.max(...resumed.map((a) => a!.at - killedAt));
    const watchMoved = await pollUntil(async () => watchers[killed]!.resumes.find((r) => r.at > killedAt && r.server !== killed), (r) => r !== undefined, 'the watcher of the killed server resumed on the other', 30_000);
    t.diagnostic(`API server ${apiservers[killed]!.name} killed: its ${movers.length} writers acknowledged by the other replica within ${seconds(worst)}; its watcher resumed there after ${seconds(watchMoved!.at - killedAt)}`);
    const restartedAt = Date.now();
    apiservers[killed]!.start();
    await pollUntil(() => clients[killed]!.get('/readyz').catch((e: Error) => ({ status: 0, text: e.message })), (r) => r.status === 200, 'the killed API server ready again', 90_000);
    t.diagnostic(`API server restarted: ready ${seconds(Date.now() - restartedAt)} after its start`);
  });

  test('SIGKILL of the leading controller manager: the other takes the Lease and finishes a namespace deletion begun before', async (t) => {
    const holder = (await leaseHolder())!;
    const leader = managers.find((m) => m.output().includes(holder));
    assert.ok(leader, `the manager holding the lease (${holder}) is one of ours`);
    const doomed = 'doomed';
    assert.equal((await clients[1]!.post('/api/v1/namespaces', { metadata: { name: doomed } })).status, 201);
    for (let i = 0; i < 20; i++) assert.equal((await clients[1]!.post(`/api/v1/namespaces/${doomed}/configmaps`, { metadata: { name: `cm-${i}` } })).status, 201);
    assert.equal((await clients[1]!.delete(`/api/v1/namespaces/${doomed}`)).status, 200);
    const renewed = (await leaseSpec()).renewTime!;
    const killedAt = Date.now();
    await leader.kill();
    const next = await pollUntil(leaseHolder, (h) => h !== undefined && h !== holder, 'another manager holding the lease', 60_000);
    const takeover = Date.now() - killedAt;
    const unrenewed = Date.parse((await leaseSpec()).acquireTime!) - Date.parse(renewed);
    assert.ok(managers.some((m) => m !== leader && m.output().includes(next!)), 'the other manager took it');
    await pollUntil(() => clients[1]!.get(`/api/v1/namespaces/${doomed}`), (r) => r.status === 404, 'the namespace deleted', 90_000);
    const deleted = Date.now() - killedAt;
    t.diagnostic(`leading controller manager (${leader.name}) killed: the other holds the Lease ${seconds(takeover)} after the kill, ${seconds(unrenewed)} after the last renewal (lease ${lease.durationS} s, retry ${lease.retryS} s, renew deadline ${lease.renewS} s); the namespace deletion begun before the kill done ${seconds(deleted)} after it`);
    // A follower takes the lease once it has seen it unrenewed for the lease's duration: it looks
    // every retry period (jittered up to 1.2 of it), and one attempt may take up to the renew deadline.
    const bound = lease.durationS + 2 * lease.retryS + lease.renewS;
    assert.ok(takeover <= bound * 1000, `takeover within ${bound} s (${seconds(takeover)})`);
    leader.start();
  });

  test('no acknowledged write lost or made twice, and both watchers saw the same events in order', async (t) => {
    await Promise.all(writers.map((w) => w.stop()));
    const sentinel = await clients[1]!.post(`/api/v1/namespaces/${LOAD}/configmaps`, { metadata: { name: 'sentinel' } });
    assert.equal(sentinel.status, 201);
    const sentinelRV = Number(sentinel.body.metadata.resourceVersion);
    await pollUntil(async () => watchers.map((w) => w.lastRV), (rvs) => rvs.every((rv) => rv >= sentinelRV), 'both watchers at the sentinel', 60_000);
    await Promise.all(watchers.map((w) => w.stop()));

    const acked = writers.flatMap((w) => w.acked.map((a) => a.name));
    const uncertain = new Set(writers.flatMap((w) => w.uncertain));
    for (const w of writers) assert.deepEqual(w.refused, [], `writer ${w.id} was refused`);
    for (const [i, c] of clients.entries()) {
      const listed = await c.get(`/api/v1/namespaces/${LOAD}/configmaps`);
      assert.equal(listed.status, 200);
      // The writers' ConfigMaps (the controller manager publishes kube-root-ca.crt beside them).
      const names = (listed.body.items as { metadata: { name: string } }[]).map((o) => o.metadata.name).filter((n) => /^w\d+-\d+$/.test(n));
      const stored = new Set(names);
      assert.equal(stored.size, names.length, 'no name listed twice');
      const lost = acked.filter((n) => !stored.has(n));
      assert.deepEqual(lost, [], `acknowledged writes missing on API server ${i}`);
      const phantom = names.filter((n) => !acked.includes(n) && !uncertain.has(n));
      assert.deepEqual(phantom, [], `stored writes no writer made on API server ${i}`);
    }
    const [a, b] = watchers as [Watcher, Watcher];
    for (const w of watchers) {
      assert.deepEqual(w.errors, [], `watcher ${w.home} errors`);
      const rvs = w.events.map((e) => e.rv);
      assert.ok(rvs.every((rv, i) => i === 0 || rv >= rvs[i - 1]!), `watcher ${w.home}: resourceVersions in order`);
      const added = w.events.filter((e) => e.namespace === LOAD && e.type === 'ADDED').map((e) => e.name);
      assert.equal(new Set(added).size, added.length, `watcher ${w.home}: each ConfigMap added once`);
      const missing = acked.filter((n) => !added.includes(n));
      assert.deepEqual(missing, [], `watcher ${w.home}: acknowledged creates not seen`);
    }
    const perNamespace = (events: Seen[]) => {
      const out = new Map<string, string[]>();
      for (const e of events) out.set(e.namespace, [...(out.get(e.namespace) ?? []), `${e.type} ${e.name} ${e.rv}`]);
      return out;
    };
    const pa = perNamespace(a.events.filter((e) => e.rv <= sentinelRV));
    const pb = perNamespace(b.events.filter((e) => e.rv <= sentinelRV));
    assert.deepEqual([...pa.keys()].sort(), [...pb.keys()].sort());
    for (const [ns, seq] of pa) assert.deepEqual(seq, pb.get(ns), `the events of namespace ${ns} as each watcher saw them`);
    t.diagnostic(`${acked.length} creates acknowledged by ${WRITERS} writers (${uncertain.size} of unknown outcome, ${[...uncertain].filter((n) => a.events.some((e) => e.name === n)).length} of them applied); each watcher saw ${a.events.length} events, resumed ${a.resumes.length} and ${b.resumes.length} times`);
    t.diagnostic(`restarts after exits of their own: ${topo.pods.map((p) => `${p.name} ${p.restarts}`).join(', ')}`);
    const etcd = await memberStatus();
    assert.equal(new Set(etcd.map((m) => m?.revision)).size, 1, `every etcd member at one revision: ${JSON.stringify(etcd)}`);
  });
});
