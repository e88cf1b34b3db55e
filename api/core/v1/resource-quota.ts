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
  scopeName: str(1),
  operator: str(2),
  values: opt(stringList(3, { listType: 'atomic' })),
}, { required: ['scopeName', 'operator'] });
export type ScopedResourceSelectorRequirement = Static<typeof ScopedResourceSelectorRequirement>;

export const ScopeSelector = object(`${P}.ScopeSelector`, {
  matchExpressions: opt(list(1, ScopedResourceSelectorRequirement, { listType: 'atomic' })),
}, { 'x-orch-map-type': 'atomic' });

export const ResourceQuotaSpec = object(`${P}.ResourceQuotaSpec`, {
  hard: opt(resourceList(1)),
  scopes: opt(stringList(2, { listType: 'atomic' })),
  scopeSelector: opt(field(3, ScopeSelector)),
});
export type ResourceQuotaSpec = Static<typeof ResourceQuotaSpec>;

export const ResourceQuotaStatus = object(`${P}.ResourceQuotaStatus`, {
  hard: opt(resourceList(1)),
  used: opt(resourceList(2)),
});

export const ResourceQuota = topLevel(`${P}.ResourceQuota`, {
  spec: opt(field(2, ResourceQuotaSpec)),
  status: opt(field(3, ResourceQuotaStatus)),
});
export type ResourceQuota = Static<typeof ResourceQuota>;
