// LimitPodHardAntiAffinityTopology (upstream plugin/pkg/admission/antiaffinity, 1.30): a pod's
// required (hard) anti-affinity may only spread over nodes (topologyKey `<keyDomain>/hostname`):
// a hard anti-affinity over zones or regions can leave most of a cluster unusable to other pods.
// Preferred (soft) terms are not limited.
import { newBadRequest } from '../../runtime/errors.js';
import { newForbiddenNamed } from '../errors.js';
import { handlesOperations, type Attributes, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'LimitPodHardAntiAffinityTopology';

interface PodLike {
  metadata?: { name?: string };
  spec?: { affinity?: { podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { topologyKey?: string }[] } | null } | null };
}

export class LimitPodHardAntiAffinityTopology implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');

  constructor(private readonly hostnameLabel: string) {}

  validate(attrs: Attributes): void {
    if (attrs.subresource !== '' || attrs.resource.group !== '' || attrs.resource.resource !== 'pods') return;
    const obj = attrs.object;
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw newBadRequest('Resource was marked with kind Pod but was unable to be converted');
    const pod = obj as PodLike;
    for (const term of pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
      const key = term.topologyKey ?? '';
      if (key === this.hostnameLabel) continue;
      // Upstream refuses with apierrors.NewForbidden: the object's own name, none on a generateName create.
      throw newForbiddenNamed({ group: attrs.resource.group, resource: attrs.resource.resource }, pod.metadata?.name ?? '',
        `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${key} but only key ${this.hostnameLabel} is allowed`);
    }
  }
}

/** Makes the plug-in for the platform's hostname label; it takes no configuration. */
export const limitPodHardAntiAffinityTopologyFactory: PluginFactory = (_configuration, deps: PluginDeps) =>
  new LimitPodHardAntiAffinityTopology(deps.domain.key('hostname'));
