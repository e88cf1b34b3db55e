// HorizontalPodAutoscaler through the real API server and the real controller manager: served as
// autoscaling/v2 (stored) and autoscaling/v1 (converted, v2-only fields in annotations) with
// discovery, validation and columns as upstream's; the horizontalpodautoscaling controller without
// a metrics API writes upstream's conditions and events, keeps targets within minReplicas and maxReplicas through their scale
// sub-resources, and says when it cannot find its target; stock kubectl autoscales, gets and
// describes; with a resource metrics API served (by a real extension API server through the
// aggregation layer, as metrics-server serves it), CPU above target scales the target up. The scaling arithmetic is unit-tested too
// (replica-proposals, replica-calculator, normalize).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultOptions } from '../../cmd/controller-manager/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../cmd/controller-manager/app/server.js';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { Logger } from '../../pkg/log/logger.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { pollUntil } from './framework/authentication.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { frontProxyOptions, publishedTrust, registerMetricsServer, startExtensionAPIServer } from './framework/extension-apiserver.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { Kubectl } from './framework/kubectl.js';

const v2Path = (ns: string) => `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`;
const v1Path = (ns: string) => `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`;

interface Condition { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }
interface HPA extends KubeObject {
  spec?: Record<string, any>;
  status?: { currentReplicas?: number; desiredReplicas?: number; currentMetrics?: unknown[]; conditions?: Condition[]; lastScaleTime?: string };
}
interface CoreEvent extends KubeObject { reason?: string; message?: string; type?: string; count?: number; source?: { component?: string } }

const causes = (r: { body: any }) => (r.body.details?.causes ?? []).map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);

const hpaFor = (name: string, kind: string, apiVersion: string, min: number, max: number, extra: Record<string, unknown> = {}) => ({
  metadata: { name }, spec: { scaleTargetRef: { apiVersion, kind, name }, minReplicas: min, maxReplicas: max, ...extra },
});
const condition = (h: HPA, type: string) => h.status?.conditions?.find((x) => x.type === type);
const hpaEvents = async (c: Client, name: string) =>
  (await c.resource<CoreEvent>('', 'v1', 'events').namespace('default').list({ fieldSelector: `involvedObject.name=${name},involvedObject.kind=HorizontalPodAutoscaler` })).items;

/** The controller manager with a one-second autoscaler period, against the test server. */
function startManager(kc: Kubeconfig, extra: Partial<ReturnType<typeof defaultOptions>> = {}): Promise<RunningControllerManager> {
  return runControllerManager({
    ...defaultOptions(), kubeconfig: kc.path, securePort: 0, bindAddress: '127.0.0.1', leaderElect: false,
    hpa: { ...defaultOptions().hpa, syncPeriodMs: 1_000 }, ...extra,
  }, new Logger(2, (l) => { if (process.env.ORCH_TEST_LOG) process.stderr.write(l); }));
}

describe('horizontal pod autoscaling', () => {
  const files = tempFiles('orch-autoscaling-');
  let t: TestServer;
  let kc: Kubeconfig;
  let c: Client;
  let cm: RunningControllerManager;

  before(async () => {
    const front = frontProxyOptions(files);
    t = await startTestServer({ authentication: { ...defaultAuthenticationOptions(), requestHeader: front.requestHeader }, aggregator: front.aggregator });
    kc = writeKubeconfig(t);
    c = Client.fromKubeconfig(kc.path).client;
    cm = await startManager(kc);
  });
  after(async () => {
    await cm?.stop();
    c?.close();
    kc?.remove();
    await t?.stop();
    files.remove();
  });

  const hpas = (ns = 'default') => c.resource<HPA>('autoscaling', 'v2', 'horizontalpodautoscalers').namespace(ns);
  const deployments = (ns = 'default') => c.resource('apps', 'v1', 'deployments').namespace(ns);
  const deployment = (name: string, replicas: number) => ({
    metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1', resources: { requests: { cpu: '100m' } } }] } } },
  });
  const eventsOf = (name: string) => hpaEvents(c, name);

  test('discovery: autoscaling serves v2 (preferred) and v1, each with hpa, its status, in category all', async () => {
    const group = await t.client.get('/apis/autoscaling');
    assert.equal(group.status, 200);
    assert.deepEqual(group.body.versions, [{ groupVersion: 'autoscaling/v2', version: 'v2' }, { groupVersion: 'autoscaling/v1', version: 'v1' }]);
    assert.deepEqual(group.body.preferredVersion, { groupVersion: 'autoscaling/v2', version: 'v2' });
    for (const v of ['v2', 'v1']) {
      const list = await t.client.get(`/apis/autoscaling/${v}`);
      const hpa = list.body.resources.find((r: { name: string }) => r.name === 'horizontalpodautoscalers');
      assert.deepEqual({ ...hpa, verbs: undefined, storageVersionHash: undefined }, {
        name: 'horizontalpodautoscalers', singularName: 'horizontalpodautoscaler', namespaced: true, kind: 'HorizontalPodAutoscaler',
        shortNames: ['hpa'], categories: ['all'], verbs: undefined, storageVersionHash: undefined,
      }, v);
      assert.ok(list.body.resources.some((r: { name: string }) => r.name === 'horizontalpodautoscalers/status'), v);
    }
  });

  test('created in v2, read and written back in v1, read in v2: nothing is lost', async () => {
    const created = await t.client.post(v2Path('default'), hpaFor('round', 'Deployment', 'apps/v1', 2, 8, {
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
        { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
        { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '20' } } },
      ],
      behavior: { scaleDown: { stabilizationWindowSeconds: 60, policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] } },
    }));
    assert.equal(created.status, 201, created.text);
    // Defaulted as upstream's v2: the unset scale-up rules and scale-down select policy filled in.
    assert.deepEqual(created.body.spec.behavior, {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] },
    });
    assert.deepEqual(created.body.status, { desiredReplicas: 0 });

    const v1 = await t.client.get(`${v1Path('default')}/round`);
    assert.equal(v1.status, 200);
    assert.equal(v1.body.apiVersion, 'autoscaling/v1');
    assert.deepEqual(v1.body.spec, { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'round' }, minReplicas: 2, maxReplicas: 8, targetCPUUtilizationPercentage: 70 });
    assert.deepEqual(v1.body.status, { currentReplicas: 0, desiredReplicas: 0 });
    const ann = v1.body.metadata.annotations;
    assert.equal(ann['autoscaling.alpha.orch.io/metrics'],
      '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"512Mi"}},{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"20"}}]');
    assert.match(ann['autoscaling.alpha.orch.io/behavior'], /^\{"ScaleUp":\{"StabilizationWindowSeconds":0,"SelectPolicy":"Max",/);

    const put = await t.client.put(`${v1Path('default')}/round`, { ...v1.body, spec: { ...v1.body.spec, maxReplicas: 9, targetCPUUtilizationPercentage: 65 } });
    assert.equal(put.status, 200, put.text);
    const back = await t.client.get(`${v2Path('default')}/round`);
    assert.equal(back.body.spec.maxReplicas, 9);
    // The v1 CPU target follows the metrics v1 cannot say, as upstream orders them.
    assert.deepEqual(back.body.spec.metrics, [
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
      { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '20' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 65 } } },
    ]);
    assert.deepEqual(back.body.spec.behavior, created.body.spec.behavior);
    assert.equal(back.body.metadata.annotations, undefined, 'no round-trip annotation is stored');

    // A v1 autoscaler without a target scales on 80% CPU, as upstream's v1 always did.
    const plain = await t.client.post(v1Path('default'), hpaFor('plain', 'Deployment', 'apps/v1', 1, 3));
    assert.equal(plain.status, 201, plain.text);
    assert.equal(plain.body.spec.targetCPUUtilizationPercentage, 80);
    assert.equal(plain.body.metadata.annotations, undefined);
    const list = await t.client.get(v1Path('default'));
    assert.ok(list.body.items.every((i: HPA) => i.apiVersion === undefined || i.apiVersion === 'autoscaling/v1'));
    assert.deepEqual(list.body.items.map((i: HPA) => i.metadata.name).sort(), ['plain', 'round']);
    const proto = await t.client.get(`${v1Path('default')}/plain`, { headers: { Accept: 'application/vnd.orch.protobuf' } });
    assert.equal(proto.status, 200);
    assert.equal(proto.headers['content-type'], 'application/vnd.orch.protobuf');
  });

  test('validation refuses with upstream\'s messages, v1 in the names of v2\'s fields', async () => {
    const bad = await t.client.post(v2Path('default'), hpaFor('bad', 'Deployment', 'apps/v1', 5, 3, {
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } },
        { type: 'Nonsense' },
        { type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
        { type: 'Resource', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '1' } }, resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
      behavior: { scaleUp: { stabilizationWindowSeconds: 4000, selectPolicy: 'Fastest', policies: [{ type: 'Pods', value: 0, periodSeconds: 2000 }] }, scaleDown: { policies: [] } },
    }));
    assertStatus(bad, 422, 'Invalid');
    assert.deepEqual(causes(bad), [
      'spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      'spec.metrics[1].type: Unsupported value: "Nonsense": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.metrics[2].pods: Required value: must populate information for the given metric source',
      'spec.metrics[3].pods: Forbidden: must populate the given metric source only',
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Fastest": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 2000: must be less than or equal to 1800',
      'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy',
    ]);
    const v1 = await t.client.post(v1Path('default'), { metadata: { name: 'bad1' }, spec: { scaleTargetRef: { kind: '', name: 'x/y' }, minReplicas: 0, maxReplicas: 0, targetCPUUtilizationPercentage: 0 } });
    assertStatus(v1, 422, 'Invalid');
    assert.equal(v1.body.message, 'HorizontalPodAutoscaler.autoscaling "bad1" is invalid: [spec.minReplicas: Invalid value: 0: must be greater than or equal to 1, ' +
      'spec.maxReplicas: Invalid value: 0: must be greater than 0, spec.scaleTargetRef.kind: Required value, spec.scaleTargetRef.name: Invalid value: "x/y": may not contain \'/\', ' +
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0, ' +
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas]');
    const status = await t.client.post(v2Path('default'), hpaFor('st', 'Deployment', 'apps/v1', 1, 2));
    const negative = await t.client.put(`${v2Path('default')}/st/status`, { ...status.body, status: { currentReplicas: -1, desiredReplicas: 1 } });
    assertStatus(negative, 422, 'Invalid');
    assert.deepEqual(causes(negative), ['status.currentReplicas: Invalid value: -1: must be greater than or equal to 0']);
  });

  test('without a metrics API: AbleToScale, ScalingActive False with upstream\'s reason and message, and its events', async () => {
    await deployments().create(deployment('web', 2));
    await hpas().create(hpaFor('web', 'Deployment', 'apps/v1', 1, 5, {
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    }) as HPA);
    const h = await pollUntil(() => hpas().get('web'), (x) => condition(x, 'ScalingActive') !== undefined, 'the autoscaler\'s conditions', 30_000);
    const unable = 'failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: ' +
      'the server could not find the requested resource (get pods.metrics.orch.io)';
    assert.deepEqual({ ...condition(h, 'AbleToScale'), lastTransitionTime: undefined },
      { type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale', message: 'the HPA controller was able to get the target\'s current scale', lastTransitionTime: undefined });
    assert.deepEqual({ ...condition(h, 'ScalingActive'), lastTransitionTime: undefined },
      { type: 'ScalingActive', status: 'False', reason: 'FailedGetResourceMetric', message: `the HPA was unable to compute the replica count: ${unable}`, lastTransitionTime: undefined });
    assert.equal(h.status!.currentReplicas, 2);
    assert.equal(h.status!.desiredReplicas, 0);
    assert.deepEqual(h.status!.currentMetrics, [{ type: '' }]);
    const evs = await pollUntil(() => eventsOf('web'), (e) => e.some((x) => x.reason === 'FailedComputeMetricsReplicas'), 'the autoscaler\'s events', 20_000);
    const byReason = (r: string) => evs.filter((x) => x.reason === r);
    assert.equal(byReason('FailedGetResourceMetric')[0]!.message, unable);
    assert.equal(byReason('FailedComputeMetricsReplicas')[0]!.message, `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${unable}`);
    assert.equal(byReason('FailedComputeMetricsReplicas')[0]!.source?.component, 'horizontal-pod-autoscaler');
    // Said again every sync period: one event whose count grows.
    const again = await pollUntil(() => eventsOf('web'), (e) => e.some((x) => x.reason === 'FailedGetResourceMetric' && (x.count ?? 0) >= 2), 'the event to repeat', 20_000);
    assert.equal(again.filter((x) => x.reason === 'FailedGetResourceMetric').length, 1);
    // The deployment is left as it is.
    assert.equal(((await deployments().get('web')).spec as { replicas: number }).replicas, 2);
    // The v1 view carries the conditions and current metrics in annotations.
    const v1 = await t.client.get(`${v1Path('default')}/web`);
    assert.match(v1.body.metadata.annotations['autoscaling.alpha.orch.io/conditions'], /"type":"ScalingActive","status":"False",.*"reason":"FailedGetResourceMetric"/);
    assert.equal(v1.body.metadata.annotations['autoscaling.alpha.orch.io/current-metrics'], '[{"type":""}]');

    // A second autoscaler of the same pods: neither may scale them.
    await hpas().create(hpaFor('web-twin', 'Deployment', 'apps/v1', 1, 5) as HPA);
    await hpas().patch('web-twin', 'merge', { spec: { scaleTargetRef: { name: 'web' } } });
    const twin = await pollUntil(() => hpas().get('web-twin'), (x) => condition(x, 'ScalingActive')?.reason === 'AmbiguousSelector', 'the twin to be refused', 30_000);
    assert.equal(condition(twin, 'ScalingActive')!.message, 'pods by selector app=web are controlled by multiple HPAs: [default/web default/web-twin]');
    await hpas().delete('web-twin');
  });

  test('targets outside minReplicas..maxReplicas are scaled through their scale sub-resource: Deployment, StatefulSet, ReplicationController', async () => {
    await deployments().create(deployment('small', 1));
    await c.resource('apps', 'v1', 'statefulsets').namespace('default').create({
      metadata: { name: 'big' },
      spec: { replicas: 6, serviceName: 'big', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'big' } }, template: { metadata: { labels: { app: 'big' } }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] } } },
    });
    await c.resource('', 'v1', 'replicationcontrollers').namespace('default').create({
      metadata: { name: 'legacy' }, spec: { replicas: 1, selector: { app: 'legacy' }, template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] } } },
    });
    await hpas().create(hpaFor('small', 'Deployment', 'apps/v1', 3, 6) as HPA);
    await hpas().create(hpaFor('big', 'StatefulSet', 'apps/v1', 1, 4) as HPA);
    await hpas().create(hpaFor('legacy', 'ReplicationController', 'v1', 2, 4) as HPA);
    const replicasOf = async (group: string, resource: string, name: string) =>
      ((await c.resource(group, 'v1', resource).namespace('default').get(name)).spec as { replicas: number }).replicas;
    await pollUntil(() => replicasOf('apps', 'deployments', 'small'), (n) => n === 3, 'the deployment to be scaled up to minReplicas', 30_000);
    await pollUntil(() => replicasOf('apps', 'statefulsets', 'big'), (n) => n === 4, 'the statefulset to be scaled down to maxReplicas', 30_000);
    await pollUntil(() => replicasOf('', 'replicationcontrollers', 'legacy'), (n) => n === 2, 'the replication controller to be scaled up', 30_000);
    const small = await pollUntil(() => hpas().get('small'), (h) => h.status?.desiredReplicas === 3, 'the status of the scale-up', 20_000);
    assert.ok(small.status!.lastScaleTime);
    const evs = await pollUntil(() => eventsOf('small'), (e) => e.some((x) => x.reason === 'SuccessfulRescale'), 'the rescale event', 20_000);
    assert.equal(evs.find((x) => x.reason === 'SuccessfulRescale')!.message, 'New size: 3; reason: Current number of replicas below Spec.MinReplicas');
    const big = await pollUntil(() => eventsOf('big'), (e) => e.some((x) => x.reason === 'SuccessfulRescale'), 'the rescale event', 20_000);
    assert.equal(big.find((x) => x.reason === 'SuccessfulRescale')!.message, 'New size: 4; reason: Current number of replicas above Spec.MaxReplicas');
  });

  test('a target that cannot be found: AbleToScale False with FailedGetScale', async () => {
    await hpas().create(hpaFor('nope', 'Deployment', 'apps/v1', 1, 2) as HPA);
    await hpas().create(hpaFor('widget', 'Widget', 'example.com/v1', 1, 2) as HPA);
    const nope = await pollUntil(() => hpas().get('nope'), (h) => condition(h, 'AbleToScale')?.status === 'False', 'the missing target to be reported', 30_000);
    assert.deepEqual({ ...condition(nope, 'AbleToScale'), lastTransitionTime: undefined }, {
      type: 'AbleToScale', status: 'False', reason: 'FailedGetScale',
      message: 'the HPA controller was unable to get the target\'s current scale: deployments.apps "nope" not found', lastTransitionTime: undefined,
    });
    const widget = await pollUntil(() => hpas().get('widget'), (h) => condition(h, 'AbleToScale')?.status === 'False', 'the unknown kind to be reported', 30_000);
    assert.equal(condition(widget, 'AbleToScale')!.message, 'the HPA controller was unable to get the target\'s current scale: no matches for kind "Widget" in group "example.com"');
    const evs = await eventsOf('nope');
    assert.equal(evs.find((x) => x.reason === 'FailedGetScale')?.message, 'deployments.apps "nope" not found');
  });

  test('stock kubectl: autoscale a deployment, get hpa with upstream\'s columns, describe its conditions', async () => {
    const kubectl = new Kubectl(kc);
    await deployments().create(deployment('kweb', 2));
    const made = await kubectl.ok(['autoscale', 'deployment', 'kweb', '--min=2', '--max=5', '--cpu-percent=60']);
    assert.equal(made.stdout.trim(), 'horizontalpodautoscaler.autoscaling/kweb autoscaled');
    await pollUntil(() => hpas().get('kweb'), (h) => condition(h, 'ScalingActive') !== undefined, 'kweb\'s conditions', 30_000);
    const got = await kubectl.ok(['get', 'hpa', 'kweb']);
    const [header, row] = got.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(header, ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    assert.deepEqual(row!.slice(0, 6), ['kweb', 'Deployment/kweb', 'cpu: <unknown>/60%', '2', '5', '2']);
    const described = await kubectl.ok(['describe', 'hpa', 'kweb']);
    assert.match(described.stdout, /ScalingActive\s+False\s+FailedGetResourceMetric\s+the HPA was unable to compute the replica count: failed to get cpu utilization/);
    assert.match(described.stdout, /Warning\s+FailedGetResourceMetric/);
    const short = await kubectl.ok(['get', 'horizontalpodautoscalers.v1.autoscaling', 'kweb', '-o', 'jsonpath={.spec.targetCPUUtilizationPercentage}']);
    assert.equal(short.stdout.trim(), '60');
  });

  // The resource metrics API as the autoscaler reads it (metrics.<domain>/v1beta1 PodMetrics, listed
  // by the target's selector), served by a real extension API server through the aggregation layer,
  // as metrics-server serves it. Last in this server: once served, the other autoscalers read it too.
  test('CPU above its target scales the Deployment up to maxReplicas, with upstream\'s conditions, current metrics and event', async (ctx) => {
    const ext = await startExtensionAPIServer({
      domain: 'orch.io', trust: await publishedTrust(t.client, 'orch-system'), serviceDNSName: 'metrics-server.orch-system.svc',
      reviewer: t.client, authorizationGroup: 'authorization.orch.io',
    });
    ctx.after(() => ext.close());
    await registerMetricsServer(t, t.client, ext, 'orch.io', 'orch-system');
    await c.resource('apps', 'v1', 'deployments').namespace('default').create({
      metadata: { name: 'busy' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'busy' } }, template: { metadata: { labels: { app: 'busy' } }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1', resources: { requests: { cpu: '100m' } } }] } } },
    });
    const pods = c.resource<KubeObject & { status?: Record<string, unknown> }>('', 'v1', 'pods').namespace('default');
    const created = await pollUntil(() => pods.list({ labelSelector: 'app=busy' }), (l) => l.items.length === 2, 'the deployment\'s two pods', 30_000);
    // As a kubelet reports them: started ten minutes ago (past the CPU initialization period) and Ready since.
    const since = new Date(Date.now() - 600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    for (const p of created.items) {
      await pods.updateStatus({ ...p, status: { ...p.status, phase: 'Running', startTime: since, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }] } });
      ext.setPodMetrics({ namespace: 'default', name: p.metadata.name!, labels: (p.metadata.labels ?? {}) as Record<string, string>, containers: [{ name: 'app', usage: { cpu: '200m', memory: '10Mi' } }] });
    }
    const hpas = c.resource<HPA>('autoscaling', 'v2', 'horizontalpodautoscalers').namespace('default');
    await hpas.create(hpaFor('busy', 'Deployment', 'apps/v1', 1, 5, {
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    }) as HPA);
    // 200m of 100m requested is 200%, four times the target: 8 replicas wanted, 5 allowed.
    await pollUntil(async () => ((await c.resource('apps', 'v1', 'deployments').namespace('default').get('busy')).spec as { replicas: number }).replicas,
      (n) => n === 5, 'the deployment to be scaled up to maxReplicas', 30_000);
    const h = await pollUntil(() => hpas.get('busy'), (x) => condition(x, 'ScalingLimited')?.status === 'True' && x.status?.desiredReplicas === 5, 'the autoscaler\'s status after the scale-up', 30_000);
    assert.deepEqual({ ...condition(h, 'ScalingActive'), lastTransitionTime: undefined }, {
      type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound',
      message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)', lastTransitionTime: undefined,
    });
    assert.deepEqual({ ...condition(h, 'ScalingLimited'), lastTransitionTime: undefined }, {
      type: 'ScalingLimited', status: 'True', reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count', lastTransitionTime: undefined,
    });
    assert.deepEqual(h.status!.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '200m', averageUtilization: 200 } } }]);
    // Without a behavior, a step may at most double the replicas (and reach 4): 2 -> 4 -> 5, as upstream's normalizeDesiredReplicas.
    const rescales = (e: CoreEvent[]) => e.filter((x) => x.reason === 'SuccessfulRescale').map((x) => x.message).sort();
    const evs = await pollUntil(() => hpaEvents(c, 'busy'), (e) => rescales(e).length === 2, 'the two rescale events', 20_000);
    assert.deepEqual(rescales(evs), ['New size: 4; reason: cpu resource utilization (percentage of request) above target', 'New size: 5; reason: cpu resource utilization (percentage of request) above target']);
  });
});

describe('horizontal pod autoscaling with upstream\'s names (--api-domain k8s.io)', () => {
  let t: TestServer;
  let kc: Kubeconfig;
  let cm: RunningControllerManager;

  before(async () => {
    t = await startTestServer({ apiDomain: 'k8s.io' });
    kc = writeKubeconfig(t);
    cm = await startManager(kc, { apiDomain: 'k8s.io', controllers: ['horizontalpodautoscaling', 'deployment', 'replicaset'] });
  });
  after(async () => {
    await cm?.stop();
    kc?.remove();
    await t?.stop();
  });

  test('kubectl autoscale, get and describe read upstream\'s condition, message and round-trip annotations', async () => {
    const kubectl = new Kubectl(kc);
    await kubectl.ok(['create', 'deployment', 'web', '--image=registry.example/app:1', '--replicas=2']);
    await kubectl.ok(['autoscale', 'deployment', 'web', '--min=1', '--max=4', '--cpu-percent=70']);
    const message = 'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: ' +
      'unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)';
    const h = await pollUntil(async () => JSON.parse((await kubectl.ok(['get', 'hpa', 'web', '-o', 'json'])).stdout) as HPA,
      (x) => x.status?.conditions?.some((c1) => c1.type === 'ScalingActive') ?? false, 'the conditions', 30_000);
    assert.equal(h.apiVersion, 'autoscaling/v2', 'kubectl 1.30 reads autoscaling/v2');
    assert.equal(h.status!.conditions!.find((c1) => c1.type === 'ScalingActive')!.message, message);
    const table = await kubectl.ok(['get', 'hpa']);
    assert.match(table.stdout, /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\nweb\s+Deployment\/web\s+cpu: <unknown>\/70%\s+1\s+4\s+2\s+\d+s\n$/);
    const described = await kubectl.ok(['describe', 'hpa', 'web']);
    assert.ok(described.stdout.split('\n').some((l) => /^\s+ScalingActive\s+False\s+FailedGetResourceMetric\s+/.test(l) && l.endsWith(message)), described.stdout);
    const v1 = JSON.parse((await kubectl.ok(['get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json'])).stdout) as HPA;
    assert.match(v1.metadata.annotations?.['autoscaling.alpha.kubernetes.io/conditions'] ?? '', /"reason":"FailedGetResourceMetric"/);
  });
});
