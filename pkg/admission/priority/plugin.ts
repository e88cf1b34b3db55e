// The Priority plug-in (upstream plugin/pkg/admission/priority): on pod create it resolves
// spec.priorityClassName (or the global default class) to spec.priority and spec.preemptionPolicy,
// refusing unknown classes and pods that set a different value themselves; on pod update it keeps
// the stored values when the new object drops them. Validating, it lets only one PriorityClass be
// the global default.
import type { ApiDomain } from '../../../api/domain.js';
import { newBadRequest } from '../../runtime/errors.js';
import { newAdmissionForbidden } from '../errors.js';
import {
  handlesOperations, type Attributes, type MutationInterface, type ObjectLister, type PluginDeps, type ValidationInterface,
} from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'Priority';
/** The priority of pods when no class is the global default (upstream DefaultPriorityWhenNoDefaultClassExists). */
export const DefaultPriorityWhenNoDefaultClassExists = 0;

interface PriorityClassLike {
  metadata?: { name?: string };
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

interface PodLike {
  metadata?: { name?: string };
  spec?: { priorityClassName?: string; priority?: number; preemptionPolicy?: string };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The global default class; should a race have made several, the one with the lowest value. */
export function defaultPriorityClass(classes: readonly PriorityClassLike[]): PriorityClassLike | undefined {
  let best: PriorityClassLike | undefined;
  for (const pc of classes) {
    if (pc.globalDefault !== true) continue;
    if (!best || (best.value ?? 0) > (pc.value ?? 0)) best = pc;
  }
  return best;
}

export class PriorityPlugin implements MutationInterface, ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE', 'DELETE');
  private readonly schedulingGroup: string;

  constructor(domain: ApiDomain, private readonly classes: ObjectLister) {
    this.schedulingGroup = domain.group('scheduling');
  }

  async admit(attrs: Attributes): Promise<void> {
    if (attrs.subresource !== '') return;
    if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods') return;
    if (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE') await this.admitPod(attrs);
  }

  validate(attrs: Attributes): void {
    if (attrs.subresource !== '') return;
    if (attrs.resource.group !== this.schedulingGroup || attrs.resource.resource !== 'priorityclasses') return;
    if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
    const pc = attrs.object;
    if (!isObject(pc)) throw newBadRequest('resource was marked with kind PriorityClass but was unable to be converted');
    if ((pc as PriorityClassLike).globalDefault !== true) return;
    const dpc = defaultPriorityClass(this.classes.list() as PriorityClassLike[]);
    if (!dpc) return;
    const dName = dpc.metadata?.name ?? '';
    const name = (pc as PriorityClassLike).metadata?.name ?? '';
    if (attrs.operation === 'CREATE' || dName !== name) {
      throw newAdmissionForbidden(attrs, `PriorityClass ${dName} is already marked as default. Only one default can exist`);
    }
  }

  private async admitPod(attrs: Attributes): Promise<void> {
    const pod = attrs.object;
    if (!isObject(pod)) throw newBadRequest('resource was marked with kind Pod but was unable to be converted');
    const spec = ((pod as PodLike).spec ??= {});
    if (attrs.operation === 'UPDATE') {
      const old = attrs.oldObject;
      if (!isObject(old)) throw newBadRequest('resource was marked with kind Pod but was unable to be converted');
      const oldSpec = (old as PodLike).spec ?? {};
      // Set on create; validation refuses changes, so only a dropped value is restored.
      if (spec.priority === undefined && oldSpec.priority !== undefined) spec.priority = oldSpec.priority;
      if (spec.preemptionPolicy === undefined && oldSpec.preemptionPolicy !== undefined) spec.preemptionPolicy = oldSpec.preemptionPolicy;
      return;
    }
    let priority: number;
    let preemptionPolicy: string | undefined;
    if (!spec.priorityClassName) {
      const dpc = defaultPriorityClass(this.classes.list() as PriorityClassLike[]);
      if (dpc) {
        priority = dpc.value ?? 0;
        preemptionPolicy = dpc.preemptionPolicy;
        spec.priorityClassName = dpc.metadata?.name ?? '';
      } else {
        priority = DefaultPriorityWhenNoDefaultClassExists;
        preemptionPolicy = 'PreemptLowerPriority';
      }
      if (!spec.priorityClassName) delete spec.priorityClassName;
    } else {
      const name = spec.priorityClassName;
      const pc = (this.classes.get('', name) ?? await this.classes.fetch('', name)) as PriorityClassLike | undefined;
      if (!pc) throw newAdmissionForbidden(attrs, `no PriorityClass with name ${name} was found`);
      priority = pc.value ?? 0;
      preemptionPolicy = pc.preemptionPolicy;
    }
    if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
      throw newAdmissionForbidden(attrs, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`);
    }
    spec.priority = priority;
    if (preemptionPolicy !== undefined) {
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== preemptionPolicy) {
        throw newAdmissionForbidden(attrs, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`);
      }
      spec.preemptionPolicy = preemptionPolicy;
    }
  }
}

export const priorityFactory: PluginFactory = (_configuration: unknown, deps: PluginDeps) => {
  const lister = deps.lister(deps.domain.group('scheduling'), 'priorityclasses');
  if (!lister) throw new Error(`${PluginName} requires a lister`);
  return new PriorityPlugin(deps.domain, lister);
};
