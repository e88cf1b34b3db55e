import { type Static } from '@sinclair/typebox';
import { field, list, object, opt, str, stringList } from '../../schema.js';
import { resourceList } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.core.v1';

/** Scopes a quota may be restricted to. */
export const ResourceQuotaScopes = [
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'CrossNamespacePodAffinity',
  'VolumeAttributesClass',
] as const;

export const ScopeSelectorOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

export const ScopedResourceSelectorRequirement = object(`${P}.ScopedResourceSelectorRequirement`, {
  scopeName: str(1, { description: 'The scope the requirement applies to, such as PriorityClass or BestEffort.' }),
  operator: str(2, { description: 'How the scope relates to the values: In, NotIn, Exists or DoesNotExist.' }),
  values: opt(stringList(3, { listType: 'atomic' }, {
    description: 'Values for In and NotIn, which need at least one; must be empty for Exists and DoesNotExist.',
  })),
}, { required: ['scopeName', 'operator'], description: 'One requirement on a quota scope: a scope, an operator and, for In and NotIn, values.' });
export type ScopedResourceSelectorRequirement = Static<typeof ScopedResourceSelectorRequirement>;

export const ScopeSelector = object(`${P}.ScopeSelector`, {
  matchExpressions: opt(list(1, ScopedResourceSelectorRequirement, { listType: 'atomic' }, { description: 'Requirements that must all hold.' })),
}, { 'x-orch-map-type': 'atomic', description: 'Selects the objects a quota tracks by their scopes; all requirements are ANDed.' });

export const ResourceQuotaSpec = object(`${P}.ResourceQuotaSpec`, {
  hard: opt(resourceList(1, { description: 'The most of each named resource the namespace may use, such as pods, requests.cpu or limits.memory.' })),
  scopes: opt(stringList(2, { listType: 'atomic' }, {
    description: 'Scopes an object must match for the quota to track it, such as BestEffort or NotTerminating; absent tracks all objects.',
  })),
  scopeSelector: opt(field(3, ScopeSelector, { description: 'Scope requirements an object must match to be tracked, as a selector.' })),
}, { description: 'The limits a ResourceQuota sets and which objects they count.' });
export type ResourceQuotaSpec = Static<typeof ResourceQuotaSpec>;

export const ResourceQuotaStatus = object(`${P}.ResourceQuotaStatus`, {
  hard: opt(resourceList(1, { description: 'The limits being enforced.' })),
  used: opt(resourceList(2, { description: 'How much of each limited resource the namespace uses now.' })),
}, { description: 'What a ResourceQuota enforces and how much is used.' });

export const ResourceQuota = topLevel(`${P}.ResourceQuota`, {
  spec: opt(field(2, ResourceQuotaSpec, { 'x-orch-emit': 'always', description: 'The limits to enforce.' })),
  status: opt(field(3, ResourceQuotaStatus, { 'x-orch-emit': 'always', description: 'The limits enforced and the current usage, written by the quota controller.' })),
}, { description: 'Limits on the total resources and object counts a namespace may use.' });
export type ResourceQuota = Static<typeof ResourceQuota>;
