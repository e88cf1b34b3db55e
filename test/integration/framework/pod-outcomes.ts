// Plays the kubelet at the end of a pod's life (nothing runs pods here): writes through the status
// sub-resource what a kubelet reports when its containers have exited, with their exit codes, so
// the job controller reads a finished pod exactly as it would read a real one.
import type { KubeObject, ResourceClient } from '../../../pkg/client/index.js';

export interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface FinishingPod extends KubeObject {
  spec?: { containers?: { name: string; image?: string }[] };
  status?: Record<string, unknown>;
}

export interface Outcome {
  /** Exit code of every container (0: Succeeded); or per container name, the others exiting 0. */
  exitCode: number | Record<string, number>;
  /** Extra pod conditions, such as DisruptionTarget for an evicted pod. */
  conditions?: PodCondition[];
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** The status a kubelet reports once every container of `pod` exited as `outcome` says. */
export function finishedStatus(pod: FinishingPod, outcome: Outcome): Record<string, unknown> {
  const at = now();
  const codeOf = (name: string) => (typeof outcome.exitCode === 'number' ? outcome.exitCode : outcome.exitCode[name] ?? 0);
  const containers = pod.spec?.containers ?? [];
  const failed = containers.some((c) => codeOf(c.name) !== 0);
  const reason = failed ? 'PodFailed' : 'PodCompleted';
  return {
    phase: failed ? 'Failed' : 'Succeeded',
    startTime: at,
    conditions: [
      ...(outcome.conditions ?? []).map((c) => ({ lastTransitionTime: at, ...c })),
      { type: 'Initialized', status: 'True', lastTransitionTime: at, reason },
      { type: 'Ready', status: 'False', lastTransitionTime: at, reason },
      { type: 'ContainersReady', status: 'False', lastTransitionTime: at, reason },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: at },
    ],
    containerStatuses: containers.map((c) => {
      const exitCode = codeOf(c.name);
      return {
        name: c.name, image: c.image ?? '', imageID: '', ready: false, restartCount: 0, started: false,
        state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: at, finishedAt: at, containerID: `containerd://${c.name}` } },
      };
    }),
  };
}

/** Reports `pod` finished as `outcome` says (retrying on a conflict with a newer version of it). */
export async function finishPod<T extends FinishingPod>(pods: ResourceClient<T>, pod: T, outcome: Outcome): Promise<T> {
  let current = pod;
  for (let attempt = 0; ; attempt++) {
    try {
      return await pods.namespace(current.metadata.namespace ?? '').updateStatus({ ...current, status: finishedStatus(current, outcome) });
    } catch (e) {
      if (attempt >= 5 || (e as { code?: number }).code !== 409) throw e;
      current = await pods.namespace(current.metadata.namespace ?? '').get(current.metadata.name ?? '');
    }
  }
}
