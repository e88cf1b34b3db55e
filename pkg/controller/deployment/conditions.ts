// Deployment conditions (upstream's deployment/util conditions): Available and Progressing with
// upstream's reasons. Setting a condition with the same status and reason changes nothing, so
// lastUpdateTime moves only when something did; a same-status change keeps lastTransitionTime.
import type { DeploymentStatus } from '../../../api/apps/v1/deployment.js';

export type DeploymentCondition = NonNullable<DeploymentStatus['conditions']>[number];

export const Reasons = {
  NewReplicaSetCreated: 'NewReplicaSetCreated',
  FoundNewReplicaSet: 'FoundNewReplicaSet',
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  NewReplicaSetAvailable: 'NewReplicaSetAvailable',
  ProgressDeadlineExceeded: 'ProgressDeadlineExceeded',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
  DeploymentPaused: 'DeploymentPaused',
  DeploymentResumed: 'DeploymentResumed',
} as const;

export const nowStamp = (now = Date.now()): string => new Date(now).toISOString().replace(/\.\d+Z$/, 'Z');

export function newCondition(type: string, status: 'True' | 'False' | 'Unknown', reason: string, message: string, now = Date.now()): DeploymentCondition {
  const t = nowStamp(now);
  return { type, status, reason, message, lastUpdateTime: t, lastTransitionTime: t };
}

export function getCondition(s: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined {
  return (s?.conditions ?? []).find((c) => c.type === type);
}

export function removeCondition(s: DeploymentStatus, type: string): void {
  s.conditions = (s.conditions ?? []).filter((c) => c.type !== type);
}

export function setCondition(s: DeploymentStatus, c: DeploymentCondition): void {
  const current = getCondition(s, c.type);
  if (current && current.status === c.status && current.reason === c.reason) return;
  if (current && current.status === c.status) c = { ...c, lastTransitionTime: current.lastTransitionTime };
  s.conditions = [...(s.conditions ?? []).filter((x) => x.type !== c.type), c];
}
