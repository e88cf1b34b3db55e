// The job, cronjob and ttl-after-finished controllers in the real controller manager, against the
// real API server with RBAC: the manager acts as its own user, whom the bootstrap policy binds to
// the controllers' roles. Nothing runs pods here, so the test plays the kubelet and reports pods
// finished with exit codes (framework/pod-outcomes.ts). The scenarios run concurrently, each in a
// namespace of its own, so the minute a CronJob takes to fire is spent once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultOptions } from '../../cmd/controller-manager/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../cmd/controller-manager/app/server.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { Client, isNotFound, type KubeObject } from '../../pkg/client/index.js';
import { Logger } from '../../pkg/log/logger.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';
import { finishPod, type Outcome } from './framework/pod-outcomes.js';

interface Condition { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }
interface Job extends KubeObject {
  spec?: Record<string, unknown> & { suspend?: boolean };
  status?: {
    active?: number; ready?: number; succeeded?: number; failed?: number; terminating?: number; startTime?: string; completionTime?: string;
    completedIndexes?: string; failedIndexes?: string; uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] }; conditions?: Condition[];
  };
}
interface Pod extends KubeObject {
  spec?: { hostname?: string; containers: { name: string; image?: string; env?: { name: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[] }[] };
  status?: { phase?: string };
}
interface ObjectRef { kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string; resourceVersion?: string }
interface CronJob extends KubeObject {
  spec?: Record<string, unknown>;
  status?: { active?: ObjectRef[]; lastScheduleTime?: string; lastSuccessfulTime?: string };
}
interface Event extends KubeObject { reason?: string; message?: string; type?: string; involvedObject?: { kind?: string; name?: string }; source?: { component?: string } }

const keys = {
  jobName: 'batch.orch.io/job-name', controllerUid: 'batch.orch.io/controller-uid', tracking: 'batch.orch.io/job-tracking',
  index: 'batch.orch.io/job-completion-index', failureCount: 'batch.orch.io/job-index-failure-count',
  scheduled: 'batch.orch.io/cronjob-scheduled-timestamp',
};
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const template = { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } };

describe('batch controllers in the controller manager', { concurrency: true }, () => {
  const files = tempFiles('orch-batch-');
  let t: TestServer;
  let adminKc: Kubeconfig;
  let managerKc: Kubeconfig;
  let c: Client;
  let kubectl: Kubectl;
  let cm: RunningControllerManager;
  const logs: string[] = [];

  before(async () => {
    t = await startTestServer({
      authentication: {
        ...defaultAuthenticationOptions(),
        tokenAuthFile: files.write('tokens.csv', 'manager-token,system:kube-controller-manager,1\nadmin-token,admin,2,"system:masters"\n'),
      },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    });
    adminKc = writeKubeconfig(t, 'admin-token');
    managerKc = writeKubeconfig(t, 'manager-token');
    c = Client.fromKubeconfig(adminKc.path).client;
    kubectl = new Kubectl(adminKc);
    cm = await runControllerManager({
      // The scenarios share one manager: a wider client budget than the default 20/s keeps them from queueing behind each other.
      ...defaultOptions(), kubeconfig: managerKc.path, securePort: 0, bindAddress: '127.0.0.1', leaderElect: false, kubeAPIQPS: 200, kubeAPIBurst: 400,
      controllers: ['job', 'cronjob', 'ttl-after-finished', 'garbagecollector'],
    }, new Logger(4, (l) => {
      logs.push(l);
      if (process.env.ORCH_TEST_CONTROLLER_LOGS) process.stderr.write(l);
    }));
  });
  after(async () => {
    await cm?.stop();
    c?.close();
    adminKc?.remove();
    managerKc?.remove();
    await t?.stop();
    files.remove();
  });

  /** pollUntil with half a minute for what a controller does: the machines are shared and slow, and a dozen scenarios start at once. */
  const until = <T>(get: () => Promise<T>, check: (v: T) => boolean, what: string, timeoutMs = 30_000) => pollUntil(get, check, what, timeoutMs);

  async function namespace(name: string): Promise<string> {
    await c.resource('', 'v1', 'namespaces').create({ metadata: { name } });
    await ensureDefaultServiceAccount(t.client.withToken('admin-token'), name);
    return name;
  }
  const jobs = (ns: string) => c.resource<Job>('batch', 'v1', 'jobs').namespace(ns);
  const pods = (ns: string) => c.resource<Pod>('', 'v1', 'pods').namespace(ns);
  const cronJobs = (ns: string) => c.resource<CronJob>('batch', 'v1', 'cronjobs').namespace(ns);
  /** The jobs whose controller is the CronJob `name`. */
  const jobsOf = async (ns: string, name: string) => (await jobs(ns).list()).items.filter((j) => j.metadata.ownerReferences?.some((r) => r.controller && r.kind === 'CronJob' && r.name === name));
  const refTo = (o: KubeObject, kind: string) => ({ apiVersion: 'batch/v1', kind, name: o.metadata.name!, uid: o.metadata.uid!, controller: true, blockOwnerDeletion: true });
  const condition = (j: Job, type: string) => j.status?.conditions?.find((x) => x.type === type);
  const isLive = (p: Pod) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';
  /** The job's pods that still run (as the kubelet would see them). */
  const running = async (ns: string, job: string) => (await pods(ns).list({ labelSelector: `job-name=${job}` })).items.filter(isLive);
  const untilRunning = (ns: string, job: string, n: number, timeoutMs?: number) =>
    until(() => running(ns, job), (ps) => ps.length === n, `${n} running pods of job ${job}`, timeoutMs);
  const untilJob = (ns: string, name: string, check: (j: Job) => boolean, what: string) => until(() => jobs(ns).get(name), check, what);
  const finish = (p: Pod, outcome: Outcome) => finishPod(c.resource<Pod>('', 'v1', 'pods'), p, outcome);
  const events = async (ns: string, kind: string, name: string) =>
    (await c.resource<Event>('', 'v1', 'events').namespace(ns).list()).items.filter((e) => e.involvedObject?.kind === kind && e.involvedObject?.name === name);
  const untilEvent = (ns: string, kind: string, name: string, reason: string) =>
    until(() => events(ns, kind, name), (es) => es.some((e) => e.reason === reason), `a ${reason} event of ${kind} ${name}`).then((es) => es.find((e) => e.reason === reason)!);

  test('a Job runs its pods to completion, parallelism at a time, counting each through the tracking finalizer; kubectl describes it', async () => {
    const ns = await namespace('job-complete');
    const job = await jobs(ns).create({ metadata: { name: 'count' }, spec: { parallelism: 2, completions: 3, template } });
    const first = await untilRunning(ns, 'count', 2);
    const p = first[0]!;
    assert.equal(p.metadata.generateName, 'count-');
    for (const [k, v] of [['job-name', 'count'], [keys.jobName, 'count'], ['controller-uid', job.metadata.uid], [keys.controllerUid, job.metadata.uid]]) {
      assert.equal(p.metadata.labels?.[k!], v, `label ${k}`);
    }
    assert.deepEqual(p.metadata.finalizers, [keys.tracking]);
    assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'count', uid: job.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    const started = await untilJob(ns, 'count', (j) => j.status?.active === 2, 'two active pods');
    assert.ok(started.status?.startTime, 'startTime is set');
    assert.equal(started.status?.ready, 0);

    for (const x of first) await finish(x, { exitCode: 0 });
    // Two of three done: one more pod, never two.
    const [last] = await untilRunning(ns, 'count', 1);
    await untilJob(ns, 'count', (j) => j.status?.succeeded === 2 && j.status?.active === 1, 'two succeeded, one active');
    assert.equal((await running(ns, 'count')).length, 1);
    for (const x of first) assert.deepEqual((await pods(ns).get(x.metadata.name!)).metadata.finalizers ?? [], [], 'a counted pod loses the finalizer');
    await finish(last!, { exitCode: 0 });
    const done = await untilJob(ns, 'count', (j) => condition(j, 'Complete')?.status === 'True', 'the job to complete');
    assert.equal(done.status?.succeeded, 3);
    assert.equal(done.status?.active ?? 0, 0);
    assert.equal(done.status?.failed ?? 0, 0);
    assert.ok(done.status?.completionTime);
    assert.deepEqual(done.status?.uncountedTerminatedPods ?? {}, {});
    const evs = await untilEvent(ns, 'Job', 'count', 'Completed');
    assert.equal(evs.message, 'Job completed');
    assert.equal(evs.source?.component, 'job-controller');
    const created = await until(async () => (await events(ns, 'Job', 'count')).filter((e) => e.reason === 'SuccessfulCreate'), (l) => l.length >= 3, 'three creations reported');
    assert.equal(created.length, 3);
    assert.match(created[0]!.message!, /^Created pod: count-[a-z0-9]{5}$/);

    const described = (await kubectl.ok(['-n', ns, 'describe', 'job', 'count'])).stdout;
    assert.match(described, /^Parallelism:\s+2$/m);
    assert.match(described, /^Completions:\s+3$/m);
    assert.match(described, /^Completed At:\s+\S/m);
    assert.match(described, /^Pods Statuses:\s+0 Active \(0 Ready\) \/ 3 Succeeded \/ 0 Failed$/m);
    assert.match(described, /^\s+Normal\s+SuccessfulCreate\s+.*job-controller\s+Created pod: count-/m);
    assert.match(described, /^\s+Normal\s+Completed\s+.*job-controller\s+Job completed$/m);
    assert.match((await kubectl.ok(['-n', ns, 'get', 'job', 'count'])).stdout, /^count\s+Complete\s+3\/3\s/m);
  });

  test('a Job whose pods fail past backoffLimit fails with BackoffLimitExceeded, each replacement after the pod backoff delay', async () => {
    const ns = await namespace('job-backoff');
    await jobs(ns).create({ metadata: { name: 'flaky' }, spec: { backoffLimit: 1, template } });
    const [first] = await untilRunning(ns, 'flaky', 1);
    const failedAt = Date.now();
    await finish(first!, { exitCode: 1 });
    await untilJob(ns, 'flaky', (j) => j.status?.failed === 1, 'the first failure counted');
    // The replacement waits 10 s after the failure (upstream's DefaultJobPodFailureBackOff).
    const [second] = await untilRunning(ns, 'flaky', 1, 40_000);
    const waited = Date.parse(second!.metadata.creationTimestamp!) - Math.floor(failedAt / 1000) * 1000;
    assert.ok(waited >= 9_000, `the replacement came ${waited} ms after the failure`);
    await finish(second!, { exitCode: 2 });
    const failed = await untilJob(ns, 'flaky', (j) => condition(j, 'Failed')?.status === 'True', 'the job to fail');
    assert.equal(condition(failed, 'Failed')?.reason, 'BackoffLimitExceeded');
    assert.equal(condition(failed, 'Failed')?.message, 'Job has reached the specified backoff limit');
    assert.equal(failed.status?.failed, 2);
    assert.equal(failed.status?.completionTime, undefined);
    const e = await untilEvent(ns, 'Job', 'flaky', 'BackoffLimitExceeded');
    assert.equal(e.type, 'Warning');
    assert.equal(e.message, 'Job has reached the specified backoff limit');
  });

  test('a pod failure policy ignores a disruption and fails the job on an exit code, with FailureTarget first', async () => {
    const ns = await namespace('job-policy');
    await jobs(ns).create({
      metadata: { name: 'policy' },
      spec: {
        backoffLimit: 0, template,
        podFailurePolicy: { rules: [
          { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
        ] },
      },
    });
    const [evicted] = await untilRunning(ns, 'policy', 1);
    await finish(evicted!, { exitCode: 137, conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' }] });
    // Ignored: not counted against backoffLimit 0, and replaced (after the pod backoff delay).
    const [second] = await untilRunning(ns, 'policy', 1, 40_000);
    const meanwhile = await jobs(ns).get('policy');
    assert.equal(meanwhile.status?.failed ?? 0, 0);
    assert.equal(condition(meanwhile, 'Failed'), undefined);
    await finish(second!, { exitCode: 42 });
    const failed = await untilJob(ns, 'policy', (j) => condition(j, 'Failed')?.status === 'True', 'the job to fail');
    const message = `Container main for pod ${ns}/${second!.metadata.name} failed with exit code 42 matching FailJob rule at index 0`;
    assert.deepEqual([condition(failed, 'FailureTarget')?.reason, condition(failed, 'FailureTarget')?.message], ['PodFailurePolicy', message]);
    assert.deepEqual([condition(failed, 'Failed')?.reason, condition(failed, 'Failed')?.message], ['PodFailurePolicy', message]);
    assert.equal(failed.status?.failed, 1);
    assert.equal((await untilEvent(ns, 'Job', 'policy', 'PodFailurePolicy')).message, message);
  });

  test('an Indexed job gives each pod its index, hostname and JOB_COMPLETION_INDEX, and tracks completed and failed indexes', async () => {
    const ns = await namespace('job-indexed');
    await jobs(ns).create({ metadata: { name: 'idx' }, spec: { completionMode: 'Indexed', completions: 3, parallelism: 3, template } });
    const ps = await untilRunning(ns, 'idx', 3);
    const byIndex = new Map(ps.map((p) => [p.metadata.annotations?.[keys.index], p]));
    assert.deepEqual([...byIndex.keys()].sort(), ['0', '1', '2']);
    for (const [ix, p] of byIndex) {
      assert.equal(p.metadata.labels?.[keys.index], ix);
      assert.equal(p.metadata.generateName, `idx-${ix}-`);
      assert.equal(p.spec?.hostname, `idx-${ix}`);
      assert.deepEqual(p.spec?.containers[0]!.env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${keys.index}']` } } }]);
    }
    await finish(byIndex.get('1')!, { exitCode: 0 });
    await untilJob(ns, 'idx', (j) => j.status?.completedIndexes === '1' && j.status?.succeeded === 1, 'index 1 completed');
    await finish(byIndex.get('0')!, { exitCode: 0 });
    await finish(byIndex.get('2')!, { exitCode: 0 });
    const done = await untilJob(ns, 'idx', (j) => condition(j, 'Complete')?.status === 'True', 'the indexed job to complete');
    assert.equal(done.status?.completedIndexes, '0-2');

    // backoffLimitPerIndex 0: index 0 fails for good, index 1 still runs to success, then the job fails.
    await jobs(ns).create({ metadata: { name: 'per-index' }, spec: { completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 0, template } });
    const pis = await untilRunning(ns, 'per-index', 2);
    const at = (ix: string) => pis.find((p) => p.metadata.annotations?.[keys.index] === ix)!;
    assert.equal(at('0').metadata.annotations?.[keys.failureCount], '0');
    await finish(at('0'), { exitCode: 3 });
    await untilJob(ns, 'per-index', (j) => j.status?.failedIndexes === '0' && j.status?.failed === 1, 'index 0 failed');
    assert.equal((await running(ns, 'per-index')).length, 1, 'a failed index is not retried');
    await finish(at('1'), { exitCode: 0 });
    const failed = await untilJob(ns, 'per-index', (j) => condition(j, 'Failed')?.status === 'True', 'the job to fail on its failed index');
    assert.deepEqual([condition(failed, 'Failed')?.reason, condition(failed, 'Failed')?.message], ['FailedIndexes', 'Job has failed indexes']);
    assert.equal(failed.status?.completedIndexes, '1');
  });

  test('a suspended Job makes no pods; resumed it starts, suspended again its pods go', async () => {
    const ns = await namespace('job-suspend');
    await jobs(ns).create({ metadata: { name: 'later' }, spec: { suspend: true, parallelism: 2, completions: 4, template } });
    const suspended = await untilJob(ns, 'later', (j) => condition(j, 'Suspended')?.status === 'True', 'the Suspended condition');
    assert.deepEqual([condition(suspended, 'Suspended')?.reason, condition(suspended, 'Suspended')?.message], ['JobSuspended', 'Job suspended']);
    assert.equal(suspended.status?.startTime, undefined);
    assert.equal((await running(ns, 'later')).length, 0);
    assert.equal((await untilEvent(ns, 'Job', 'later', 'Suspended')).message, 'Job suspended');

    await jobs(ns).patch('later', 'merge', { spec: { suspend: false } });
    await untilRunning(ns, 'later', 2);
    const resumed = await untilJob(ns, 'later', (j) => condition(j, 'Suspended')?.status === 'False' && j.status?.active === 2, 'resumed');
    assert.deepEqual([condition(resumed, 'Suspended')?.reason, condition(resumed, 'Suspended')?.message], ['JobResumed', 'Job resumed']);
    assert.ok(resumed.status?.startTime);
    assert.equal((await untilEvent(ns, 'Job', 'later', 'Resumed')).message, 'Job resumed');

    await jobs(ns).patch('later', 'merge', { spec: { suspend: true } });
    await untilRunning(ns, 'later', 0);
    const again = await untilJob(ns, 'later', (j) => condition(j, 'Suspended')?.status === 'True' && (j.status?.active ?? 0) === 0, 'suspended again');
    assert.equal(condition(again, 'Failed'), undefined);
    assert.equal((await pods(ns).list({ labelSelector: 'job-name=later' })).items.length, 0, 'the pods are deleted, finalizers and all');
    assert.match((await untilEvent(ns, 'Job', 'later', 'SuccessfulDelete')).message ?? '', /^Deleted pod: later-[a-z0-9]{5}$/);
  });

  test('a Job active past activeDeadlineSeconds fails with DeadlineExceeded and its pods are deleted', async () => {
    const ns = await namespace('job-deadline');
    await jobs(ns).create({ metadata: { name: 'slow' }, spec: { activeDeadlineSeconds: 2, template } });
    await untilRunning(ns, 'slow', 1);
    const failed = await untilJob(ns, 'slow', (j) => condition(j, 'Failed')?.status === 'True', 'the deadline to pass');
    assert.deepEqual([condition(failed, 'Failed')?.reason, condition(failed, 'Failed')?.message], ['DeadlineExceeded', 'Job was active longer than specified deadline']);
    assert.ok(Date.parse(condition(failed, 'Failed')!.lastTransitionTime!) - Date.parse(failed.status!.startTime!) >= 2000);
    assert.equal(failed.status?.failed, 1, 'the stopped pod counts as failed');
    await until(() => pods(ns).list({ labelSelector: 'job-name=slow' }), (l) => l.items.length === 0, 'the pod to be deleted');
    assert.equal((await untilEvent(ns, 'Job', 'slow', 'DeadlineExceeded')).type, 'Warning');
  });

  test('CronJobs fire at the scheduled minute, in their time zone, not when suspended; a finished job leaves status.active', async () => {
    const ns = await namespace('cron-minute');
    const jobTemplate = { metadata: { labels: { app: 'tick' }, annotations: { note: 'from-template' } }, spec: { template } };
    const cjs: Record<string, CronJob> = {};
    for (const [name, extra] of [['every-minute', {}], ['kolkata', { timeZone: 'Asia/Kolkata' }], ['paused', { suspend: true }]] as const) {
      cjs[name] = await cronJobs(ns).create({ metadata: { name }, spec: { schedule: '* * * * *', jobTemplate, ...extra } });
    }
    const [job] = await until(() => jobsOf(ns, 'every-minute'), (l) => l.length > 0, 'the first scheduled job', 90_000);
    const minutes = Number(job!.metadata.name!.slice('every-minute-'.length));
    assert.ok(Number.isInteger(minutes) && Math.abs(minutes * 60_000 - Date.now()) < 90_000, job!.metadata.name);
    assert.equal(job!.metadata.annotations?.[keys.scheduled], rfc3339(minutes * 60_000));
    assert.equal(job!.metadata.annotations?.note, 'from-template');
    assert.equal(job!.metadata.labels?.app, 'tick');
    assert.deepEqual(job!.metadata.ownerReferences, [refTo(cjs['every-minute']!, 'CronJob')]);
    const cj = await until(() => cronJobs(ns).get('every-minute'), (x) => (x.status?.active ?? []).some((r) => r.uid === job!.metadata.uid), 'the job listed as active');
    assert.equal(cj.status?.lastScheduleTime, rfc3339(minutes * 60_000));
    // The reference carries the Job's resourceVersion as created; the Job listed above may already
    // have moved on (the job controller writes its status), so only the order is fixed.
    const { resourceVersion: refVersion, ...ref } = cj.status?.active?.find((r) => r.uid === job!.metadata.uid) ?? {};
    assert.deepEqual(ref, { kind: 'Job', namespace: ns, name: job!.metadata.name, uid: job!.metadata.uid, apiVersion: 'batch/v1' });
    assert.ok(/^\d+$/.test(refVersion ?? '') && BigInt(refVersion!) <= BigInt(job!.metadata.resourceVersion!), `active ref at ${refVersion}, job at ${job!.metadata.resourceVersion}`);
    assert.equal((await untilEvent(ns, 'CronJob', 'every-minute', 'SuccessfulCreate')).message, `Created job ${job!.metadata.name}`);

    const [zoned] = await until(() => jobsOf(ns, 'kolkata'), (l) => l.length > 0, 'the zoned job', 90_000);
    const stamp = zoned!.metadata.annotations?.[keys.scheduled] ?? '';
    assert.match(stamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:00\+05:30$/);
    assert.equal(Date.parse(stamp), Number(zoned!.metadata.name!.slice('kolkata-'.length)) * 60_000);
    assert.deepEqual(await jobsOf(ns, 'paused'), []);
    assert.equal((await cronJobs(ns).get('paused')).status?.lastScheduleTime, undefined);
    assert.match((await kubectl.ok(['-n', ns, 'get', 'cronjob', 'kolkata'])).stdout, /^kolkata\s+\* \* \* \* \*\s+Asia\/Kolkata\s+False\s+\d+\s+\d+(m\d+)?s\s/m);

    const [pod] = await untilRunning(ns, job!.metadata.name!, 1);
    await finish(pod!, { exitCode: 0 });
    const done = await untilJob(ns, job!.metadata.name!, (j) => condition(j, 'Complete')?.status === 'True', 'the scheduled job to complete');
    const after = await until(() => cronJobs(ns).get('every-minute'), (x) => !(x.status?.active ?? []).some((r) => r.uid === job!.metadata.uid) && !!x.status?.lastSuccessfulTime,
      'the completed job off the active list');
    assert.equal(after.status?.lastSuccessfulTime, done.status?.completionTime);
    assert.equal((await untilEvent(ns, 'CronJob', 'every-minute', 'SawCompletedJob')).message, `Saw completed job: ${job!.metadata.name}, status: Complete`);
  });

  /** A suspended CronJob whose status says a run started at `lastScheduleTime`, with `active` running; then resumed, so a run is due now. */
  async function dueCronJob(ns: string, name: string, spec: Record<string, unknown>, lastScheduleTime: number, activeJob?: string): Promise<{ cj: CronJob; running?: Job }> {
    const cj = await cronJobs(ns).create({ metadata: { name }, spec: { schedule: '* * * * *', suspend: true, jobTemplate: { spec: { template } }, ...spec } });
    const running = activeJob ? await jobs(ns).create({ metadata: { name: activeJob, ownerReferences: [refTo(cj, 'CronJob')] }, spec: { template } }) : undefined;
    const active = running ? [{ kind: 'Job', namespace: ns, name: running.metadata.name, uid: running.metadata.uid, apiVersion: 'batch/v1' }] : [];
    const fresh = await cronJobs(ns).get(name);
    await cronJobs(ns).updateStatus({ ...fresh, status: { active, lastScheduleTime: rfc3339(lastScheduleTime) } });
    await cronJobs(ns).patch(name, 'merge', { spec: { suspend: false } });
    return { cj, ...(running ? { running } : {}) };
  }

  test('when a run is due, Forbid skips it while a job runs, Replace deletes the running job for a new one', async () => {
    const ns = await namespace('cron-concurrency');
    const fiveMinutesAgo = Date.now() - 5 * 60_000;
    const [forbid, replace] = await Promise.all([
      dueCronJob(ns, 'forbid', { concurrencyPolicy: 'Forbid' }, fiveMinutesAgo, 'forbid-earlier'),
      dueCronJob(ns, 'replace', { concurrencyPolicy: 'Replace' }, fiveMinutesAgo, 'replace-earlier'),
    ]);
    const skipped = await untilEvent(ns, 'CronJob', 'forbid', 'JobAlreadyActive');
    assert.equal(skipped.message, 'Not starting job because prior execution is running and concurrency policy is Forbid');
    assert.deepEqual((await jobsOf(ns, 'forbid')).map((j) => j.metadata.name), ['forbid-earlier']);
    const f = await cronJobs(ns).get('forbid');
    assert.deepEqual(f.status?.active?.map((r) => r.uid), [forbid.running!.metadata.uid]);
    assert.equal(f.status?.lastScheduleTime, rfc3339(fiveMinutesAgo));

    const replaced = await until(() => cronJobs(ns).get('replace'), (x) => (x.status?.active ?? []).length === 1 && x.status!.active![0]!.uid !== replace.running!.metadata.uid,
      'the replacement listed as active');
    const newName = replaced.status!.active![0]!.name!;
    assert.match(newName, /^replace-\d+$/);
    assert.equal(replaced.status?.lastScheduleTime, rfc3339(Number(newName.slice('replace-'.length)) * 60_000));
    await until(() => jobs(ns).get('replace-earlier').then(() => false, (e) => { if (isNotFound(e)) return true; throw e; }), (gone) => gone, 'the replaced job deleted');
    assert.equal((await untilEvent(ns, 'CronJob', 'replace', 'SuccessfulDelete')).message, 'Deleted job replace-earlier');
  });

  test('a CronJob long past its last run reports too many missed start times and starts the latest one', async () => {
    const ns = await namespace('cron-missed');
    await dueCronJob(ns, 'late', {}, Date.now() - 3 * 3_600_000);
    const e = await untilEvent(ns, 'CronJob', 'late', 'TooManyMissedTimes');
    assert.equal(e.type, 'Warning');
    assert.equal(e.message, 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
    const [job] = await until(() => jobsOf(ns, 'late'), (l) => l.length === 1, 'one job for the latest missed time');
    assert.ok(Math.abs(Number(job!.metadata.name!.slice('late-'.length)) * 60_000 - Date.now()) < 90_000, 'the most recent time, not the oldest');
  });

  test('finished jobs past the history limits are deleted, oldest first', async () => {
    const ns = await namespace('cron-history');
    const cj = await cronJobs(ns).create({
      metadata: { name: 'hist' },
      spec: { schedule: '0 0 1 1 *', suspend: true, successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1, jobTemplate: { spec: { template } } },
    });
    // Runs of the CronJob, finished by hand: two successes and two failures.
    const outcomes: Record<string, number> = { 'hist-1': 0, 'hist-2': 0, 'hist-3': 1, 'hist-4': 1 };
    for (const name of Object.keys(outcomes)) await jobs(ns).create({ metadata: { name, ownerReferences: [refTo(cj, 'CronJob')] }, spec: { backoffLimit: 0, template } });
    const started: Job[] = [];
    for (const [name, exitCode] of Object.entries(outcomes)) {
      const [p] = await untilRunning(ns, name, 1);
      await finish(p!, { exitCode });
      started.push(await untilJob(ns, name, (j) => !!condition(j, exitCode === 0 ? 'Complete' : 'Failed'), `${name} to finish`));
    }
    // The oldest by start time (names break ties) of each kind goes.
    const oldest = (a: Job, b: Job) => (a.status!.startTime! === b.status!.startTime! ? (a.metadata.name! < b.metadata.name! ? a : b) : a.status!.startTime! < b.status!.startTime! ? a : b);
    const goneSuccess = oldest(started[0]!, started[1]!).metadata.name!;
    const goneFailure = oldest(started[2]!, started[3]!).metadata.name!;
    const left = await until(async () => (await jobsOf(ns, 'hist')).filter((j) => !j.metadata.deletionTimestamp).map((j) => j.metadata.name!).sort(), (l) => l.length === 2, 'two jobs kept');
    assert.deepEqual(left, Object.keys(outcomes).filter((n) => n !== goneSuccess && n !== goneFailure));
    // Events are recorded after the deletions they report.
    const deletions = await until(async () => (await events(ns, 'CronJob', 'hist')).filter((e) => e.reason === 'SuccessfulDelete').map((e) => e.message).sort(),
      (l) => l.length >= 2, 'both deletions reported');
    assert.deepEqual(deletions, [`Deleted job ${goneSuccess}`, `Deleted job ${goneFailure}`].sort());
  });

  test('kubectl create job --from=cronjob makes a job the CronJob owns but did not schedule; kubectl describe tells who controls it', async () => {
    const ns = await namespace('cron-manual');
    await cronJobs(ns).create({
      metadata: { name: 'source' },
      spec: { schedule: '0 0 1 1 *', jobTemplate: { metadata: { labels: { app: 'manual' } }, spec: { template } } },
    });
    await kubectl.ok(['-n', ns, 'create', 'job', 'by-hand', '--from=cronjob/source']);
    const job = await jobs(ns).get('by-hand');
    assert.equal(job.metadata.annotations?.['cronjob.kubernetes.io/instantiate'], 'manual');
    assert.equal(job.metadata.labels?.app, 'manual');
    assert.equal(job.metadata.ownerReferences?.[0]?.name, 'source');
    assert.equal((await untilEvent(ns, 'CronJob', 'source', 'UnexpectedJob')).message, 'Saw a job that the controller did not create or forgot: by-hand');
    const [pod] = await untilRunning(ns, 'by-hand', 1);
    await finish(pod!, { exitCode: 0 });
    const done = await untilJob(ns, 'by-hand', (j) => condition(j, 'Complete')?.status === 'True', 'the manual job to complete');
    await until(() => cronJobs(ns).get('source'), (x) => x.status?.lastSuccessfulTime === done.status?.completionTime, 'the manual success recorded');
    const described = (await kubectl.ok(['-n', ns, 'describe', 'job', 'by-hand'])).stdout;
    assert.match(described, /^Controlled By:\s+CronJob\/source$/m);
    assert.match(described, /^Annotations:\s+cronjob\.kubernetes\.io\/instantiate: manual$/m);
    assert.match(described, /^Pods Statuses:\s+0 Active \(0 Ready\) \/ 1 Succeeded \/ 0 Failed$/m);
  });

  test('ttl-after-finished deletes a finished Job once its TTL has passed, with its pods, looking at it only when due', async () => {
    const ns = await namespace('job-ttl');
    await jobs(ns).create({ metadata: { name: 'short-lived' }, spec: { ttlSecondsAfterFinished: 3, template } });
    const [pod] = await untilRunning(ns, 'short-lived', 1);
    await finish(pod!, { exitCode: 0 });
    const done = await untilJob(ns, 'short-lived', (j) => condition(j, 'Complete')?.status === 'True', 'the job to complete');
    const finishedAt = Date.parse(condition(done, 'Complete')!.lastTransitionTime!);
    await until(() => jobs(ns).get('short-lived').then(() => false, (e) => { if (isNotFound(e)) return true; throw e; }), (gone) => gone, 'the job to be deleted', 30_000);
    assert.ok(Date.now() >= finishedAt + 3000, 'not before its TTL');
    await until(() => pods(ns).list(), (l) => l.items.length === 0, 'its pod deleted with it');
    const looks = logs.filter((l) => l.includes('Checking if Job is ready for cleanup') && l.includes(`${ns}/short-lived`)).length;
    assert.ok(looks <= 4, `requeued for its expiry rather than polled (${looks} looks)`);
  });
});
