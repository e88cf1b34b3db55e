// ExtendedResourceToleration (upstream plugin/pkg/admission/extendedresourcetoleration, 1.30): a
// pod that requests an extended resource (`example.com/gpu`) tolerates the taint nodes with that
// resource carry (key = the resource, effect NoSchedule), so tainting the special nodes keeps
// every other pod off them without each user writing the toleration. Runs on creates and updates.
import { newBadRequest } from '../../runtime/errors.js';
import { isExtendedResourceName } from '../../quota/pod-evaluator.js';
import { handlesOperations, type AdmissionObject, type Attributes, type MutationInterface, type PluginDeps } from '../interfaces.js';
import type { Toleration } from '../podutil/tolerations.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'ExtendedResourceToleration';

interface PodLike {
  spec?: {
    containers?: { resources?: { requests?: Record<string, unknown> } }[];
    initContainers?: { resources?: { requests?: Record<string, unknown> } }[];
    tolerations?: Toleration[] | null;
  };
}

/** Upstream's Toleration.MatchToleration: the same key, operator, value and effect (tolerationSeconds aside). */
const matches = (a: Toleration, b: Toleration): boolean =>
  (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '') && (a.effect ?? '') === (b.effect ?? '');

const same = (a: Toleration, b: Toleration): boolean => matches(a, b) && (a.tolerationSeconds ?? null) === (b.tolerationSeconds ?? null);

/** Upstream's AddOrUpdateTolerationInPod: a matching toleration is replaced by `t`, else `t` is appended. */
function addOrUpdate(tolerations: readonly Toleration[], t: Toleration): Toleration[] {
  if (tolerations.some((x) => same(x, t))) return [...tolerations];
  let replaced = false;
  const out = tolerations.map((x) => {
    if (!matches(x, t)) return x;
    replaced = true;
    return t;
  });
  if (!replaced) out.push(t);
  return out;
}

export class ExtendedResourceToleration implements MutationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');

  constructor(private readonly keyDomain: string) {}

  admit(attrs: Attributes): void {
    if (attrs.subresource !== '' || attrs.resource.group !== '' || attrs.resource.resource !== 'pods') return;
    const obj: AdmissionObject | undefined = attrs.object;
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw newBadRequest('expected *core.Pod but got <nil>');
    const pod = obj as PodLike;
    const names = new Set<string>();
    for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
      for (const name of Object.keys(c.resources?.requests ?? {})) if (isExtendedResourceName(name, this.keyDomain)) names.add(name);
    }
    if (names.size === 0) return;
    let tolerations = pod.spec?.tolerations ?? [];
    // Sorted, as upstream's set.List(), so the result does not depend on the order of requests.
    for (const key of [...names].sort()) tolerations = addOrUpdate(tolerations, { key, operator: 'Exists', effect: 'NoSchedule' });
    pod.spec!.tolerations = tolerations;
  }
}

/** Makes the plug-in for the platform's domain (`<keyDomain>/...` names are native, not extended); it takes no configuration. */
export const extendedResourceTolerationFactory: PluginFactory = (_configuration, deps: PluginDeps) => new ExtendedResourceToleration(deps.domain.keyDomain);
