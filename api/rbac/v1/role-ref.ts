import { type Static } from '@sinclair/typebox';
import { object, str } from '../../schema.js';

export const RoleRef = object('io.orch.api.rbac.v1.RoleRef', {
  apiGroup: str(1, { description: 'API group of the role: the RBAC group.' }),
  kind: str(2, { description: 'Role or ClusterRole.' }),
  name: str(3, { description: 'Name of the role.' }),
}, { required: ['apiGroup', 'kind', 'name'], 'x-orch-map-type': 'atomic', description: 'The role a binding grants.' });
export type RoleRef = Static<typeof RoleRef>;
