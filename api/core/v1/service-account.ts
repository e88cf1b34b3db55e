import { type Static } from '@sinclair/typebox';
import { bool, list, opt } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { LocalObjectReference, ObjectReference } from './object-reference.js';

export const ServiceAccount = topLevel('io.orch.api.core.v1.ServiceAccount', {
  secrets: opt(list(2, ObjectReference, { listType: 'map', mapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' })),
  imagePullSecrets: opt(list(3, LocalObjectReference, { listType: 'atomic' })),
  automountServiceAccountToken: opt(bool(4)),
});
export type ServiceAccount = Static<typeof ServiceAccount>;
