// HorizontalPodAutoscaler (autoscaling/v2): keeps the replica count of a scalable object between a
// minimum and a maximum, following the metrics it names. The storage version of the resource;
// autoscaling/v1 is converted to and from this shape (../v1/conversion.ts). Field numbers follow
// upstream autoscaling/v2 generated.proto.
import { type Static } from '@sinclair/typebox';
import { field, int32, int64, list, object, opt, str } from '../../schema.js';
import { quantity, time } from '../../meta/v1/primitives.js';
import { LabelSelector, topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.autoscaling.v2';

/** The reference to a scaled object, the same in v1 and v2 but for its definition name (`<prefix>.CrossVersionObjectReference`). */
export const crossVersionObjectReference = (prefix: string) => object(`${prefix}.CrossVersionObjectReference`, {
  kind: str(1, { description: 'Kind of the referent, e.g. Deployment.' }),
  name: str(2, { description: 'Name of the referent, in the autoscaler\'s namespace.' }),
  apiVersion: opt(str(3, { description: 'API version of the referent, e.g. apps/v1.' })),
}, { required: ['kind', 'name'], description: 'Enough to find an object of any kind and version in the same namespace.' });

export const CrossVersionObjectReference = crossVersionObjectReference(P);
export type CrossVersionObjectReference = Static<typeof CrossVersionObjectReference>;

export const MetricIdentifier = object(`${P}.MetricIdentifier`, {
  name: str(1, { description: 'Name of the metric.' }),
  selector: opt(field(2, LabelSelector, {
    description: 'Labels narrowing the metric\'s series, passed to the metrics server; unset means the name alone.',
  })),
}, { required: ['name'], description: 'A metric by name, optionally narrowed by labels.' });
export type MetricIdentifier = Static<typeof MetricIdentifier>;

export const MetricTarget = object(`${P}.MetricTarget`, {
  type: str(1, { description: 'Which of the values below is the target: Utilization, Value or AverageValue.' }),
  value: opt(quantity(2, { description: 'Target value of the metric as a whole.' })),
  averageValue: opt(quantity(3, { description: 'Target value of the metric averaged over the pods.' })),
  averageUtilization: opt(int32(4, {
    'x-orch-emit': 'pointer',
    description: 'Target average over the pods as a percentage of their requests; resource and container resource metrics only.',
  })),
}, { required: ['type'], description: 'The value a metric should be kept at.' });
export type MetricTarget = Static<typeof MetricTarget>;

export const MetricValueStatus = object(`${P}.MetricValueStatus`, {
  value: opt(quantity(1, { description: 'Current value of the metric as a whole.' })),
  averageValue: opt(quantity(2, { description: 'Current value of the metric averaged over the pods.' })),
  averageUtilization: opt(int32(3, {
    'x-orch-emit': 'pointer',
    description: 'Current average over the pods as a percentage of their requests.',
  })),
}, { description: 'The current value of a metric.' });
export type MetricValueStatus = Static<typeof MetricValueStatus>;

export const ObjectMetricSource = object(`${P}.ObjectMetricSource`, {
  describedObject: field(1, CrossVersionObjectReference, { description: 'The object the metric describes, e.g. an Ingress.' }),
  target: field(2, MetricTarget, { description: 'The value the metric should be kept at (Value or AverageValue).' }),
  metric: field(3, MetricIdentifier, { description: 'The metric.' }),
}, { required: ['describedObject', 'target', 'metric'], description: 'A metric describing one object of the cluster (custom metrics API).' });

export const PodsMetricSource = object(`${P}.PodsMetricSource`, {
  metric: field(1, MetricIdentifier, { description: 'The metric.' }),
  target: field(2, MetricTarget, { description: 'The value the metric should be kept at, averaged over the pods (AverageValue).' }),
}, { required: ['metric', 'target'], description: 'A metric of each pod of the scaled object, averaged (custom metrics API).' });

export const ResourceMetricSource = object(`${P}.ResourceMetricSource`, {
  name: str(1, { description: 'Name of the resource, e.g. cpu or memory.' }),
  target: field(2, MetricTarget, { description: 'The value the resource should be kept at (Utilization or AverageValue).' }),
}, { required: ['name', 'target'], description: 'A resource the pods request (resource metrics API), summed over their containers.' });

export const ContainerResourceMetricSource = object(`${P}.ContainerResourceMetricSource`, {
  name: str(1, { description: 'Name of the resource, e.g. cpu or memory.' }),
  target: field(2, MetricTarget, { description: 'The value the resource should be kept at (Utilization or AverageValue).' }),
  container: str(3, { description: 'Name of the container in the pods whose usage counts.' }),
}, { required: ['name', 'target', 'container'], description: 'A resource that one container of each pod requests (resource metrics API).' });

export const ExternalMetricSource = object(`${P}.ExternalMetricSource`, {
  metric: field(1, MetricIdentifier, { description: 'The metric.' }),
  target: field(2, MetricTarget, { description: 'The value the metric should be kept at (Value or AverageValue).' }),
}, { required: ['metric', 'target'], description: 'A metric not tied to any object of the cluster (external metrics API).' });

export const MetricSpec = object(`${P}.MetricSpec`, {
  type: str(1, { description: 'Kind of metric source: ContainerResource, External, Object, Pods or Resource; the matching field must be set.' }),
  object: opt(field(2, ObjectMetricSource, { description: 'A metric of one object of the cluster.' })),
  pods: opt(field(3, PodsMetricSource, { description: 'A metric of each pod, averaged.' })),
  resource: opt(field(4, ResourceMetricSource, { description: 'A resource the pods request.' })),
  containerResource: opt(field(7, ContainerResourceMetricSource, { description: 'A resource one container of each pod requests.' })),
  external: opt(field(5, ExternalMetricSource, { description: 'A metric from outside the cluster.' })),
}, { required: ['type'], description: 'One metric to scale on and its target.' });
export type MetricSpec = Static<typeof MetricSpec>;

export const HPAScalingPolicy = object(`${P}.HPAScalingPolicy`, {
  type: str(1, { description: 'Pods (a number of pods) or Percent (a percentage of the current count).' }),
  value: int32(2, { description: 'How much the count may change within one period; greater than zero.' }),
  periodSeconds: int32(3, { description: 'The window the change is measured over, in seconds (1 to 1800).' }),
}, { required: ['type', 'value', 'periodSeconds'], description: 'How fast the replica count may change in one direction.' });
export type HPAScalingPolicy = Static<typeof HPAScalingPolicy>;

export const HPAScalingRules = object(`${P}.HPAScalingRules`, {
  stabilizationWindowSeconds: opt(int32(3, {
    'x-orch-emit': 'pointer',
    description: 'Seconds of past recommendations to consider, so that the count does not flap (0 to 3600). ' +
      'Defaults to 0 for scaling up and to the controller\'s downscale stabilization (300 s) for scaling down.',
  })),
  selectPolicy: opt(str(1, { 'x-orch-emit': 'pointer', description: 'Which policy wins: Max (the largest change, the default), Min (the smallest) or Disabled.' })),
  policies: opt(list(2, HPAScalingPolicy, { listType: 'atomic' }, { description: 'The policies that may limit scaling; at least one.' })),
}, { description: 'The rules of scaling in one direction: a stabilization window and rate policies.' });
export type HPAScalingRules = Static<typeof HPAScalingRules>;

export const HorizontalPodAutoscalerBehavior = object(`${P}.HorizontalPodAutoscalerBehavior`, {
  scaleUp: opt(field(1, HPAScalingRules, {
    description: 'Rules of scaling up. Default: the larger of 4 pods or 100% per 15 seconds, no stabilization.',
  })),
  scaleDown: opt(field(2, HPAScalingRules, {
    description: 'Rules of scaling down. Default: down to minReplicas at once (100% per 15 seconds) after a 300-second stabilization window.',
  })),
}, { description: 'How fast the autoscaler may scale up and down.' });
export type HorizontalPodAutoscalerBehavior = Static<typeof HorizontalPodAutoscalerBehavior>;

export const HorizontalPodAutoscalerSpec = object(`${P}.HorizontalPodAutoscalerSpec`, {
  scaleTargetRef: field(1, CrossVersionObjectReference, { description: 'The object scaled, through its scale sub-resource.' }),
  minReplicas: opt(int32(2, {
    default: 1,
    'x-orch-emit': 'pointer',
    description: 'Fewest replicas the autoscaler scales down to. Defaults to 1; 0 only with an Object or External metric.',
  })),
  maxReplicas: int32(3, { description: 'Most replicas the autoscaler scales up to; at least minReplicas.' }),
  metrics: opt(list(4, MetricSpec, { listType: 'atomic' }, {
    description: 'The metrics to scale on; the largest replica count any of them asks for wins. Defaults to 80% average CPU utilization.',
  })),
  behavior: opt(field(5, HorizontalPodAutoscalerBehavior, { description: 'How fast to scale up and down; the defaults when unset.' })),
}, { required: ['scaleTargetRef', 'maxReplicas'], description: 'The desired behaviour of an autoscaler.' });
export type HorizontalPodAutoscalerSpec = Static<typeof HorizontalPodAutoscalerSpec>;

export const ObjectMetricStatus = object(`${P}.ObjectMetricStatus`, {
  metric: field(1, MetricIdentifier, { description: 'The metric.' }),
  current: field(2, MetricValueStatus, { description: 'Its current value.' }),
  describedObject: field(3, CrossVersionObjectReference, { description: 'The object the metric describes.' }),
}, { required: ['metric', 'current', 'describedObject'], description: 'The current value of an object metric.' });

export const PodsMetricStatus = object(`${P}.PodsMetricStatus`, {
  metric: field(1, MetricIdentifier, { description: 'The metric.' }),
  current: field(2, MetricValueStatus, { description: 'Its current value, averaged over the pods.' }),
}, { required: ['metric', 'current'], description: 'The current value of a pods metric.' });

export const ResourceMetricStatus = object(`${P}.ResourceMetricStatus`, {
  name: str(1, { description: 'Name of the resource.' }),
  current: field(2, MetricValueStatus, { description: 'Its current use, averaged over the pods.' }),
}, { required: ['name', 'current'], description: 'The current use of a resource by the pods.' });

export const ContainerResourceMetricStatus = object(`${P}.ContainerResourceMetricStatus`, {
  name: str(1, { description: 'Name of the resource.' }),
  current: field(2, MetricValueStatus, { description: 'Its current use, averaged over the pods.' }),
  container: str(3, { description: 'Name of the container whose use counts.' }),
}, { required: ['name', 'current', 'container'], description: 'The current use of a resource by one container of each pod.' });

export const ExternalMetricStatus = object(`${P}.ExternalMetricStatus`, {
  metric: field(1, MetricIdentifier, { description: 'The metric.' }),
  current: field(2, MetricValueStatus, { description: 'Its current value.' }),
}, { required: ['metric', 'current'], description: 'The current value of an external metric.' });

export const MetricStatus = object(`${P}.MetricStatus`, {
  type: str(1, { description: 'Kind of metric source; empty when the metric could not be read.' }),
  object: opt(field(2, ObjectMetricStatus, { description: 'An object metric.' })),
  pods: opt(field(3, PodsMetricStatus, { description: 'A pods metric.' })),
  resource: opt(field(4, ResourceMetricStatus, { description: 'A resource metric.' })),
  containerResource: opt(field(7, ContainerResourceMetricStatus, { description: 'A container resource metric.' })),
  external: opt(field(5, ExternalMetricStatus, { description: 'An external metric.' })),
}, { required: ['type'], description: 'The last value read of one metric.' });
export type MetricStatus = Static<typeof MetricStatus>;

export const HorizontalPodAutoscalerCondition = object(`${P}.HorizontalPodAutoscalerCondition`, {
  type: str(1, { description: 'AbleToScale, ScalingActive or ScalingLimited.' }),
  status: str(2, { description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time(3, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(4, { description: 'Machine-readable reason for the last change.' })),
  message: opt(str(5, { description: 'Human-readable details of the last change.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of an autoscaler.' });
export type HorizontalPodAutoscalerCondition = Static<typeof HorizontalPodAutoscalerCondition>;

export const HorizontalPodAutoscalerStatus = object(`${P}.HorizontalPodAutoscalerStatus`, {
  observedGeneration: opt(int64(1, { 'x-orch-emit': 'pointer', description: 'The generation the autoscaler last observed.' })),
  lastScaleTime: opt(time(2, { 'x-orch-emit': 'pointer', description: 'When the autoscaler last changed the replica count.' })),
  currentReplicas: opt(int32(3, { description: 'Replicas of the scaled object when last observed.' })),
  desiredReplicas: int32(4, { description: 'Replicas the autoscaler last asked for.' }),
  currentMetrics: opt(list(5, MetricStatus, { listType: 'atomic' }, {
    'x-orch-emit': 'always',
    description: 'The last values read of the metrics, in the order of spec.metrics.',
  })),
  conditions: opt(list(6, HorizontalPodAutoscalerCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Whether the autoscaler can scale, is scaling, and is held at a limit, with reasons.',
  })),
}, { required: ['desiredReplicas'], description: 'The observed state of an autoscaler, written by its controller.' });
export type HorizontalPodAutoscalerStatus = Static<typeof HorizontalPodAutoscalerStatus>;

export const HorizontalPodAutoscaler = topLevel(`${P}.HorizontalPodAutoscaler`, {
  spec: opt(field(2, HorizontalPodAutoscalerSpec, { 'x-orch-emit': 'always', description: 'What to scale, between which counts, on which metrics.' })),
  status: opt(field(3, HorizontalPodAutoscalerStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the controller through the status sub-resource.',
  })),
}, {
  description: 'Scales an object that has a scale sub-resource (a Deployment, for one) through it, keeping the metrics it names near their targets.',
});
export type HorizontalPodAutoscaler = Static<typeof HorizontalPodAutoscaler>;
