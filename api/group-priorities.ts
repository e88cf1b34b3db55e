// Where each built-in group version stands in discovery: upstream kube-apiserver's APIService
// priorities (groupPriorityMinimum, versionPriority) for the same groups, so /apis and the
// aggregated documents list groups in the order stock clients know (kubectl resolves a short or
// kind name to the first group that serves it).
import type { ApiDomain } from './domain.js';

export interface GroupVersionPriority {
  /** Higher groups are listed first (APIService spec.groupPriorityMinimum). */
  group: number;
  /** Higher versions of a group are listed first, the first being preferred (spec.versionPriority). */
  version: number;
}

/** By upstream's group name (`k8s.io` where ours says the platform domain), then version. */
const upstream: Record<string, Record<string, GroupVersionPriority>> = {
  '': { v1: { group: 18000, version: 1 } },
  // upstream's aggregator lists its own group right after the core group
  'apiregistration.k8s.io': { v1: { group: 18000, version: 15 } },
  apps: { v1: { group: 17800, version: 15 } },
  'events.k8s.io': { v1: { group: 17750, version: 15 } },
  'authentication.k8s.io': { v1: { group: 17700, version: 15 }, v1beta1: { group: 17700, version: 9 } },
  'authorization.k8s.io': { v1: { group: 17600, version: 15 } },
  autoscaling: { v2: { group: 17500, version: 30 }, v1: { group: 17500, version: 15 } },
  batch: { v1: { group: 17400, version: 15 } },
  'certificates.k8s.io': { v1: { group: 17300, version: 15 } },
  'networking.k8s.io': { v1: { group: 17200, version: 15 } },
  policy: { v1: { group: 17100, version: 15 } },
  'rbac.authorization.k8s.io': { v1: { group: 17000, version: 15 } },
  'storage.k8s.io': { v1: { group: 16800, version: 15 } },
  'apiextensions.k8s.io': { v1: { group: 16700, version: 15 } },
  'admissionregistration.k8s.io': { v1: { group: 16700, version: 15 } },
  'scheduling.k8s.io': { v1: { group: 16600, version: 15 } },
  'coordination.k8s.io': { v1: { group: 16500, version: 15 } },
  'node.k8s.io': { v1: { group: 16300, version: 15 } },
  'discovery.k8s.io': { v1: { group: 16200, version: 15 } },
};

/** What upstream's discovery gives a group version it has no priority for. */
export const defaultPriority: GroupVersionPriority = { group: 1000, version: 15 };

/**
 * A custom resource's group version, as upstream's CRD registration gives every one: below the
 * built-in groups, its versions then ordered by name (v2, v1, v1beta1, ...).
 */
export const customResourcePriority: GroupVersionPriority = { group: 1000, version: 100 };

/** The priority of a built-in group version (group named in `domain`). */
export function builtInPriority(group: string, version: string, domain: ApiDomain): GroupVersionPriority {
  const suffix = `.${domain.name}`;
  const name = group.endsWith(suffix) ? `${group.slice(0, -suffix.length)}.k8s.io` : group;
  return upstream[name]?.[version] ?? defaultPriority;
}
