// Where a DaemonSet's pods belong (upstream's NodeShouldRunDaemonPod, NewPod and daemon/util):
// a node should run the daemon pod when the template's nodeName (if any), nodeSelector and
// required node affinity admit it and the pod, with the tolerations every daemon pod gets,
// tolerates its NoSchedule and NoExecute taints; a pod already there may stay as long as it
// tolerates the NoExecute ones. Each daemon pod is tied to its node by a required node affinity
// on metadata.name, for the scheduler to bind it there.
import type { Affinity } from '../../../api/core/v1/affinity.js';
import type { PodSpec } from '../../../api/core/v1/pod-template.js';
import type { DaemonSet } from '../../../api/apps/v1/daemon-set.js';
import type { ApiDomain } from '../../../api/domain.js';
import type { KubeObject } from '../../client/index.js';
import { objectNameField, requiredPlacementMatches, type PlacedNode } from '../node-affinity.js';
import type { PodObject } from '../pod-conditions.js';
import { findUntoleratedTaint, type Taint, type Toleration } from '../taints.js';

export type DaemonSetObject = DaemonSet & KubeObject;

export interface DaemonNode extends PlacedNode {
  spec?: { taints?: Taint[] };
}

/**
 * The tolerations every daemon pod gets (upstream's AddOrUpdateDaemonPodTolerations): it stays on
 * a not-ready or unreachable node forever, and is placed on nodes under pressure or cordoned (and
 * without a network, when it brings its own: hostNetwork).
 */
export function daemonTolerations(domain: ApiDomain, hostNetwork: boolean): Toleration[] {
  const t = (name: string, effect: 'NoExecute' | 'NoSchedule'): Toleration => ({ key: domain.key(name, 'node'), operator: 'Exists', effect });
  return [
    t('not-ready', 'NoExecute'),
    t('unreachable', 'NoExecute'),
    t('disk-pressure', 'NoSchedule'),
    t('memory-pressure', 'NoSchedule'),
    t('pid-pressure', 'NoSchedule'),
    t('unschedulable', 'NoSchedule'),
    ...(hostNetwork ? [t('network-unavailable', 'NoSchedule')] : []),
  ];
}

/** Same key, operator, value and effect (upstream's MatchToleration: tolerationSeconds aside). */
const sameToleration = (a: Toleration, b: Toleration) =>
  (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '') && (a.effect ?? '') === (b.effect ?? '');

/** The pod's tolerations with each daemon toleration added, or put in place of the pod's own of the same kind (upstream's AddOrUpdateTolerationInPodSpec). */
export function withDaemonTolerations(spec: Pick<PodSpec, 'tolerations' | 'hostNetwork'>, domain: ApiDomain): Toleration[] {
  let out = [...(spec.tolerations ?? [])];
  for (const d of daemonTolerations(domain, spec.hostNetwork === true)) {
    if (out.some((t) => sameToleration(t, d))) out = out.map((t) => (sameToleration(t, d) ? d : t));
    else out.push(d);
  }
  return out;
}

/** Whether a daemon pod should be created on the node, and whether one there may stay. */
export function nodeShouldRunDaemonPod(node: DaemonNode, ds: DaemonSetObject, domain: ApiDomain): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const spec = ds.spec?.template?.spec;
  const name = node.metadata.name ?? '';
  if (spec?.nodeName && spec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false };
  if (!requiredPlacementMatches(spec ?? {}, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = withDaemonTolerations(spec ?? {}, domain);
  const taints = node.spec?.taints ?? [];
  if (!findUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute' || t.effect === 'NoSchedule')) return { shouldRun: true, shouldContinueRunning: true };
  return { shouldRun: false, shouldContinueRunning: !findUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute') };
}

/**
 * The affinity with its required node affinity replaced by one term selecting `nodeName` by
 * metadata.name (upstream's ReplaceDaemonSetPodNodeNameNodeAffinity; the node already passed the
 * template's own terms).
 */
export function affinityForNode(affinity: Affinity | undefined, nodeName: string): Affinity {
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: objectNameField, operator: 'In' as const, values: [nodeName] }] }] };
  return { ...(affinity ?? {}), nodeAffinity: { ...(affinity?.nodeAffinity ?? {}), requiredDuringSchedulingIgnoredDuringExecution: required } };
}

/** The node a daemon pod is for: its spec.nodeName once bound, else the one its node affinity names (upstream's GetTargetNodeName). */
export function targetNodeName(pod: PodObject): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const r of term.matchFields ?? []) {
      if (r.key === objectNameField && r.operator === 'In') return r.values?.length === 1 ? r.values[0] : undefined;
    }
  }
  return undefined;
}
