// What a failed pod means under a job's podFailurePolicy (upstream's matchPodFailurePolicy): the
// rules are tried in order and the first that matches decides. FailJob ends the job (with
// upstream's message), Ignore does not count the failure against backoffLimit, FailIndex fails the
// pod's index, Count counts it as usual; no match counts it.
import type { JobSpec } from '../../../api/batch/v1/job.js';
import type { ContainerStatus, PodStatus } from '../../../api/core/v1/pod.js';
import type { PodObject } from '../replicaset/pod-ranking.js';

type Policy = NonNullable<JobSpec['podFailurePolicy']>;
type Rule = Policy['rules'][number];
type Action = Rule['action'];

export interface PolicyMatch {
  /** The job's failure message, when a FailJob rule matched. */
  failJobMessage?: string;
  /** Whether the failure counts against backoffLimit (and backoffLimitPerIndex). */
  countFailed: boolean;
  /** The action of the rule that matched, if any. */
  action?: Action;
}

/** The first terminated container (regular, then init) whose non-zero exit code the requirement matches. */
function matchOnExitCodes(status: PodStatus | undefined, req: NonNullable<Rule['onExitCodes']>): ContainerStatus | undefined {
  const matches = (c: ContainerStatus) => {
    const code = c.state?.terminated?.exitCode;
    if (code === undefined || code === 0) return false;
    if (req.containerName !== undefined && req.containerName !== null && req.containerName !== c.name) return false;
    const listed = req.values.includes(code);
    return req.operator === 'In' ? listed : req.operator === 'NotIn' ? !listed : false;
  };
  return (status?.containerStatuses ?? []).find(matches) ?? (status?.initContainerStatuses ?? []).find(matches);
}

function matchOnPodConditions(status: PodStatus | undefined, patterns: NonNullable<Rule['onPodConditions']>): string | undefined {
  for (const c of status?.conditions ?? []) {
    if (patterns.some((p) => p.type === c.type && (p.status ?? 'True') === c.status)) return c.type;
  }
  return undefined;
}

/** How `pod`'s failure is handled under `policy`. */
export function matchPodFailurePolicy(policy: Policy | undefined, pod: PodObject): PolicyMatch {
  if (!policy) return { countFailed: true };
  const ns = pod.metadata.namespace ?? '';
  const name = pod.metadata.name ?? '';
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    let failJobMessage: string | undefined;
    if (rule.onExitCodes) {
      const c = matchOnExitCodes(pod.status, rule.onExitCodes);
      if (!c) continue;
      failJobMessage = `Container ${c.name} for pod ${ns}/${name} failed with exit code ${c.state?.terminated?.exitCode} matching ${rule.action} rule at index ${index}`;
    } else if (rule.onPodConditions) {
      const type = matchOnPodConditions(pod.status, rule.onPodConditions);
      if (type === undefined) continue;
      failJobMessage = `Pod ${ns}/${name} has condition ${type} matching ${rule.action} rule at index ${index}`;
    } else continue;
    switch (rule.action) {
      case 'Ignore': return { countFailed: false, action: 'Ignore' };
      case 'FailIndex': return { countFailed: true, action: 'FailIndex' };
      case 'Count': return { countFailed: true, action: 'Count' };
      case 'FailJob': return { failJobMessage, countFailed: true, action: 'FailJob' };
      // An action this controller does not know lets the next rule decide, as upstream's switch falls through.
      default: continue;
    }
  }
  return { countFailed: true };
}
