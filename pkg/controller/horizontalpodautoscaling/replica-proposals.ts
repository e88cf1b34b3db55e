// What the metrics of an autoscaler ask for (upstream's computeReplicasForMetrics and
// computeReplicasForMetric, with validateAndParseSelector): each metric is read and turned into a
// replica count by the replica calculator; the largest wins. A metric that cannot be read records
// upstream's event and gives the ScalingActive condition to set; when every metric fails (or some
// fail and the rest would scale down) there is no proposal.
import type { HorizontalPodAutoscaler, MetricSpec, MetricStatus, MetricValueStatus } from '../../../api/autoscaling/v2/horizontal-pod-autoscaler.js';
import { splitKey, type Indexer, type KubeObject } from '../../client/index.js';
import { matchesLabels, parseLabelSelector, type LabelRequirement } from '../../runtime/label-selector.js';
import { parseExact, quantityMilliValue } from '../../runtime/quantity-exact.js';
import type { PodObject } from '../pod-pvc-index.js';
import { setCondition } from './conditions.js';
import type { MetricsClient } from './metrics-client.js';
import { plainMetricReplicas, resourceReplicas, type ReadinessTiming } from './replica-calculator.js';
import type { Scale } from './scale-targets.js';

type HPAObject = HorizontalPodAutoscaler & KubeObject;

export interface ProposalOptions {
  tolerance: number;
  cpuInitializationPeriodMs: number;
  initialReadinessDelayMs: number;
}

export interface ProposalDeps {
  metrics: MetricsClient;
  pods: Indexer<PodObject>;
  /** Each autoscaler's target selector by key (upstream's hpaSelectors); null selects nothing yet. */
  selectors: Map<string, LabelRequirement[] | null>;
  event(hpa: HPAObject, type: 'Normal' | 'Warning', reason: string, message: string): void;
  options: ProposalOptions;
}

/** The metrics' proposal: `replicas` -1 when there is none, and the first failure as upstream words it. */
export interface Proposal {
  replicas: number;
  metric: string;
  statuses: MetricStatus[];
  error?: string;
}

/** A metric that could not be read: the ScalingActive condition it sets, and the error it reports. */
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

/** Runs `step`, rewording any error with `wrap` (upstream's fmt.Errorf chains). */
async function wrapped<T>(step: () => Promise<T> | T, wrap: (err: string) => string): Promise<T> {
  try {
    return await step();
  } catch (e) {
    throw new Error(wrap(message(e)));
  }
}

export class ReplicaProposals {
  constructor(private readonly d: ProposalDeps) {}

  private timing(): ReadinessTiming {
    const o = this.d.options;
    return { cpuInitializationPeriodMs: o.cpuInitializationPeriodMs, initialReadinessDelayMs: o.initialReadinessDelayMs, now: Date.now() };
  }

  /** Upstream's validateAndParseSelector: the target's pods, unless the selector is missing, malformed or shared; throws otherwise, its condition set. */
  private selectedPods(hpa: HPAObject, key: string, selector: string): PodObject[] {
    const refuse = (reason: string, text: string, condition = text): never => {
      this.d.event(hpa, 'Warning', reason, text);
      setCondition(hpa, 'ScalingActive', 'False', reason === 'SelectorRequired' ? 'InvalidSelector' : reason, condition);
      throw new Error(text);
    };
    if (!selector) return refuse('SelectorRequired', 'selector is required', 'the HPA target\'s scale is missing a selector');
    let reqs: LabelRequirement[] = [];
    try {
      reqs = parseLabelSelector(selector);
    } catch (e) {
      refuse('InvalidSelector', `couldn't convert selector into a corresponding internal selector object: ${message(e)}`);
    }
    if (this.d.selectors.has(key)) this.d.selectors.set(key, reqs);
    const ns = hpa.metadata.namespace ?? '';
    const selected = this.d.pods.byNamespace(ns).filter((p) => matchesLabels(reqs, p.metadata.labels));
    const owners = [...this.d.selectors]
      .filter(([k, r]) => r !== null && splitKey(k).namespace === ns && selected.some((p) => matchesLabels(r, p.metadata.labels)))
      .map(([k]) => k);
    if (owners.length > 1) refuse('AmbiguousSelector', `pods by selector ${selector} are controlled by multiple HPAs: [${owners.sort().join(' ')}]`);
    return selected;
  }

  /** A metric's failure: its event, and the condition it would set (upstream's getUnableComputeReplicaCountCondition). */
  private failed(hpa: HPAObject, reason: string, err: string, wrappedErr: string): MetricError {
    this.d.event(hpa, 'Warning', reason, err);
    return new MetricError(reason, `the HPA was unable to compute the replica count: ${err}`, wrappedErr);
  }

  /** Upstream's computeStatusForResourceMetric(Generic) and its container twin. */
  private async resourceMetric(hpa: HPAObject, spec: MetricSpec, specReplicas: number, selector: string, selected: PodObject[]) {
    const ns = hpa.metadata.namespace ?? '';
    const isResource = spec.type === 'Resource';
    const source = isResource ? spec.resource! : spec.containerResource!;
    const container = isResource ? '' : spec.containerResource!.container;
    const { name, target } = source;
    const status = (current: MetricValueStatus): MetricStatus =>
      isResource ? { type: 'Resource', resource: { name, current } } : { type: 'ContainerResource', containerResource: { name, current, container } };
    const read = () => wrapped(() => this.d.metrics.resourceMetric(ns, selector, name, container), (err) => `unable to get metrics for resource ${name}: ${err}`);
    const tolerance = this.d.options.tolerance;
    try {
      if (target.averageValue !== undefined) {
        const r = await wrapped(async () => plainMetricReplicas({
          currentReplicas: specReplicas, targetUsage: milliOf(target.averageValue), resource: name, pods: selected, metrics: (await read()).metrics, tolerance, timing: this.timing(),
        }), (err) => `failed to get ${name} usage: ${err}`);
        return { replicas: r.replicas, metric: `${name} resource`, status: status({ averageValue: milliQuantity(r.usage) }) };
      }
      if (target.averageUtilization === undefined) throw new Error('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
      const utilization = target.averageUtilization;
      const r = await wrapped(async () => resourceReplicas({
        currentReplicas: specReplicas, targetUtilization: utilization, resource: name, container, pods: selected, metrics: (await read()).metrics, tolerance, timing: this.timing(),
      }), (err) => `failed to get ${name} utilization: ${err}`);
      return {
        replicas: r.replicas,
        metric: isResource ? `${name} resource utilization (percentage of request)` : `${name} container resource utilization (percentage of request)`,
        status: status({ averageValue: milliQuantity(r.rawUtilization), averageUtilization: r.utilization }),
      };
    } catch (e) {
      const what = isResource ? `failed to get ${name} resource metric value` : `failed to get ${container} container metric value`;
      throw this.failed(hpa, isResource ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric', message(e), `${what}: ${message(e)}`);
    }
  }

  /** Upstream's computeReplicasForMetric: one metric's proposal and status. */
  private async forMetric(hpa: HPAObject, spec: MetricSpec, specReplicas: number, selector: string, selected: PodObject[]): Promise<{ replicas: number; metric: string; status: MetricStatus }> {
    const ns = hpa.metadata.namespace ?? '';
    switch (spec.type) {
      case 'Resource':
      case 'ContainerResource':
        return this.resourceMetric(hpa, spec, specReplicas, selector, selected);
      case 'Pods': {
        const err = `unable to get metric ${spec.pods?.metric.name ?? ''}: ${await this.d.metrics.customMetricsUnavailable()}`;
        throw this.failed(hpa, 'FailedGetPodsMetric', err, `failed to get pods metric value: ${err}`);
      }
      case 'Object': {
        const ref = spec.object?.describedObject;
        const err = `unable to get metric ${spec.object?.metric.name ?? ''}: ${ref?.kind ?? ''} on ${ns} ${ref?.name ?? ''}/${await this.d.metrics.customMetricsUnavailable()}`;
        throw this.failed(hpa, 'FailedGetObjectMetric', err, `failed to get object metric value: ${err}`);
      }
      case 'External': {
        const metricName = spec.external?.metric.name ?? '';
        // Upstream prints the metric's labels.Selector with %+v: {} for none, [] for an empty one.
        const sel = spec.external?.metric.selector ? '[]' : '{}';
        const err = `unable to get external metric ${ns}/${metricName}/${sel}: ${await this.d.metrics.externalMetricsUnavailable(ns, metricName)}`;
        throw this.failed(hpa, 'FailedGetExternalMetric', err, `failed to get ${metricName} external metric value: ${err}`);
      }
      default: {
        const err = `unknown metric source type ${JSON.stringify(spec.type)}`;
        throw this.failed(hpa, 'InvalidMetricSourceType', err, err);
      }
    }
  }

  /** Upstream's computeReplicasForMetrics; sets ScalingActive. Throws (its condition set) when the selector is unusable. */
  async propose(hpa: HPAObject, key: string, scale: Scale): Promise<Proposal> {
    const specs = hpa.spec?.metrics ?? [];
    const selector = scale.status?.selector ?? '';
    const selected = this.selectedPods(hpa, key, selector);
    const specReplicas = scale.spec?.replicas ?? 0;
    const statuses: MetricStatus[] = specs.map(() => ({ type: '' }));
    let replicas = 0;
    let metric = '';
    let invalid = 0;
    let first: MetricError | undefined;
    for (const [i, spec] of specs.entries()) {
      try {
        const r = await this.forMetric(hpa, spec, specReplicas, selector, selected);
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
      return { replicas: -1, metric: '', statuses, ...(error ? { error } : {}) };
    }
    setCondition(hpa, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`);
    return { replicas, metric, statuses, ...(error ? { error } : {}) };
  }
}
