// autoscaling/v2: HorizontalPodAutoscaler, the storage version of the resource.
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { defaultHorizontalPodAutoscaler } from './defaults.js';
import { HorizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';
import { horizontalPodAutoscalerColumns } from './printer.js';

/** The autoscaling group, unmapped by the platform domain as upstream's is. */
export const autoscalingGroup = 'autoscaling';

export const autoscalingV2: GroupVersionRegistration = {
  group: autoscalingGroup,
  version: 'v2',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers', singular: 'horizontalpodautoscaler', namespaced: true,
      shortNames: ['hpa'], categories: ['all'], subresources: ['status'], schema: HorizontalPodAutoscaler,
      defaulter: defaultHorizontalPodAutoscaler, printerColumns: horizontalPodAutoscalerColumns,
    }),
  ],
};
