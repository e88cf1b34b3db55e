// Scheduling affinity of a pod: to nodes (by node labels and fields) and to or away from other
// pods (by their labels, within a topology domain).
import { Type, type Static } from '@sinclair/typebox';
import { enumOf, field, int32, list, object, opt, str } from '../../schema.js';
import { LabelSelector } from '../../meta/v1/types.js';

const P = 'io.orch.api.core.v1';

export const NodeSelectorOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] as const;

export const NodeSelectorRequirement = object(`${P}.NodeSelectorRequirement`, {
  key: str(1),
  operator: enumOf(2, NodeSelectorOperators),
  values: opt(list(3, Type.String(), { listType: 'atomic' })),
}, { required: ['key', 'operator'] });
export type NodeSelectorRequirement = Static<typeof NodeSelectorRequirement>;

export const NodeSelectorTerm = object(`${P}.NodeSelectorTerm`, {
  matchExpressions: opt(list(1, NodeSelectorRequirement, { listType: 'atomic' })),
  matchFields: opt(list(2, NodeSelectorRequirement, { listType: 'atomic' })),
}, { 'x-orch-map-type': 'atomic' });
export type NodeSelectorTerm = Static<typeof NodeSelectorTerm>;

export const NodeSelector = object(`${P}.NodeSelector`, {
  nodeSelectorTerms: list(1, NodeSelectorTerm, { listType: 'atomic' }),
}, { required: ['nodeSelectorTerms'], 'x-orch-map-type': 'atomic' });
export type NodeSelector = Static<typeof NodeSelector>;

export const PreferredSchedulingTerm = object(`${P}.PreferredSchedulingTerm`, {
  weight: int32(1),
  preference: field(2, NodeSelectorTerm),
}, { required: ['weight', 'preference'] });
export type PreferredSchedulingTerm = Static<typeof PreferredSchedulingTerm>;

export const NodeAffinity = object(`${P}.NodeAffinity`, {
  requiredDuringSchedulingIgnoredDuringExecution: opt(field(1, NodeSelector)),
  preferredDuringSchedulingIgnoredDuringExecution: opt(list(2, PreferredSchedulingTerm, { listType: 'atomic' })),
});
export type NodeAffinity = Static<typeof NodeAffinity>;

export const PodAffinityTerm = object(`${P}.PodAffinityTerm`, {
  labelSelector: opt(field(1, LabelSelector)),
  namespaces: opt(list(2, Type.String(), { listType: 'atomic' })),
  topologyKey: str(3),
  namespaceSelector: opt(field(4, LabelSelector)),
  matchLabelKeys: opt(list(5, Type.String(), { listType: 'atomic' })),
  mismatchLabelKeys: opt(list(6, Type.String(), { listType: 'atomic' })),
}, { required: ['topologyKey'] });
export type PodAffinityTerm = Static<typeof PodAffinityTerm>;

export const WeightedPodAffinityTerm = object(`${P}.WeightedPodAffinityTerm`, {
  weight: int32(1),
  podAffinityTerm: field(2, PodAffinityTerm),
}, { required: ['weight', 'podAffinityTerm'] });
export type WeightedPodAffinityTerm = Static<typeof WeightedPodAffinityTerm>;

export const PodAffinity = object(`${P}.PodAffinity`, {
  requiredDuringSchedulingIgnoredDuringExecution: opt(list(1, PodAffinityTerm, { listType: 'atomic' })),
  preferredDuringSchedulingIgnoredDuringExecution: opt(list(2, WeightedPodAffinityTerm, { listType: 'atomic' })),
});
export type PodAffinity = Static<typeof PodAffinity>;

export const PodAntiAffinity = object(`${P}.PodAntiAffinity`, {
  requiredDuringSchedulingIgnoredDuringExecution: opt(list(1, PodAffinityTerm, { listType: 'atomic' })),
  preferredDuringSchedulingIgnoredDuringExecution: opt(list(2, WeightedPodAffinityTerm, { listType: 'atomic' })),
});
export type PodAntiAffinity = Static<typeof PodAntiAffinity>;

export const Affinity = object(`${P}.Affinity`, {
  nodeAffinity: opt(field(1, NodeAffinity)),
  podAffinity: opt(field(2, PodAffinity)),
  podAntiAffinity: opt(field(3, PodAntiAffinity)),
});
export type Affinity = Static<typeof Affinity>;
