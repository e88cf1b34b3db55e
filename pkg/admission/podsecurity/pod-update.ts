// Which pod updates PodSecurity evaluates (upstream's isSignificantPodUpdate): of a pod's spec only
// container images and ephemeral containers may change after creation, so an update is judged
// again only when containers come or go, an image changes, or an ephemeral container is added or
// changes its image. Anything else (labels, annotations, status) passes untouched.
import type { PodSpec } from '../../../api/core/v1/pod-template.js';

export function isSignificantPodUpdate(spec: PodSpec, old: PodSpec): boolean {
  const pairs = [[spec.containers ?? [], old.containers ?? []], [spec.initContainers ?? [], old.initContainers ?? []]] as const;
  for (const [now, before] of pairs) {
    if (now.length !== before.length) return true;
    if (now.some((c, i) => c.image !== before[i]!.image)) return true;
  }
  const oldEphemeral = new Map((old.ephemeralContainers ?? []).map((c) => [c.name, c]));
  return (spec.ephemeralContainers ?? []).some((c) => {
    const before = oldEphemeral.get(c.name);
    return before === undefined || c.image !== before.image;
  });
}
