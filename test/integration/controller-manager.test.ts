// The controller manager against the real API server: run in-process through its app's run
// function (and once as the built binary for its flags, /healthz, /metrics and SIGTERM). A
// Terminating namespace holding several kinds empties and goes, reporting its conditions on the
// way; every namespace gets (and keeps) its `default` ServiceAccount and `kube-root-ca.crt`; two
// managers elect one leader on the Lease and the standby takes over when the leader dies.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { defaultOptions, type ControllerManagerOptions } from '../../cmd/controller-manager/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../cmd/controller-manager/app/server.js';
import { Client as OrchClient, isNotFound, type KubeObject } from '../../pkg/client/index.js';
import { Logger } from '../../pkg/log/logger.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { Client as RawClient } from './framework/client.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';

const repo = resolve(fileURLToPath(import.meta.url), '../../../../..');
const mainJs = join(repo, '_output/dist/cmd/controller-manager/main.js');

interface Condition { type: string; status: string; reason?: string; message?: string }
interface Namespace extends KubeObject { spec?: { finalizers?: string[] }; status?: { phase?: string; conditions?: Condition[] } }
interface Lease extends KubeObject { spec?: { holderIdentity?: string; leaseTransitions?: number; leaseDurationSeconds?: number; renewTime?: string; acquireTime?: string } }

describe('the controller manager', () => {
  let t: TestServer;
  let kc: Kubeconfig;
  let client: OrchClient;
  const logs: string[] = [];
  const logger = new Logger(2, (l) => {
    logs.push(l);
    if (process.env.ORCH_TEST_LOG) process.stderr.write(l);
  });
  const running: RunningControllerManager[] = [];

  /** A manager in this process, on a free port, with upstream's leader election timings unless a test shortens them. */
  async function start(overrides: Partial<ControllerManagerOptions> = {}): Promise<RunningControllerManager> {
    const cm = await runControllerManager({
      ...defaultOptions(), kubeconfig: kc.path, securePort: 0, bindAddress: '127.0.0.1',
      ...overrides,
    }, logger);
    running.push(cm);
    return cm;
  }

  const namespaces = () => client.resource<Namespace>('', 'v1', 'namespaces');
  const inNs = (resource: string, ns: string, group = '', version = 'v1') => client.resource(group, version, resource).namespace(ns);
  const exists = async (get: () => Promise<unknown>) => {
    try {
      await get();
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
  };
  const lease = (name: string) => client.resource<Lease>('coordination.orch.io', 'v1', 'leases').namespace('orch-system').get(name);

  before(async () => {
    t = await startTestServer();
    kc = writeKubeconfig(t);
    client = OrchClient.fromKubeconfig(kc.path).client;
  });
  after(async () => {
    for (const cm of running) await cm.stop({ release: false });
    client?.close();
    kc?.remove();
    await t?.stop();
  });

  describe('with every default controller', () => {
    let cm: RunningControllerManager;
    before(async () => {
      cm = await start();
      await pollUntil(async () => cm.isLeading(), (v) => v, 'the manager to lead', 15_000);
    });
    after(async () => cm.stop());

    test('a new namespace gets its default ServiceAccount and kube-root-ca.crt, and both come back', async () => {
      await namespaces().create({ metadata: { name: 'cm-fresh' } });
      await pollUntil(() => exists(() => inNs('serviceaccounts', 'cm-fresh').get('default')), (v) => v, 'the default service account', 15_000);
      const cm1 = await pollUntil(() => inNs('configmaps', 'cm-fresh').get('kube-root-ca.crt').catch(() => undefined), (v) => !!v, 'kube-root-ca.crt', 15_000);
      assert.equal((cm1!.data as Record<string, string>)['ca.crt'], t.server.cert.cert, 'the kubeconfig\'s CA is published');
      assert.ok(cm1!.metadata.annotations?.['orch.io/description']);

      const sa = await inNs('serviceaccounts', 'cm-fresh').get('default');
      await inNs('serviceaccounts', 'cm-fresh').delete('default');
      const again = await pollUntil(() => inNs('serviceaccounts', 'cm-fresh').get('default').catch(() => undefined), (v) => !!v && v.metadata.uid !== sa.metadata.uid, 'the default service account to come back', 15_000);
      assert.notEqual(again!.metadata.uid, sa.metadata.uid);

      await inNs('configmaps', 'cm-fresh').update({ ...cm1!, data: { 'ca.crt': 'tampered' } });
      await pollUntil(() => inNs('configmaps', 'cm-fresh').get('kube-root-ca.crt'), (v) => (v.data as Record<string, string>)['ca.crt'] === t.server.cert.cert, 'an edited kube-root-ca.crt to be restored', 15_000);
      await inNs('configmaps', 'cm-fresh').delete('kube-root-ca.crt');
      await pollUntil(() => inNs('configmaps', 'cm-fresh').get('kube-root-ca.crt').catch(() => undefined), (v) => !!v && v.metadata.uid !== cm1!.metadata.uid, 'a deleted kube-root-ca.crt to come back', 15_000);
      assert.ok(logs.some((l) => l.includes('created a service account') && l.includes('cm-fresh')), 'an operator reads what the controller did');
    });

    test('a Terminating namespace is emptied of every kind, reports its conditions, waits for finalizers, then goes', async () => {
      const ns = 'cm-doomed';
      await namespaces().create({ metadata: { name: ns } });
      await pollUntil(() => exists(() => inNs('serviceaccounts', ns).get('default')), (v) => v, 'the default service account', 15_000);
      await inNs('configmaps', ns).create({ metadata: { name: 'c1' }, data: { a: 'b' } });
      await inNs('configmaps', ns).create({ metadata: { name: 'c2' }, data: { a: 'b' } });
      await inNs('secrets', ns).create({ metadata: { name: 's1' }, stringData: { k: 'v' } });
      await inNs('deployments', ns, 'apps').create({
        metadata: { name: 'd1' },
        spec: { selector: { matchLabels: { app: 'd1' } }, template: { metadata: { labels: { app: 'd1' } }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] } } },
      });
      await inNs('roles', ns, 'rbac.authorization.orch.io').create({ metadata: { name: 'r1' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
      await inNs('pods', ns).create({ metadata: { name: 'held', finalizers: ['example.com/hold'] }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] } });

      await namespaces().delete(ns);
      // The pod's finalizer keeps it: the namespace says so in its conditions and stays.
      const stuck = await pollUntil(() => namespaces().get(ns), (v) => (v.status?.conditions ?? []).some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True'),
        'the finalizers-remaining condition', 30_000);
      const cond = (type: string) => stuck.status!.conditions!.find((c) => c.type === type)!;
      assert.equal(stuck.status?.phase, 'Terminating');
      assert.deepEqual({ ...cond('NamespaceFinalizersRemaining') }, {
        ...cond('NamespaceFinalizersRemaining'), reason: 'SomeFinalizersRemain', message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
      });
      assert.equal(cond('NamespaceContentRemaining').status, 'True');
      assert.equal(cond('NamespaceContentRemaining').reason, 'SomeResourcesRemain');
      assert.match(cond('NamespaceContentRemaining').message!, /^Some resources are remaining: pods\. has 1 resource instances$/);
      assert.deepEqual([cond('NamespaceDeletionDiscoveryFailure').status, cond('NamespaceDeletionDiscoveryFailure').reason], ['False', 'ResourcesDiscovered']);
      assert.deepEqual([cond('NamespaceDeletionContentFailure').status, cond('NamespaceDeletionContentFailure').reason], ['False', 'ContentDeleted']);
      assert.deepEqual([cond('NamespaceDeletionGroupVersionParsingFailure').status, cond('NamespaceDeletionGroupVersionParsingFailure').reason], ['False', 'ParsedGroupVersions']);
      assert.deepEqual(stuck.spec?.finalizers, ['orch'], 'our finalizer stays while content remains');
      // Everything else is gone already.
      for (const [resource, group, name] of [['configmaps', '', 'c1'], ['configmaps', '', 'c2'], ['secrets', '', 's1'], ['deployments', 'apps', 'd1'], ['roles', 'rbac.authorization.orch.io', 'r1'], ['serviceaccounts', '', 'default']] as const) {
        assert.equal(await exists(() => inNs(resource, ns, group).get(name)), false, `${resource}/${name} deleted`);
      }
      const pod = await inNs('pods', ns).get('held');
      assert.ok(pod.metadata.deletionTimestamp, 'the pod is being deleted');

      await inNs('pods', ns).patch('held', 'merge', { metadata: { finalizers: null } });
      await pollUntil(() => exists(() => namespaces().get(ns)), (v) => !v, 'the namespace to go', 30_000);
      // The manager logs after its last write returns, so the line may reach us after the namespace is gone.
      await pollUntil(async () => logs.some((l) => l.includes('namespace emptied and finalized') && l.includes(ns)), (v) => v, 'the manager to log the namespace finalized');
    });

    test('the manager serves /healthz and /metrics over HTTPS', async () => {
      const raw = new RawClient(`https://127.0.0.1:${cm.port}`, cm.cert);
      const h = await raw.get('/healthz');
      assert.equal(h.status, 200, h.text);
      assert.equal(h.text, 'ok');
      const m = await raw.get('/metrics');
      assert.equal(m.status, 200);
      assert.match(m.text, /leader_election_master_status\{name="orch-controller-manager"\} 1/);
      assert.match(m.text, /process_cpu_user_seconds_total/);
    });
  });

  test('leader election: one leader on the Lease, the standby takes over within the lease duration when the leader dies', async () => {
    const opts = { leaseName: 'cm-election', leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 300 };
    const first = await start(opts);
    await pollUntil(async () => first.isLeading(), (v) => v, 'the first manager to lead', 15_000);
    const second = await start(opts);
    const held = await lease('cm-election');
    assert.equal(held.spec?.holderIdentity, first.identity);
    assert.match(first.identity, /^.+_[0-9a-f-]{36}$/, '<hostname>_<uuid>');
    // The standby keeps trying but never runs its controllers while the leader renews.
    for (let i = 0; i < 10; i++) {
      assert.equal(second.isLeading(), false, 'no duplicate work');
      assert.equal((await lease('cm-election')).spec?.holderIdentity, first.identity);
      await new Promise((r) => setTimeout(r, 150));
    }
    const renewed = await lease('cm-election');
    assert.notEqual(renewed.metadata.resourceVersion, held.metadata.resourceVersion, 'the leader renews');

    // The leader dies without releasing: the standby waits out the lease, then takes it.
    await first.stop({ release: false });
    const abandoned = await lease('cm-election');
    assert.equal(abandoned.spec?.holderIdentity, first.identity, 'a dead leader does not release');
    const taken = await pollUntil(() => lease('cm-election'), (l) => l.spec?.holderIdentity === second.identity, 'the standby to take over', 20_000);
    // Not before the dead leader's lease ran out (the last renewal plus the lease duration).
    const expiredAt = Date.parse(abandoned.spec!.renewTime!) + 3000;
    assert.ok(Date.parse(taken.spec!.acquireTime!) >= expiredAt - 1, 'the standby waited out the lease');
    assert.equal(taken.spec?.leaseTransitions, (held.spec?.leaseTransitions ?? 0) + 1);
    await pollUntil(async () => second.isLeading(), (v) => v, 'the standby to run its controllers', 5000);

    // A graceful stop releases the lease at once.
    await second.stop();
    assert.equal((await lease('cm-election')).spec?.holderIdentity ?? '', '');
  });

  test('--controllers=*,-namespace leaves a Terminating namespace alone', async () => {
    const cm = await start({ controllers: ['*', '-namespace'], leaseName: 'cm-no-namespace' });
    try {
      await namespaces().create({ metadata: { name: 'cm-kept' } });
      await pollUntil(() => exists(() => inNs('serviceaccounts', 'cm-kept').get('default')), (v) => v, 'the default service account', 15_000);
      await inNs('configmaps', 'cm-kept').create({ metadata: { name: 'c1' } });
      await namespaces().delete('cm-kept');
      // A namespace created after the deletion is served by the same manager: once it has its
      // service account, the manager has seen the Terminating namespace too and left it be.
      await namespaces().create({ metadata: { name: 'cm-later' } });
      await pollUntil(() => exists(() => inNs('serviceaccounts', 'cm-later').get('default')), (v) => v, 'the later namespace\'s service account', 15_000);
      const kept = await namespaces().get('cm-kept');
      assert.ok(kept.metadata.deletionTimestamp);
      assert.deepEqual(kept.spec?.finalizers, ['orch']);
      assert.equal(kept.status?.conditions, undefined, 'no namespace controller reported on it');
      assert.equal(await exists(() => inNs('configmaps', 'cm-kept').get('c1')), true);
    } finally {
      await cm.stop();
    }
    // A manager with the namespace controller finishes the job.
    const full = await start({ leaseName: 'cm-no-namespace' });
    try {
      await pollUntil(() => exists(() => namespaces().get('cm-kept')), (v) => !v, 'the namespace to go once the controller runs', 30_000);
    } finally {
      await full.stop();
    }
  });

  test('a ReplicaSet whose pods are refused for want of the default ServiceAccount gets them promptly once it appears', async () => {
    // Without the serviceaccount controller the test plays its part, late: every pod create is
    // refused meanwhile (ServiceAccount admission), and the ReplicaSet controller retries with its
    // 5 ms doubling backoff, so its next try comes soon after the account appears.
    const cm = await start({ controllers: ['*', '-serviceaccount'], leaseName: 'cm-late-account' });
    const ns = 'cm-late-account';
    try {
      await pollUntil(async () => cm.isLeading(), (v) => v, 'the manager to lead', 15_000);
      await namespaces().create({ metadata: { name: ns } });
      const rs = await inNs('replicasets', ns, 'apps').create({
        metadata: { name: 'web' },
        spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] } } },
      });
      const refusals = () => inNs('events', ns).list().then((l) => l.items.filter((e) => (e as KubeObject & { reason?: string; involvedObject?: { uid?: string } }).reason === 'FailedCreate'
        && (e as KubeObject & { involvedObject?: { uid?: string } }).involvedObject?.uid === rs.metadata.uid) as (KubeObject & { message?: string; count?: number })[]);
      // The same refusal repeated is one event whose count grows, as upstream's recorder makes it.
      const refused = await pollUntil(refusals, (l) => l.reduce((n, e) => n + (e.count ?? 1), 0) >= 3, 'three refused pod creates', 60_000);
      assert.match(refused[0]!.message!, /^Error creating: pods "web-" is forbidden: error looking up service account cm-late-account\/default: serviceaccount "default" not found$/);
      const failure = await pollUntil(() => inNs('replicasets', ns, 'apps').get('web'), (r) => ((r.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).some((c) => c.type === 'ReplicaFailure'), 'the ReplicaFailure condition');
      assert.equal((failure.status as { conditions: Condition[] }).conditions.find((c) => c.type === 'ReplicaFailure')?.reason, 'FailedCreate');

      const abort = new AbortController();
      const watch = await inNs('pods', ns).watch({}, abort.signal);
      const firstPod = (async () => {
        for await (const ev of watch) if (ev.type === 'ADDED') return Date.now();
        return undefined;
      })().catch(() => undefined);
      const asked = Date.now();
      await inNs('serviceaccounts', ns).create({ metadata: { name: 'default' } });
      const accountAt = Date.now();
      // The pod's own write takes about as long as the account's did: on a loaded machine that is most of it.
      const writeMs = accountAt - asked;
      const podAt = await Promise.race([firstPod, new Promise<undefined>((r) => setTimeout(() => r(undefined), 15_000))]);
      abort.abort();
      assert.ok(podAt !== undefined, 'a pod is made once the account exists');
      process.stdout.write(`# the first pod was made ${podAt - accountAt} ms after the ServiceAccount (whose write took ${writeMs} ms), after ${refused.length} refusals\n`);
      assert.ok(podAt - accountAt < 1_000 + writeMs, `the pod follows the ServiceAccount within a second (${podAt - accountAt} ms)`);
      await pollUntil(() => inNs('replicasets', ns, 'apps').get('web'), (r) => !((r.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).some((c) => c.type === 'ReplicaFailure'),
        'the ReplicaFailure condition to clear');
    } finally {
      await cm.stop();
    }
  });

  test('two manager processes: the leader is killed (SIGKILL) and the standby takes the lease over', async () => {
    const spawned: { proc: ReturnType<typeof spawn>; log: () => string; dir: string }[] = [];
    const manager = () => {
      const dir = mkdtempSync(join(tmpdir(), 'orch-cm-kill-'));
      const proc = spawn(process.execPath, [mainJs, '--kubeconfig', kc.path, '--secure-port', '0', '--bind-address', '127.0.0.1', '--cert-dir', dir,
        '--leader-elect-resource-name', 'cm-killed', '--leader-elect-lease-duration', '4s', '--leader-elect-renew-deadline', '3s',
        '--leader-elect-retry-period', '500ms', '--controllers', 'serviceaccount', '--v', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let log = '';
      proc.stderr!.on('data', (d: Buffer) => (log += d.toString()));
      const m = { proc, log: () => log, dir };
      spawned.push(m);
      return m;
    };
    try {
      const first = manager();
      const held = await pollUntil(() => lease('cm-killed').catch(() => undefined), (l) => !!l?.spec?.holderIdentity, 'the first process to lead', 20_000);
      const second = manager();
      await pollUntil(async () => second.log(), (l) => /attempting to acquire leader lease/.test(l), 'the second process to stand by', 20_000);
      assert.equal((await lease('cm-killed')).spec?.holderIdentity, held!.spec!.holderIdentity, 'the standby does not take a held lease');
      first.proc.kill('SIGKILL');
      const taken = await pollUntil(() => lease('cm-killed'), (l) => !!l.spec?.holderIdentity && l.spec.holderIdentity !== held!.spec!.holderIdentity, 'the standby to take over', 30_000);
      assert.equal(taken.spec?.leaseTransitions, (held!.spec?.leaseTransitions ?? 0) + 1);
      await pollUntil(async () => second.log(), (l) => /successfully acquired lease/.test(l), 'the standby to say it leads', 10_000);
    } finally {
      for (const m of spawned) {
        if (m.proc.exitCode === null) m.proc.kill('SIGKILL');
        rmSync(m.dir, { recursive: true, force: true });
      }
    }
  });

  test('the built binary with every default controller prints no Node warning: each controller hangs its listeners on a stop signal of its own', async () => {
    const certDir = mkdtempSync(join(tmpdir(), 'orch-cm-all-'));
    const proc = spawn(process.execPath, [mainJs, '--kubeconfig', kc.path, '--secure-port', '0', '--bind-address', '127.0.0.1', '--cert-dir', certDir,
      '--leader-elect=false', '--v', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    proc.stderr.on('data', (d: Buffer) => (log += d.toString()));
    try {
      // Each controller adds its listener as its workers start, once its caches synced.
      for (const started of ['Starting resource quota controller', 'Starting disruption controller', 'Starting deployment controller',
        'Starting replicaset controller', 'Starting stateful set controller', 'Starting ClusterRoleAggregator controller']) {
        await pollUntil(async () => log, (l) => l.includes(started) || proc.exitCode !== null, started, 30_000);
      }
      await namespaces().create({ metadata: { name: 'cm-all-binary' } });
      await pollUntil(() => exists(() => inNs('serviceaccounts', 'cm-all-binary').get('default')), (v) => v, 'the default service account', 20_000);
      await pollUntil(() => exists(() => inNs('configmaps', 'cm-all-binary').get('kube-root-ca.crt')), (v) => v, 'kube-root-ca.crt', 20_000);
      const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
      proc.kill('SIGTERM');
      assert.equal(await exited, 0, log);
      // Everything the process wrote is in: it has exited.
      assert.doesNotMatch(log, /MaxListenersExceededWarning/);
      assert.doesNotMatch(log, /\(node:\d+\) \w*Warning/, 'no Node warning at all');
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      rmSync(certDir, { recursive: true, force: true });
    }
  });

  test('the built binary: bad flags, /healthz, /metrics, SIGTERM releases the lease', async () => {
    const bad = spawnSync(process.execPath, [mainJs, '--no-such-flag'], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /Unknown argument: no-such-flag/);
    const badController = spawnSync(process.execPath, [mainJs, '--kubeconfig', kc.path, '--controllers', 'nosuch'], { encoding: 'utf8' });
    assert.equal(badController.status, 1);
    assert.match(badController.stderr, /--controllers: "nosuch" is not in the list of known controllers/);
    const badDuration = spawnSync(process.execPath, [mainJs, '--kubeconfig', kc.path, '--leader-elect-lease-duration', 'soon'], { encoding: 'utf8' });
    assert.equal(badDuration.status, 1);
    assert.match(badDuration.stderr, /--leader-elect-lease-duration/);
    const order = spawnSync(process.execPath, [mainJs, '--kubeconfig', kc.path, '--leader-elect-lease-duration', '5s', '--leader-elect-renew-deadline', '10s'], { encoding: 'utf8' });
    assert.equal(order.status, 1);
    assert.match(order.stderr, /--leader-elect-lease-duration must be greater than --leader-elect-renew-deadline/);
    const help = spawnSync(process.execPath, [mainJs, '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    for (const flag of ['--kubeconfig', '--master', '--controllers', '--kube-api-qps', '--kube-api-burst', '--leader-elect', '--leader-elect-resource-namespace',
      '--concurrent-namespace-syncs', '--concurrent-gc-syncs', '--concurrent-resource-quota-syncs', '--concurrent-serviceaccount-token-syncs', '--secure-port', '--bind-address', '--root-ca-file']) {
      assert.ok(help.stdout.includes(flag), `${flag} in --help`);
    }

    const certDir = mkdtempSync(join(tmpdir(), 'orch-cm-bin-'));
    const proc = spawn(process.execPath, [mainJs, '--kubeconfig', kc.path, '--secure-port', '0', '--bind-address', '127.0.0.1', '--cert-dir', certDir,
      '--leader-elect-resource-name', 'cm-binary', '--master', kc.server, '--controllers', 'serviceaccount', '--v', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    proc.stderr.on('data', (d: Buffer) => (log += d.toString()));
    try {
      const port = Number((await pollUntil(async () => /"serving securely" address="127\.0\.0\.1:(\d+)"/.exec(log), (m) => !!m || proc.exitCode !== null, 'the binary to serve', 20_000))?.[1]);
      assert.ok(port > 0, log);
      const raw = new RawClient(`https://127.0.0.1:${port}`, readFileSync(join(certDir, 'apiserver.crt'), 'utf8'));
      assert.equal((await raw.get('/healthz')).text, 'ok');
      await pollUntil(() => lease('cm-binary').catch(() => undefined), (l) => !!l?.spec?.holderIdentity, 'the binary to take its lease', 20_000);
      const metrics = await pollUntil(() => raw.get('/metrics'), (m) => /leader_election_master_status\{name="cm-binary"\} 1/.test(m.text), 'the binary to report it leads', 10_000);
      assert.match(metrics.text, /running_managed_controllers\{name="serviceaccount",manager="controller-manager"\} 1/);
      const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
      proc.kill('SIGTERM');
      assert.equal(await exited, 0, log);
      assert.match(log, /shutting down/);
      assert.equal((await lease('cm-binary')).spec?.holderIdentity ?? '', '', 'SIGTERM releases the lease');
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      rmSync(certDir, { recursive: true, force: true });
    }
  });
});
