import { type Static } from '@sinclair/typebox';
import { bool, list, opt } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { LocalObjectReference, ObjectReference } from './object-reference.js';

export const ServiceAccount = topLevel('io.orch.api.core.v1.ServiceAccount', {
  secrets: opt(list(2, ObjectReference, { listType: 'map', mapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' }, {
    description: 'Secrets in the same namespace that pods running as this account may use. Not meant for token secrets, which are requested on demand.',
  })),
  imagePullSecrets: opt(list(3, LocalObjectReference, { listType: 'atomic' }, {
    description: 'Secrets in the same namespace holding registry credentials, added to every pod that runs as this account.',
  })),
  automountServiceAccountToken: opt(bool(4, {
    'x-orch-emit': 'pointer',
    description: 'Whether pods running as this account get an API token mounted automatically; a pod may override it.',
  })),
}, { description: 'An identity for processes that run in pods, with the secrets they may use.' });
export type ServiceAccount = Static<typeof ServiceAccount>;
