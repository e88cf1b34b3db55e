// PodTolerationRestriction (upstream plugin/pkg/admission/podtolerationrestriction, 1.30): a
// namespace's annotations `scheduler.alpha.<keyDomain>/defaultTolerations` and
// `.../tolerationsWhitelist` (JSON lists of tolerations), else the cluster's configuration, give
// the tolerations merged into its new pods and those its pods may have. Pods that are not
// BestEffort also get the memory-pressure NoSchedule toleration. Both a mutating and a validating
// plug-in: the whitelist is checked again on the final object.
import type { PodSpec } from '../../../api/core/v1/pod-template.js';
import type { Toleration } from '../../../api/core/v1/toleration.js';
import { newAdmissionForbidden } from '../errors.js';
import { annotationsOf, namespaceOf } from '../namespaces.js';
import {
  handlesOperations, type Attributes, type MutationInterface, type ObjectLister, type PluginDeps, type ValidationInterface,
} from '../interfaces.js';
import { isBestEffort } from '../../quota/pod-evaluator.js';
import type { PluginFactory } from '../registry.js';
import { loadConfiguration, type PodTolerationRestrictionConfig } from './config.js';
import { decodeTolerations, mergeTolerations, verifyAgainstWhitelist } from '../podutil/tolerations.js';

export const PluginName = 'PodTolerationRestriction';

type PodLike = { spec?: { tolerations?: Toleration[] }; status?: { qosClass?: string } };

export class PodTolerationRestriction implements MutationInterface, ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');
  readonly defaultsAnnotation: string;
  readonly whitelistAnnotation: string;
  private readonly memoryPressure: Toleration;

  constructor(private readonly namespaces: ObjectLister, deps: PluginDeps, private readonly config: PodTolerationRestrictionConfig) {
    this.defaultsAnnotation = deps.domain.key('defaultTolerations', 'scheduler.alpha');
    this.whitelistAnnotation = deps.domain.key('tolerationsWhitelist', 'scheduler.alpha');
    this.memoryPressure = { key: deps.domain.key('memory-pressure', 'node'), operator: 'Exists', effect: 'NoSchedule' };
  }

  async admit(attrs: Attributes): Promise<void> {
    const pod = podOf(attrs);
    if (!pod) return;
    let extra: Toleration[] = [];
    if (attrs.operation === 'CREATE') {
      // A namespace without the annotation falls back to the cluster's defaults; one with an
      // empty annotation has none.
      extra = [...(await this.namespaceTolerations(attrs, this.defaultsAnnotation) ?? this.config.default)];
    }
    if (qosClass(pod) !== 'BestEffort') extra.push({ ...this.memoryPressure });
    if (extra.length > 0) {
      pod.spec ??= {};
      pod.spec.tolerations = mergeTolerations(pod.spec.tolerations ?? [], extra);
    }
    await this.validate(attrs);
  }

  async validate(attrs: Attributes): Promise<void> {
    const pod = podOf(attrs);
    const tolerations = pod?.spec?.tolerations ?? [];
    if (tolerations.length === 0) return;
    const whitelist = await this.namespaceTolerations(attrs, this.whitelistAnnotation) ?? this.config.whitelist;
    if (whitelist.length > 0 && !verifyAgainstWhitelist(tolerations, whitelist)) {
      throw newAdmissionForbidden(attrs, 'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist');
    }
  }

  /** The tolerations of a namespace annotation, or undefined when the namespace does not set it. */
  private async namespaceTolerations(attrs: Attributes, key: string): Promise<Toleration[] | undefined> {
    const annotations = annotationsOf(await namespaceOf(this.namespaces, attrs.namespace));
    if (!Object.hasOwn(annotations, key)) return undefined;
    const text = annotations[key] ?? '';
    if (text === '') return [];
    try {
      return decodeTolerations(JSON.parse(text));
    } catch (e) {
      throw newAdmissionForbidden(attrs, `namespace ${attrs.namespace} has an invalid ${key} annotation: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** The pod of a request on pods proper, or undefined when the plug-in leaves the request alone. */
function podOf(attrs: Attributes): PodLike | undefined {
  if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods' || attrs.subresource !== '') return undefined;
  const obj = attrs.object;
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return undefined;
  return obj as PodLike;
}

/** The pod's QoS class: the one its status states, else computed (upstream's GetPodQOS). */
function qosClass(pod: PodLike): string {
  const stated = pod.status?.qosClass;
  if (stated) return stated;
  try {
    return isBestEffort(pod.spec as PodSpec | undefined) ? 'BestEffort' : 'NotBestEffort';
  } catch {
    // A malformed quantity: validation refuses the pod with its own message, so add nothing here.
    return 'BestEffort';
  }
}

/** Makes the plug-in from its configuration (see config.ts) over the server's namespace cache. */
export const podTolerationRestrictionFactory: PluginFactory = (configuration, deps) => {
  const config = loadConfiguration(configuration, deps.domain);
  const namespaces = deps.lister('', 'namespaces');
  if (!namespaces) throw new Error('missing namespaceLister');
  return new PodTolerationRestriction(namespaces, deps, config);
};
