// HorizontalPodAutoscaler (autoscaling/v1): the CPU-only shape of an autoscaler, served from the
// autoscaling/v2 storage through conversion.ts (what v1 cannot say travels in annotations). Field
// numbers follow upstream autoscaling/v1 generated.proto.
import { type Static } from '@sinclair/typebox';
import { field, int32, int64, object, opt } from '../../schema.js';
import { time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';
import { crossVersionObjectReference } from '../v2/horizontal-pod-autoscaler.js';

const P = 'io.orch.api.autoscaling.v1';

export const CrossVersionObjectReference = crossVersionObjectReference(P);
export type CrossVersionObjectReference = Static<typeof CrossVersionObjectReference>;

export const HorizontalPodAutoscalerSpec = object(`${P}.HorizontalPodAutoscalerSpec`, {
  scaleTargetRef: field(1, CrossVersionObjectReference, { description: 'The object scaled, through its scale sub-resource.' }),
  minReplicas: opt(int32(2, {
    default: 1,
    'x-orch-emit': 'pointer',
    description: 'Fewest replicas the autoscaler scales down to. Defaults to 1.',
  })),
  maxReplicas: int32(3, { description: 'Most replicas the autoscaler scales up to; at least minReplicas.' }),
  targetCPUUtilizationPercentage: opt(int32(4, {
    'x-orch-emit': 'pointer',
    description: 'Target average CPU use of the pods, as a percentage of their requests; 80 when unset.',
  })),
}, { required: ['scaleTargetRef', 'maxReplicas'], description: 'The desired behaviour of an autoscaler.' });
export type HorizontalPodAutoscalerSpec = Static<typeof HorizontalPodAutoscalerSpec>;

export const HorizontalPodAutoscalerStatus = object(`${P}.HorizontalPodAutoscalerStatus`, {
  observedGeneration: opt(int64(1, { 'x-orch-emit': 'pointer', description: 'The generation the autoscaler last observed.' })),
  lastScaleTime: opt(time(2, { 'x-orch-emit': 'pointer', description: 'When the autoscaler last changed the replica count.' })),
  currentReplicas: int32(3, { description: 'Replicas of the scaled object when last observed.' }),
  desiredReplicas: int32(4, { description: 'Replicas the autoscaler last asked for.' }),
  currentCPUUtilizationPercentage: opt(int32(5, {
    'x-orch-emit': 'pointer',
    description: 'Current average CPU use of the pods, as a percentage of their requests.',
  })),
}, { required: ['currentReplicas', 'desiredReplicas'], description: 'The observed state of an autoscaler, written by its controller.' });
export type HorizontalPodAutoscalerStatus = Static<typeof HorizontalPodAutoscalerStatus>;

export const HorizontalPodAutoscaler = topLevel(`${P}.HorizontalPodAutoscaler`, {
  spec: opt(field(2, HorizontalPodAutoscalerSpec, { 'x-orch-emit': 'always', description: 'What to scale, between which counts, at which CPU use.' })),
  status: opt(field(3, HorizontalPodAutoscalerStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the controller through the status sub-resource.',
  })),
}, { description: 'Scales a scalable object through its scale sub-resource, keeping the average CPU use of its pods near a target.' });
export type HorizontalPodAutoscaler = Static<typeof HorizontalPodAutoscaler>;
