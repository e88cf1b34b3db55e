// The container a request about one container of a pod (exec, attach, log) addresses, as upstream's
// validateContainer picks it: the one named, which must be one of the pod's (init, regular or
// ephemeral), or else the pod's only regular container.
import type { Pod } from '../../../api/core/v1/pod.js';
import { newBadRequest } from '../../runtime/errors.js';

/** Every container name of the pod in upstream's VisitContainers order: init, regular, ephemeral. */
function containerNames(pod: Pod): string[] {
  const spec = pod.spec;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? []), ...(spec?.ephemeralContainers ?? [])].map((c) => c.name);
}

/** The container `name` names (it must exist), or the pod's only container; 400 otherwise, in upstream's words. */
export function podContainer(pod: Pod, name: string | undefined): string {
  const podName = pod.metadata?.name ?? '';
  if (name) {
    if (!containerNames(pod).includes(name)) throw newBadRequest(`container ${name} is not valid for pod ${podName}`);
    return name;
  }
  const containers = pod.spec?.containers ?? [];
  if (containers.length === 1) return containers[0]!.name;
  if (containers.length === 0) throw newBadRequest(`a container name must be specified for pod ${podName}`);
  throw newBadRequest(`a container name must be specified for pod ${podName}, choose one of: [${containerNames(pod).join(' ')}]`);
}
