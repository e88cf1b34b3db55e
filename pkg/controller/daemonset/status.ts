// A DaemonSet's status counts (upstream's updateDaemonSetStatus): per node that should run the
// daemon pod, whether it has one (currentNumberScheduled) and whether its oldest one is ready,
// available and of the current template; per node that should not, whether it has one anyway
// (numberMisscheduled).
import type { DaemonSetStatus } from '../../../api/apps/v1/daemon-set.js';
import type { PodObject } from '../pod-conditions.js';
import { isPodAvailable, isPodReady } from '../replicaset/pod-ranking.js';
import { daemonPodOrder } from './rolling-update.js';
import { isPodUpdated } from './revisions.js';

export type StatusCounts = Required<Pick<DaemonSetStatus,
  'desiredNumberScheduled' | 'currentNumberScheduled' | 'numberMisscheduled' | 'numberReady' | 'updatedNumberScheduled' | 'numberAvailable' | 'numberUnavailable'>>;

export interface StatusInput {
  /** Every node's name and whether it should run the daemon pod. */
  nodes: readonly { name: string; shouldRun: boolean }[];
  nodeToPods: ReadonlyMap<string, readonly PodObject[]>;
  hash: string;
  generation: number | undefined;
  minReadySeconds: number;
  now: number;
}

export function statusCounts(input: StatusInput): StatusCounts {
  const c: StatusCounts = {
    desiredNumberScheduled: 0, currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0,
    updatedNumberScheduled: 0, numberAvailable: 0, numberUnavailable: 0,
  };
  for (const { name, shouldRun } of input.nodes) {
    const pods = input.nodeToPods.get(name) ?? [];
    if (!shouldRun) {
      if (pods.length > 0) c.numberMisscheduled++;
      continue;
    }
    c.desiredNumberScheduled++;
    if (pods.length === 0) continue;
    c.currentNumberScheduled++;
    const pod = [...pods].sort(daemonPodOrder)[0]!;
    if (isPodReady(pod)) {
      c.numberReady++;
      if (isPodAvailable(pod, input.minReadySeconds, input.now)) c.numberAvailable++;
    }
    if (isPodUpdated(pod, input.hash, input.generation)) c.updatedNumberScheduled++;
  }
  c.numberUnavailable = c.desiredNumberScheduled - c.numberAvailable;
  return c;
}
