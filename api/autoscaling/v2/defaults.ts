// Upstream's autoscaling/v2 defaults that depend on other fields: no metrics means 80% average CPU
// utilization, and a behavior given in part is completed rule by rule (scale-down's window is left
// unset, for the controller's --horizontal-pod-autoscaler-downscale-stabilization to fill).
import type { HPAScalingRules, HorizontalPodAutoscaler, MetricSpec } from './horizontal-pod-autoscaler.js';

/** The CPU utilization percentage an autoscaler without metrics targets. */
const defaultCPUUtilization = 80;

/** The metric an autoscaler without metrics scales on. */
export function defaultCPUMetric(utilization = defaultCPUUtilization): MetricSpec {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } };
}

/** The default scale-up rules: the larger of 4 pods or 100% per 15 seconds, no stabilization. */
export const defaultScaleUpRules = (): HPAScalingRules => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }],
});

/** The default scale-down rules: 100% per 15 seconds; the window comes from the controller's flag. */
export const defaultScaleDownRules = (): HPAScalingRules => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
});

/** `given` with each unset field taken from `defaults`, in the field order upstream writes. */
function completeRules(given: HPAScalingRules | undefined, defaults: HPAScalingRules): HPAScalingRules {
  if (!given) return defaults;
  const window = given.stabilizationWindowSeconds ?? defaults.stabilizationWindowSeconds;
  return {
    ...(window !== undefined ? { stabilizationWindowSeconds: window } : {}),
    selectPolicy: given.selectPolicy ?? defaults.selectPolicy,
    policies: given.policies ?? defaults.policies,
  };
}

/** Applies upstream's SetDefaults_HorizontalPodAutoscaler beyond the schema's minReplicas. */
export function defaultHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler): void {
  const spec = hpa.spec;
  if (!spec) return;
  spec.minReplicas ??= 1;
  if (!spec.metrics || spec.metrics.length === 0) spec.metrics = [defaultCPUMetric()];
  if (spec.behavior) {
    spec.behavior = {
      scaleUp: completeRules(spec.behavior.scaleUp, defaultScaleUpRules()),
      scaleDown: completeRules(spec.behavior.scaleDown, defaultScaleDownRules()),
    };
  }
}
