// The horizontalpodautoscaling controller (upstream's HorizontalController, podautoscaler): every
// --horizontal-pod-autoscaler-sync-period each autoscaler reads its target's scale sub-resource,
// asks its metrics for a replica count (replica-proposals.ts), normalizes it (stabilization,
// behavior policies, min/max: normalize.ts) and writes the target's scale and its own status and
// conditions with upstream's reasons, messages and events. Without a metrics API (none can be
// registered before API aggregation) the metrics fail as upstream's do and only the min/max bounds
// are enforced.
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerStatus, MetricStatus } from '../../../api/autoscaling/v2/horizontal-pod-autoscaler.js';
import { isDeepStrictEqual } from 'node:util';
import { formatTime } from '../../../api/meta/v1/primitives.js';
import { EventRecorder, RateLimitingQueue, deletedObject, objectKey, type KubeObject, type RateLimiter } from '../../client/index.js';
import type { LabelRequirement } from '../../runtime/label-selector.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import type { PodObject } from '../pod-pvc-index.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';
import { setCondition } from './conditions.js';
import { MetricsClient } from './metrics-client.js';
import { ScalingHistory, normalizeDesiredReplicas, normalizeDesiredReplicasWithBehaviors } from './normalize.js';
import { ReplicaProposals } from './replica-proposals.js';
import { ScaleTargets } from './scale-targets.js';

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

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

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
      onDelete: (gone) => {
        const key = objectKey(deletedObject(gone));
        selectors.delete(key);
        history.forget(key);
      },
    });

    const proposals = new ReplicaProposals({ metrics: new MetricsClient(client, domain), pods: pods.indexer, selectors, event, options: o });

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
          computed = await proposals.propose(hpa, key, scale);
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
        desired = (spec.behavior ? normalizeDesiredReplicasWithBehaviors : normalizeDesiredReplicas)(history, hpa, key, current, desired, min, o.downscaleStabilizationMs, now);
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
