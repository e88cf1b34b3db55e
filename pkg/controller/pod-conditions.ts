// Pod conditions as controllers write them (upstream's podutil.UpdatePodCondition and
// util/pod.PatchPodStatus): a condition keeps its lastTransitionTime while its status stays, and
// a status change goes out as a strategic merge patch of pods/status carrying the pod's uid, so
// neither a namesake pod nor the node agent's other fields are touched.
import type { Pod } from '../../api/core/v1/pod.js';
import { formatTime } from '../../api/meta/v1/primitives.js';
import type { KubeObject, ResourceClient } from '../client/index.js';

export type PodObject = Pod & KubeObject;
type PodStatus = NonNullable<Pod['status']>;
export type PodCondition = NonNullable<PodStatus['conditions']>[number];

/** Upstream's DisruptionTarget: why a pod is about to go, written just before it is deleted. */
export const disruptionTarget = 'DisruptionTarget';

/**
 * `status` with `condition` set (its transition time now, unless the status is unchanged), and
 * whether anything changed.
 */
export function withPodCondition(status: PodStatus | undefined, condition: PodCondition, now = new Date()): { status: PodStatus; changed: boolean } {
  const conditions = [...(status?.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === condition.type);
  const old = i >= 0 ? conditions[i] : undefined;
  const next: PodCondition = { ...condition, lastTransitionTime: condition.lastTransitionTime ?? formatTime(now) };
  if (old && old.status === next.status) next.lastTransitionTime = old.lastTransitionTime;
  const changed = !old || old.status !== next.status || (old.reason ?? '') !== (next.reason ?? '') || (old.message ?? '') !== (next.message ?? '') ||
    (old.lastProbeTime ?? '') !== (next.lastProbeTime ?? '') || (old.lastTransitionTime ?? '') !== (next.lastTransitionTime ?? '');
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
  return { status: { ...(status ?? {}), conditions }, changed };
}

/** Writes `changes` to the pod's status as one patch, only to the pod with the uid we read. */
export async function patchPodStatus(pods: ResourceClient<PodObject>, pod: PodObject, changes: Partial<PodStatus>): Promise<PodObject> {
  return pods.namespace(pod.metadata.namespace ?? '').patch(pod.metadata.name ?? '', 'strategic', {
    metadata: { uid: pod.metadata.uid },
    status: changes,
  }, { subresource: 'status' });
}
