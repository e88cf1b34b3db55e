// TaintNodesByCondition (upstream plugin/pkg/admission/nodetaint): a new node starts with the
// not-ready NoSchedule taint, so nothing is scheduled onto it before its controller has seen it
// ready (the node lifecycle controller removes the taint).
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type Attributes, type MutationInterface, type PluginDeps } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'TaintNodesByCondition';

interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export class TaintNodesByCondition implements MutationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE');
  private readonly notReadyKey: string;

  constructor(deps: PluginDeps) {
    this.notReadyKey = deps.domain.key('not-ready', 'node');
  }

  admit(attrs: Attributes): void {
    if (attrs.resource.group !== '' || attrs.resource.resource !== 'nodes' || attrs.subresource !== '') return;
    const node = attrs.object;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      throw newAdmissionForbidden(attrs, `unexpected type ${node === null ? 'null' : typeof node}`);
    }
    const spec = (node['spec'] ??= {}) as { taints?: Taint[] };
    const taints = spec.taints ?? [];
    // A taint matches another of the same key and effect, whatever its value (upstream's MatchTaint).
    if (taints.some((t) => t.key === this.notReadyKey && t.effect === 'NoSchedule')) return;
    spec.taints = [...taints, { key: this.notReadyKey, effect: 'NoSchedule' }];
  }
}

export const taintNodesByConditionFactory: PluginFactory = (_configuration, deps) => new TaintNodesByCondition(deps);
