// The stable identity of a StatefulSet's pods (upstream's stateful_set_utils): pod `<set>-<ordinal>`
// with hostname and subdomain for its DNS name, labels naming the pod and its ordinal (under the
// platform domain, upstream's statefulset.kubernetes.io/pod-name and apps.kubernetes.io/pod-index),
// and one claim `<template>-<set>-<ordinal>` per volumeClaimTemplate mounted in place of the
// template's volume of that name.
import type { ApiDomain } from '../../../api/domain.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { KubeObject } from '../../client/index.js';
import { revisionHashLabel, type Sts } from './revisions.js';

export type SetPod = Pod & KubeObject;
export type Claim = PersistentVolumeClaim & KubeObject;

/** The ordinal in a pod's name, or -1 when the name is not `<set>-<n>`. */
export function ordinalOf(setName: string, podName: string): number {
  if (!podName.startsWith(`${setName}-`)) return -1;
  const rest = podName.slice(setName.length + 1);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : -1;
}

export function podName(set: Sts, ordinal: number): string {
  return `${set.metadata.name}-${ordinal}`;
}

export function claimName(template: string, set: Sts, ordinal: number): string {
  return `${template}-${set.metadata.name}-${ordinal}`;
}

export function startOrdinal(set: Sts): number {
  return set.spec?.ordinals?.start ?? 0;
}

export function podRevision(pod: SetPod): string {
  return pod.metadata.labels?.[revisionHashLabel] ?? '';
}

/** The claims a pod of `set` at `ordinal` mounts, by volume name. */
export function claimsFor(set: Sts, ordinal: number): Claim[] {
  return (set.spec?.volumeClaimTemplates ?? []).map((t) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: claimName(t.metadata?.name ?? '', set, ordinal),
      namespace: set.metadata.namespace,
      // Upstream: the template's labels plus the set's matchLabels, so a selector finds them.
      labels: { ...(t.metadata?.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) },
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
    },
    spec: t.spec,
  } as Claim));
}

/** A new pod of `set` at `ordinal` from `template` (the template of the revision it is to run). */
export function newPod(set: Sts, template: PodTemplateSpec, ordinal: number, revision: string, domain: ApiDomain): SetPod {
  const name = podName(set, ordinal);
  const spec = structuredClone(template.spec ?? { containers: [] });
  const claimVolumes = (set.spec?.volumeClaimTemplates ?? []).map((t) => ({
    name: t.metadata?.name ?? '',
    persistentVolumeClaim: { claimName: claimName(t.metadata?.name ?? '', set, ordinal) },
  }));
  const claimed = new Set(claimVolumes.map((v) => v.name));
  spec.volumes = [...claimVolumes, ...(spec.volumes ?? []).filter((v) => !claimed.has(v.name))] as typeof spec.volumes;
  spec.hostname = name;
  if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: set.metadata.namespace,
      labels: {
        ...(template.metadata?.labels ?? {}),
        [domain.key('pod-name', 'statefulset')]: name,
        [domain.key('pod-index', 'apps')]: String(ordinal),
        [revisionHashLabel]: revision,
      },
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: set.metadata.name ?? '', uid: set.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec,
  } as SetPod;
}

const readyCondition = (pod: SetPod) => pod.status?.conditions?.find((c) => c.type === 'Ready');

export const isTerminating = (pod: SetPod) => pod.metadata.deletionTimestamp !== undefined;
/** Upstream's isCreated: the node agent has reported a phase. */
export const isCreated = (pod: SetPod) => (pod.status?.phase ?? '') !== '';
export const isFailed = (pod: SetPod) => pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';
export const isRunningAndReady = (pod: SetPod) => pod.status?.phase === 'Running' && readyCondition(pod)?.status === 'True';
/** Upstream's isHealthy: running, ready, and not on its way out. */
export const isHealthy = (pod: SetPod) => isRunningAndReady(pod) && !isTerminating(pod);

/** Whether a ready pod has been ready for minReadySeconds at `now`; else when it will be (ms). */
export function availableAt(pod: SetPod, minReadySeconds: number): number {
  if (minReadySeconds <= 0) return 0;
  const since = readyCondition(pod)?.lastTransitionTime;
  return since ? Date.parse(since) + minReadySeconds * 1000 : 0;
}
