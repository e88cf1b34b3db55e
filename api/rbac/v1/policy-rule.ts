import { type Static } from '@sinclair/typebox';
import { object, opt, stringList } from '../../schema.js';

export const PolicyRule = object('io.orch.api.rbac.v1.PolicyRule', {
  verbs: stringList(1, { listType: 'atomic' }),
  apiGroups: opt(stringList(2, { listType: 'atomic' })),
  resources: opt(stringList(3, { listType: 'atomic' })),
  resourceNames: opt(stringList(4, { listType: 'atomic' })),
  nonResourceURLs: opt(stringList(5, { listType: 'atomic' })),
}, { required: ['verbs'] });
export type PolicyRule = Static<typeof PolicyRule>;
