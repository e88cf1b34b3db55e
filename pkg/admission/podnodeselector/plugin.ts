// PodNodeSelector (upstream plugin/pkg/admission/podnodeselector, 1.30): a new pod's node selector
// is merged with its namespace's, the annotation `scheduler.alpha.<keyDomain>/node-selector` (even
// empty) or else the configuration's clusterDefaultNodeSelector; a pod selecting another value for
// one of those keys is refused, and so is a pod selecting labels outside its namespace's whitelist
// in the configuration. Mutating and validating: the validating phase checks the final object.
import { newForbidden } from '../../runtime/errors.js';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type Attributes, type MutationInterface, type ObjectLister, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import { annotationsOf, namespaceOf } from '../namespaces.js';
import type { PluginFactory } from '../registry.js';
import { loadConfiguration, type PodNodeSelectorConfig } from './config.js';
import { conflicts, inWhitelist, selectorToLabelsMap, type LabelsMap } from './labels-map.js';

export const PluginName = 'PodNodeSelector';

type PodLike = { metadata?: { name?: string }; spec?: { nodeSelector?: LabelsMap } };

const podsGR = { group: '', resource: 'pods' };

export class PodNodeSelector implements MutationInterface, ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE');
  /** The namespace annotation holding its node selector. */
  readonly annotation: string;

  constructor(private readonly namespaces: ObjectLister, private readonly config: PodNodeSelectorConfig, deps: PluginDeps) {
    this.annotation = deps.domain.key('node-selector', 'scheduler.alpha');
  }

  async admit(attrs: Attributes): Promise<void> {
    const pod = podOf(attrs);
    if (!pod) return;
    const selector = await this.namespaceSelector(attrs);
    this.refuseConflict(pod, selector);
    const merged = { ...selector, ...pod.spec?.nodeSelector };
    if (Object.keys(merged).length > 0) (pod.spec ??= {}).nodeSelector = merged;
    await this.validate(attrs);
  }

  async validate(attrs: Attributes): Promise<void> {
    const pod = podOf(attrs);
    if (!pod) return;
    this.refuseConflict(pod, await this.namespaceSelector(attrs));
    const whitelist = this.config.whitelists.get(attrs.namespace) ?? {};
    if (!inWhitelist(pod.spec?.nodeSelector ?? {}, whitelist)) {
      throw newForbidden(podsGR, pod.metadata?.name ?? '', 'pod node label selector labels conflict with its namespace whitelist');
    }
  }

  private refuseConflict(pod: PodLike, selector: LabelsMap): void {
    if (conflicts(selector, pod.spec?.nodeSelector ?? {})) {
      // Upstream names the pod's own name, empty on a create by generateName.
      throw newForbidden(podsGR, pod.metadata?.name ?? '', 'pod node label selector conflicts with its namespace node label selector');
    }
  }

  /** The namespace's node selector: its annotation when present, else the cluster default. */
  private async namespaceSelector(attrs: Attributes): Promise<LabelsMap> {
    const annotations = annotationsOf(await namespaceOf(this.namespaces, attrs.namespace));
    if (!Object.hasOwn(annotations, this.annotation)) return this.config.clusterDefault;
    try {
      return selectorToLabelsMap(annotations[this.annotation] ?? '');
    } catch (e) {
      // Upstream answers 500 with the parse error; a namespace's bad annotation is no server fault.
      throw newAdmissionForbidden(attrs, `namespace ${attrs.namespace} has an invalid ${this.annotation} annotation: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** The pod of a create of pods proper, or undefined when the plug-in leaves the request alone. */
function podOf(attrs: Attributes): PodLike | undefined {
  if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods' || attrs.subresource !== '') return undefined;
  const obj = attrs.object;
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return undefined;
  return obj as PodLike;
}

/** Makes the plug-in from its configuration (see config.ts) over the server's namespace cache. */
export const podNodeSelectorFactory: PluginFactory = (configuration, deps) => {
  const config = loadConfiguration(configuration);
  const namespaces = deps.lister('', 'namespaces');
  if (!namespaces) throw new Error('missing namespaceLister');
  return new PodNodeSelector(namespaces, config, deps);
};
