// Scheduling affinity of a pod: to nodes (by node labels and fields) and to or away from other
// pods (by their labels, within a topology domain).
import { Type, type Static } from '@sinclair/typebox';
import { enumOf, field, int32, list, object, opt, str } from '../../schema.js';
import { LabelSelector } from '../../meta/v1/types.js';

const P = 'io.orch.api.core.v1';

export const NodeSelectorOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] as const;

export const NodeSelectorRequirement = object(`${P}.NodeSelectorRequirement`, {
  key: str(1, { description: 'Node label key, or node field name in matchFields, the condition is about.' }),
  operator: enumOf(2, NodeSelectorOperators, {
    description: 'How the value is compared: In, NotIn, Exists, DoesNotExist, Gt or Lt.',
  }),
  values: opt(list(3, Type.String(), { listType: 'atomic' }, {
    description: 'Values for the operator: at least one for In and NotIn, none for Exists and DoesNotExist, a single ' +
      'integer for Gt and Lt.',
  })),
}, { required: ['key', 'operator'], description: 'A condition on one node label or field.' });
export type NodeSelectorRequirement = Static<typeof NodeSelectorRequirement>;

export const NodeSelectorTerm = object(`${P}.NodeSelectorTerm`, {
  matchExpressions: opt(list(1, NodeSelectorRequirement, { listType: 'atomic' }, { description: 'Conditions on node labels.' })),
  matchFields: opt(list(2, NodeSelectorRequirement, { listType: 'atomic' }, {
    description: 'Conditions on node fields (only metadata.name is supported).',
  })),
}, {
  'x-orch-map-type': 'atomic',
  description: 'Conditions on a node that must all hold. A term without conditions matches no node.',
});
export type NodeSelectorTerm = Static<typeof NodeSelectorTerm>;

export const NodeSelector = object(`${P}.NodeSelector`, {
  nodeSelectorTerms: list(1, NodeSelectorTerm, { listType: 'atomic' }, { description: 'Terms of which at least one must match.' }),
}, { required: ['nodeSelectorTerms'], 'x-orch-map-type': 'atomic', description: 'Selects nodes: a node matches when any term matches.' });
export type NodeSelector = Static<typeof NodeSelector>;

export const PreferredSchedulingTerm = object(`${P}.PreferredSchedulingTerm`, {
  weight: int32(1, { description: 'Score added to nodes matching the term, from 1 to 100.' }),
  preference: field(2, NodeSelectorTerm, { description: 'The node conditions to match.' }),
}, { required: ['weight', 'preference'], description: 'A weighted node preference.' });
export type PreferredSchedulingTerm = Static<typeof PreferredSchedulingTerm>;

export const NodeAffinity = object(`${P}.NodeAffinity`, {
  requiredDuringSchedulingIgnoredDuringExecution: opt(field(1, NodeSelector, {
    description: 'Nodes the pod may be placed on. A node that stops matching later does not evict the pod.',
  })),
  preferredDuringSchedulingIgnoredDuringExecution: opt(list(2, PreferredSchedulingTerm, { listType: 'atomic' }, {
    description: 'Preferences: the scheduler favours nodes with the highest sum of weights of matching terms.',
  })),
}, { description: 'Constraints and preferences of a pod about the nodes it runs on.' });
export type NodeAffinity = Static<typeof NodeAffinity>;

export const PodAffinityTerm = object(`${P}.PodAffinityTerm`, {
  labelSelector: opt(field(1, LabelSelector, { description: 'Pods the term is about. Unset matches no pod.' })),
  namespaces: opt(list(2, Type.String(), { listType: 'atomic' }, {
    description: 'Namespaces whose pods are considered, in addition to those of namespaceSelector. Both empty means ' +
      'the pod\'s own namespace.',
  })),
  topologyKey: str(3, {
    description: 'Node label that defines the domain: the term holds on nodes whose value of this label equals that of ' +
      'a node running a matching pod. Must not be empty.',
  }),
  namespaceSelector: opt(field(4, LabelSelector, {
    description: 'Namespaces whose pods are considered, in addition to those listed in namespaces. An empty selector ' +
      'matches every namespace.',
  })),
  matchLabelKeys: opt(list(5, Type.String(), { listType: 'atomic' }, {
    description: 'Label keys of the incoming pod; for each, key in (its value) is added to labelSelector.',
  })),
  mismatchLabelKeys: opt(list(6, Type.String(), { listType: 'atomic' }, {
    description: 'Label keys of the incoming pod; for each, key notin (its value) is added to labelSelector.',
  })),
}, { required: ['topologyKey'], description: 'A group of pods and the topology domain in which the pod must (not) run with them.' });
export type PodAffinityTerm = Static<typeof PodAffinityTerm>;

export const WeightedPodAffinityTerm = object(`${P}.WeightedPodAffinityTerm`, {
  weight: int32(1, { description: 'Score for nodes where the term holds, from 1 to 100.' }),
  podAffinityTerm: field(2, PodAffinityTerm, { description: 'The term evaluated.' }),
}, { required: ['weight', 'podAffinityTerm'], description: 'A pod affinity term with a weight for scoring nodes.' });
export type WeightedPodAffinityTerm = Static<typeof WeightedPodAffinityTerm>;

export const PodAffinity = object(`${P}.PodAffinity`, {
  requiredDuringSchedulingIgnoredDuringExecution: opt(list(1, PodAffinityTerm, { listType: 'atomic' }, {
    description: 'Terms that must all hold when the pod is scheduled; they are not checked again later.',
  })),
  preferredDuringSchedulingIgnoredDuringExecution: opt(list(2, WeightedPodAffinityTerm, { listType: 'atomic' }, {
    description: 'Weighted terms the scheduler tries to satisfy.',
  })),
}, { description: 'Rules to place a pod in the same domain as certain other pods.' });
export type PodAffinity = Static<typeof PodAffinity>;

export const PodAntiAffinity = object(`${P}.PodAntiAffinity`, {
  requiredDuringSchedulingIgnoredDuringExecution: opt(list(1, PodAffinityTerm, { listType: 'atomic' }, {
    description: 'Terms of which none may hold when the pod is scheduled; they are not checked again later.',
  })),
  preferredDuringSchedulingIgnoredDuringExecution: opt(list(2, WeightedPodAffinityTerm, { listType: 'atomic' }, {
    description: 'Weighted terms the scheduler tries to avoid.',
  })),
}, { description: 'Rules to keep a pod out of the domains of certain other pods.' });
export type PodAntiAffinity = Static<typeof PodAntiAffinity>;

export const Affinity = object(`${P}.Affinity`, {
  nodeAffinity: opt(field(1, NodeAffinity, { description: 'Rules about the nodes the pod runs on.' })),
  podAffinity: opt(field(2, PodAffinity, { description: 'Rules to run the pod near certain other pods.' })),
  podAntiAffinity: opt(field(3, PodAntiAffinity, { description: 'Rules to run the pod away from certain other pods.' })),
}, { description: 'Scheduling constraints of a pod.' });
export type Affinity = Static<typeof Affinity>;
