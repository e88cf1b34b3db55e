// The horizontalpodautoscaling controller (upstream's HorizontalController, podautoscaler): every
// --horizontal-pod-autoscaler-sync-period each autoscaler reads its target's scale sub-resource,
// asks its metrics for a replica count, normalizes it (stabilization, behavior policies, min/max)
// and writes the target's scale and its own status and conditions with upstream's reasons,
// messages and events. Without a metrics API (none can be registered before API aggregation) the
// metrics fail as upstream's do and only the min/max bounds are enforced.
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerStatus, MetricSpec, MetricStatus } from '../../../api/autoscaling/v2/horizontal-pod-autoscaler.js';
import { isDeepStrictEqual } from 'node:util';
import { formatTime } from '../../../api/meta/v1/primitives.js';
import { EventRecorder, RateLimitingQueue, deletedObject, objectKey, splitKey, type KubeObject, type RateLimiter } from '../../client/index.js';
import { matchesLabels, parseLabelSelector, type LabelRequirement } from '../../runtime/label-selector.js';
import { parseExact, quantityMilliValue } from '../../runtime/quantity-exact.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import type { PodObject } from '../pod-pvc-index.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';
import { setCondition } from './conditions.js';
import { MetricsClient } from './metrics-client.js';
import {
  ScalingHistory, convertDesiredReplicasWithBehaviorRate, convertDesiredReplicasWithRules, stabilizeRecommendation, stabilizeRecommendationWithBehaviors,
} from './normalize.js';
import { plainMetricReplicas, resourceReplicas, type ReadinessTiming } from './replica-calculator.js';
import { ScaleTargets, type Scale } from './scale-targets.js';

type HPAObject = HorizontalPodAutoscaler & KubeObject;

export interface HorizontalPodAutoscalingOptions {
  /** --horizontal-pod-autoscaler-sync-period. */
  syncPeriodMs: number;
  /** --horizontal-pod-autoscaler-tolerance. */
  tolerance: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization. */
  downscaleStabilizationMs: number;
  /** --horizontal-pod-autoscaler-cpu-initialization-period. */
  cpuInitializationPeriodMs: number;
  /** --horizontal-pod-autoscaler-initial-readiness-delay. */
  initialReadinessDelayMs: number;
}

/** Upstream's fixed-interval limiter: an autoscaler comes back once per sync period, failed or not. */
const everySyncPeriod = (ms: number): RateLimiter<string> => ({ when: () => ms, forget: () => undefined, numRequeues: () => 0 });

/** A metric that failed: the ScalingActive condition it sets and the error it reports. */
class MetricError extends Error {
  constructor(readonly reason: string, readonly conditionMessage: string, message: string) {
    super(message);
  }
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const milliOf = (q: number | string | undefined) => {
  const parsed = q === undefined ? undefined : parseExact(q);
  return parsed ? Number(quantityMilliValue(parsed)) : 0;
};
/** A milli-unit value as upstream's resource.NewMilliQuantity(v, DecimalSI) prints it. */
const milliQuantity = (v: number) => (v % 1000 === 0 ? String(v / 1000) : `${v}m`);

class HorizontalPodAutoscalingController implements Controller {
  readonly name = 'horizontalpodautoscaling';

  constructor(private readonly opts: HorizontalPodAutoscalingOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const o = this.opts;
    const queue = new RateLimitingQueue<string>(everySyncPeriod(o.syncPeriodMs));
    const hpas = informers.forResource<HPAObject>('autoscaling', 'v2', 'horizontalpodautoscalers');
    const pods = informers.forResource<PodObject>('', 'v1', 'pods');
    const hpaClient = client.resource<HPAObject>('autoscaling', 'v2', 'horizontalpodautoscalers');
    const recorder = new EventRecorder(client, 'horizontal-pod-autoscaler', logger);
    const metricsClient = new MetricsClient(client, domain);
    const targets = new ScaleTargets(client);
    const history = new ScalingHistory();
    /** Each autoscaler's target selector, to find pods claimed by more than one (upstream's hpaSelectors); null selects nothing yet. */
    const selectors = new Map<string, LabelRequirement[] | null>();

    const event = (hpa: HPAObject, type: 'Normal' | 'Warning', reason: string, text: string) => void recorder.event(
      { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', namespace: hpa.metadata.namespace ?? '', name: hpa.metadata.name ?? '', uid: hpa.metadata.uid ?? '' },
      type, reason, text);
    const enqueue = (h: HPAObject) => {
      const key = objectKey(h);
      if (!selectors.has(key)) selectors.set(key, null);
      // As upstream: the first look comes one sync period after the autoscaler appears.
      queue.addRateLimited(key);
    };
    const remove = hpas.addEventHandler({
      onAdd: enqueue,
      onUpdate: (_old, h) => enqueue(h),
      onDelete: (o) => {
        const key = objectKey(deletedObject(o));
        selectors.delete(key);
        history.forget(key);
      },
    });

    const timing = (): ReadinessTiming => ({ cpuInitializationPeriodMs: o.cpuInitializationPeriodMs, initialReadinessDelayMs: o.initialReadinessDelayMs, now: Date.now() });

    /** Upstream's validateAndParseSelector: the target's pods, unless the selector is missing, malformed or shared. */
    const selectedPods = (hpa: HPAObject, key: string, selector: string): PodObject[] => {
      if (!selector) {
        event(hpa, 'Warning', 'SelectorRequired', 'selector is required');
        setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', 'the HPA target\'s scale is missing a selector');
        throw new Error('selector is required');
      }
      let reqs: LabelRequirement[];
      try {
        reqs = parseLabelSelector(selector);
      } catch (e) {
        const text = `couldn't convert selector into a corresponding internal selector object: ${message(e)}`;
        event(hpa, 'Warning', 'InvalidSelector', text);
        setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', text);
        throw new Error(text);
      }
      if (selectors.has(key)) selectors.set(key, reqs);
      const ns = hpa.metadata.namespace ?? '';
      const selected = pods.indexer.byNamespace(ns).filter((p) => matchesLabels(reqs, p.metadata.labels));
      const owners = [...selectors].filter(([k, r]) => r !== null && splitKey(k).namespace === ns && selected.some((p) => matchesLabels(r, p.metadata.labels))).map(([k]) => k);
      if (owners.length > 1) {
        const text = `pods by selector ${selector} are controlled by multiple HPAs: [${owners.sort().join(' ')}]`;
        event(hpa, 'Warning', 'AmbiguousSelector', text);
        setCondition(hpa, 'ScalingActive', 'False', 'AmbiguousSelector', text);
        throw new Error(text);
      }
      return selected;
    };

    /** A metric's failure: its event and the ScalingActive condition it would set (upstream's getUnableComputeReplicaCountCondition). */
    const failed = (hpa: HPAObject, reason: string, err: string, wrapped: string) => {
      event(hpa, 'Warning', reason, err);
      return new MetricError(reason, `the HPA was unable to compute the replica count: ${err}`, wrapped);
    };

    /** Upstream's computeReplicasForMetric: one metric's proposal and status. */
    const computeForMetric = async (hpa: HPAObject, spec: MetricSpec, specReplicas: number, selector: string, selected: PodObject[]):
      Promise<{ replicas: number; metric: string; status: MetricStatus }> => {
      const ns = hpa.metadata.namespace ?? '';
      const resourceSource = spec.type === 'Resource' ? spec.resource : spec.type === 'ContainerResource' ? spec.containerResource : undefined;
      if (resourceSource) {
        const container = spec.type === 'ContainerResource' ? spec.containerResource!.container : '';
        const reason = spec.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric';
        const what = spec.type === 'Resource' ? `failed to get ${resourceSource.name} resource metric value` : `failed to get ${container} container metric value`;
        const name = resourceSource.name;
        const target = resourceSource.target;
        try {
          if (target.averageValue !== undefined) {
            let r;
            try {
              let read;
              try {
                read = await metricsClient.resourceMetric(ns, selector, name, container);
              } catch (e) {
                throw new Error(`unable to get metrics for resource ${name}: ${message(e)}`);
              }
              r = plainMetricReplicas({ currentReplicas: specReplicas, targetUsage: milliOf(target.averageValue), resource: name, pods: selected, metrics: read.metrics, tolerance: o.tolerance, timing: timing() });
            } catch (e) {
              throw new Error(`failed to get ${name} usage: ${message(e)}`);
            }
            const current = { averageValue: milliQuantity(r.usage) };
            return {
              replicas: r.replicas, metric: `${name} resource`,
              status: spec.type === 'Resource' ? { type: 'Resource', resource: { name, current } } : { type: 'ContainerResource', containerResource: { name, current, container } },
            };
          }
          if (target.averageUtilization === undefined) throw new Error('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
          let read;
          try {
            read = await metricsClient.resourceMetric(ns, selector, name, container);
          } catch (e) {
            throw new Error(`failed to get ${name} utilization: unable to get metrics for resource ${name}: ${message(e)}`);
          }
          let r;
          try {
            r = resourceReplicas({ currentReplicas: specReplicas, targetUtilization: target.averageUtilization, resource: name, container, pods: selected, metrics: read.metrics, tolerance: o.tolerance, timing: timing() });
          } catch (e) {
            throw new Error(`failed to get ${name} utilization: ${message(e)}`);
          }
          const current = { averageValue: milliQuantity(r.rawUtilization), averageUtilization: r.utilization };
          return {
            replicas: r.replicas,
            metric: spec.type === 'Resource' ? `${name} resource utilization (percentage of request)` : `${name} container resource utilization (percentage of request)`,
            status: spec.type === 'Resource' ? { type: 'Resource', resource: { name, current } } : { type: 'ContainerResource', containerResource: { name, current, container } },
          };
        } catch (e) {
          if (e instanceof MetricError) throw e;
          throw failed(hpa, reason, message(e), `${what}: ${message(e)}`);
        }
      }
      switch (spec.type) {
        case 'Pods': {
          const err = `unable to get metric ${spec.pods?.metric.name ?? ''}: ${await metricsClient.customMetricsUnavailable()}`;
          throw failed(hpa, 'FailedGetPodsMetric', err, `failed to get pods metric value: ${err}`);
        }
        case 'Object': {
          const ref = spec.object?.describedObject;
          const err = `unable to get metric ${spec.object?.metric.name ?? ''}: ${ref?.kind ?? ''} on ${ns} ${ref?.name ?? ''}/${await metricsClient.customMetricsUnavailable()}`;
          throw failed(hpa, 'FailedGetObjectMetric', err, `failed to get object metric value: ${err}`);
        }
        case 'External': {
          const metricName = spec.external?.metric.name ?? '';
          const sel = spec.external?.metric.selector ? '[]' : '{}';
          const err = `unable to get external metric ${ns}/${metricName}/${sel}: ${await metricsClient.externalMetricsUnavailable(ns, metricName)}`;
          throw failed(hpa, 'FailedGetExternalMetric', err, `failed to get ${metricName} external metric value: ${err}`);
        }
        default: {
          const err = `unknown metric source type ${JSON.stringify(spec.type)}`;
          throw failed(hpa, 'InvalidMetricSourceType', err, err);
        }
      }
    };

    /** Upstream's computeReplicasForMetrics: the largest proposal; -1 when every metric (or, scaling down, any) failed. */
    const computeForMetrics = async (hpa: HPAObject, key: string, scale: Scale) => {
      const specs = hpa.spec?.metrics ?? [];
      const selected = selectedPods(hpa, key, scale.status?.selector ?? '');
      const specReplicas = scale.spec?.replicas ?? 0;
      const statuses: MetricStatus[] = specs.map(() => ({ type: '' }));
      let replicas = 0;
      let metric = '';
      let invalid = 0;
      let first: MetricError | undefined;
      for (const [i, spec] of specs.entries()) {
        try {
          const r = await computeForMetric(hpa, spec, specReplicas, scale.status?.selector ?? '', selected);
          statuses[i] = r.status;
          if (replicas === 0 || r.replicas > replicas) {
            replicas = r.replicas;
            metric = r.metric;
          }
        } catch (e) {
          if (!(e instanceof MetricError)) throw e;
          first ??= e;
          invalid++;
        }
      }
      const error = first ? `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${first.message}` : undefined;
      if (invalid >= specs.length || (invalid > 0 && replicas < specReplicas)) {
        setCondition(hpa, 'ScalingActive', 'False', first?.reason ?? '', first?.conditionMessage ?? '');
        return { replicas: -1, metric: '', statuses, error };
      }
      setCondition(hpa, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`);
      return { replicas, metric, statuses, error };
    };

    const updateStatusIfNeeded = async (before: HorizontalPodAutoscalerStatus | undefined, hpa: HPAObject): Promise<void> => {
      if (isDeepStrictEqual(before, hpa.status)) return;
      try {
        await hpaClient.namespace(hpa.metadata.namespace ?? '').updateStatus(hpa);
      } catch (e) {
        event(hpa, 'Warning', 'FailedUpdateStatus', message(e));
        throw new Error(`failed to update status for ${hpa.metadata.name}: ${message(e)}`);
      }
      logger.v(2).info('Successfully updated status', { HPA: objectKey(hpa) });
    };

    /** Upstream's setStatus: the counts and metrics, lastScaleTime on a rescale, conditions kept. */
    const setStatus = (hpa: HPAObject, current: number, desired: number, metrics: MetricStatus[] | undefined, rescale: boolean) => {
      const last = rescale ? formatTime(new Date()) : hpa.status?.lastScaleTime;
      hpa.status = {
        ...(last ? { lastScaleTime: last } : {}),
        currentReplicas: current,
        desiredReplicas: desired,
        ...(metrics ? { currentMetrics: metrics } : {}),
        ...(hpa.status?.conditions ? { conditions: hpa.status.conditions } : {}),
      };
    };

    /** Upstream's reconcileAutoscaler. */
    const reconcile = async (shared: HPAObject, key: string): Promise<void> => {
      const hpa = structuredClone(shared);
      const before = structuredClone(hpa.status);
      const spec = hpa.spec!;
      const ns = hpa.metadata.namespace ?? '';
      const ref = spec.scaleTargetRef;
      const reference = `${ref.kind}/${ns}/${ref.name}`;
      const cannotGetScale = async (err: string) => {
        event(hpa, 'Warning', 'FailedGetScale', err);
        setCondition(hpa, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${err}`);
        await updateStatusIfNeeded(before, hpa).catch((e: unknown) => logger.error('could not update the HPA status', { HPA: key, err: message(e) }));
      };
      let found;
      try {
        found = await targets.scaleOf(ns, ref.apiVersion ?? '', ref.kind, ref.name);
      } catch (e) {
        await cannotGetScale(message(e));
        throw new Error(`failed to query scale subresource for ${reference}: ${message(e)}`);
      }
      const { scale, resource } = found;
      setCondition(hpa, 'AbleToScale', 'True', 'SucceededGetScale', 'the HPA controller was able to get the target\'s current scale');
      const current = scale.spec?.replicas ?? 0;
      const now = Date.now();
      history.recordInitial(key, current, now);
      const min = spec.minReplicas ?? 1;
      let desired = 0;
      let reason = '';
      let rescale = true;
      let statuses: MetricStatus[] | undefined;
      let metricsError: string | undefined;
      if (current === 0 && min !== 0) {
        desired = 0;
        rescale = false;
        setCondition(hpa, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
      } else if (current > spec.maxReplicas) {
        reason = 'Current number of replicas above Spec.MaxReplicas';
        desired = spec.maxReplicas;
      } else if (current < min) {
        reason = 'Current number of replicas below Spec.MinReplicas';
        desired = min;
      } else {
        let computed;
        try {
          computed = await computeForMetrics(hpa, key, scale);
        } catch (e) {
          // A selector problem: its condition is set; status as upstream writes it then.
          setStatus(hpa, current, hpa.status?.desiredReplicas ?? 0, undefined, false);
          await updateStatusIfNeeded(before, hpa);
          event(hpa, 'Warning', 'FailedComputeMetricsReplicas', message(e));
          throw new Error(`failed to compute desired number of replicas based on listed metrics for ${reference}: ${message(e)}`);
        }
        statuses = computed.statuses;
        if (computed.replicas === -1) {
          setStatus(hpa, current, hpa.status?.desiredReplicas ?? 0, statuses, false);
          await updateStatusIfNeeded(before, hpa);
          event(hpa, 'Warning', 'FailedComputeMetricsReplicas', computed.error ?? '');
          throw new Error(`failed to compute desired number of replicas based on listed metrics for ${reference}: ${computed.error ?? ''}`);
        }
        metricsError = computed.error;
        logger.v(4).info('Proposing desired replicas', { desiredReplicas: computed.replicas, metric: computed.metric, scaleTarget: reference });
        let rescaleMetric = '';
        if (computed.replicas > desired) {
          desired = computed.replicas;
          rescaleMetric = computed.metric;
        }
        if (desired > current) reason = `${rescaleMetric} above target`;
        if (desired < current) reason = 'All metrics below target';
        desired = spec.behavior ? normalizeWithBehaviors(hpa, key, current, desired, min, now) : normalize(hpa, key, current, desired, min, now);
        rescale = desired !== current;
      }
      if (rescale) {
        try {
          await client.resource(resource.group, resource.version, resource.resource).namespace(ns)
            .updateSubresource(ref.name, 'scale', { ...scale, spec: { ...(scale.spec ?? {}), replicas: desired } });
        } catch (e) {
          event(hpa, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${reason}; error: ${message(e)}`);
          setCondition(hpa, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${message(e)}`);
          setStatus(hpa, current, hpa.status?.desiredReplicas ?? 0, statuses, false);
          await updateStatusIfNeeded(before, hpa).catch((err: unknown) => logger.error('could not update the HPA status', { HPA: key, err: message(err) }));
          throw new Error(`failed to rescale ${reference}: ${message(e)}`);
        }
        setCondition(hpa, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`);
        event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`);
        history.storeScaleEvent(spec.behavior, key, current, desired, Date.now());
        logger.info('Successfully rescaled', { HPA: key, currentReplicas: current, desiredReplicas: desired, reason });
      } else {
        logger.v(4).info('Decided not to scale', { scaleTarget: reference, desiredReplicas: desired, lastScaleTime: hpa.status?.lastScaleTime });
        desired = current;
      }
      setStatus(hpa, current, desired, statuses, rescale);
      await updateStatusIfNeeded(before, hpa);
      if (metricsError) throw new Error(metricsError);
    };

    /** Upstream's normalizeDesiredReplicas (no behavior). */
    const normalize = (hpa: HPAObject, key: string, current: number, proposed: number, min: number, now: number): number => {
      const stabilized = stabilizeRecommendation(history, key, proposed, o.downscaleStabilizationMs, now);
      if (stabilized !== proposed) {
        setCondition(hpa, 'AbleToScale', 'True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation');
      } else {
        setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
      }
      const r = convertDesiredReplicasWithRules(current, stabilized, min, hpa.spec!.maxReplicas);
      setCondition(hpa, 'ScalingLimited', r.replicas === stabilized ? 'False' : 'True', r.reason, r.message);
      return r.replicas;
    };

    /** Upstream's normalizeDesiredReplicasWithBehaviors. */
    const normalizeWithBehaviors = (hpa: HPAObject, key: string, current: number, proposed: number, min: number, now: number): number => {
      const behavior = hpa.spec!.behavior!;
      const scaleDown = { ...behavior.scaleDown };
      // An unset scale-down window is the controller's --horizontal-pod-autoscaler-downscale-stabilization.
      scaleDown.stabilizationWindowSeconds ??= Math.trunc(o.downscaleStabilizationMs / 1000);
      const args = { key, scaleUp: behavior.scaleUp ?? {}, scaleDown, minReplicas: min, maxReplicas: hpa.spec!.maxReplicas, currentReplicas: current, desiredReplicas: proposed };
      const stabilized = stabilizeRecommendationWithBehaviors(history, args, now);
      setCondition(hpa, 'AbleToScale', 'True', ...(stabilized.replicas !== proposed ? [stabilized.reason, stabilized.message] as const
        : ['ReadyForNewScale', 'recommended size matches current size'] as const));
      const r = convertDesiredReplicasWithBehaviorRate(history, { ...args, desiredReplicas: stabilized.replicas }, now);
      setCondition(hpa, 'ScalingLimited', r.replicas === stabilized.replicas ? 'False' : 'True', r.reason, r.message);
      return r.replicas;
    };

    const sync = async (key: string) => {
      const hpa = hpas.indexer.getByKey(key);
      // Deleted (its delete handler forgot it): do not come back.
      if (!hpa) return;
      try {
        await reconcile(hpa, key);
      } catch (e) {
        // Upstream logs the error and comes back one sync period later, like after a success.
        logger.error('failed to reconcile the autoscaler', { HPA: key, err: message(e) });
      }
      return { requeueAfterMs: o.syncPeriodMs };
    };

    try {
      if (!(await waitForCaches(signal, [hpas, pods]))) return;
      logger.info('Starting HPA controller');
      await runWorkers(this.name, queue, ctx.concurrency('horizontal-pod-autoscaler'), signal, sync, logger);
    } finally {
      remove();
      queue.shutDown();
    }
  }
}

export const horizontalPodAutoscalingController = (opts: HorizontalPodAutoscalingOptions): ControllerFactory => () => new HorizontalPodAutoscalingController(opts);
