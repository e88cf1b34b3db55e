import { type Static } from '@sinclair/typebox';
import { object, opt, stringList } from '../../schema.js';

export const PolicyRule = object('io.orch.api.rbac.v1.PolicyRule', {
  verbs: stringList(1, { listType: 'atomic' }, { description: 'Verbs allowed, such as get, list, watch, create, update, patch or delete; * allows all.' }),
  apiGroups: opt(stringList(2, { listType: 'atomic' }, {
    description: 'API groups of the resources; "" is the core group and * any group. A rule with several groups allows each.',
  })),
  resources: opt(stringList(3, { listType: 'atomic' }, {
    description: 'Resources the rule covers, such as pods or pods/log for a sub-resource; * covers all.',
  })),
  resourceNames: opt(stringList(4, { listType: 'atomic' }, {
    description: 'Names of the objects the rule is limited to; absent or empty allows any name.',
  })),
  nonResourceURLs: opt(stringList(5, { listType: 'atomic' }, {
    description: 'URL paths outside the resource API, such as /healthz, a trailing * matching any suffix. Only in ClusterRoles granted by ClusterRoleBindings.',
  })),
}, { required: ['verbs'], description: 'One permission: verbs allowed on resources (or non-resource URLs).' });
export type PolicyRule = Static<typeof PolicyRule>;
