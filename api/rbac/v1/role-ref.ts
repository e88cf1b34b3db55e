import { type Static } from '@sinclair/typebox';
import { object, str } from '../../schema.js';

export const RoleRef = object('io.orch.api.rbac.v1.RoleRef', {
  apiGroup: str(1),
  kind: str(2),
  name: str(3),
}, { required: ['apiGroup', 'kind', 'name'], 'x-orch-map-type': 'atomic' });
export type RoleRef = Static<typeof RoleRef>;
