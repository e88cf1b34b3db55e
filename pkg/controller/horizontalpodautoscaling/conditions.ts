// Upstream's setCondition for autoscalers: one condition per type, its transition time moved only
// when its status changes.
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerCondition } from '../../../api/autoscaling/v2/horizontal-pod-autoscaler.js';
import { formatTime } from '../../../api/meta/v1/primitives.js';

export type ConditionType = 'AbleToScale' | 'ScalingActive' | 'ScalingLimited';

/** Sets the condition of `type` on the autoscaler's status (made if absent). */
export function setCondition(hpa: HorizontalPodAutoscaler, type: ConditionType, status: 'True' | 'False', reason: string, message: string, now = new Date()): void {
  const st = (hpa.status ??= { desiredReplicas: 0 });
  const conditions = (st.conditions ??= []);
  let c: HorizontalPodAutoscalerCondition | undefined = conditions.find((x) => x.type === type);
  if (!c) {
    c = { type, status: '' };
    conditions.push(c);
  }
  if (c.status !== status) c.lastTransitionTime = formatTime(now);
  c.status = status;
  c.reason = reason;
  c.message = message;
}
