import { type Static } from '@sinclair/typebox';
import { list, opt } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { PolicyRule } from './policy-rule.js';

export const Role = topLevel('io.orch.api.rbac.v1.Role', {
  rules: opt(list(2, PolicyRule, { listType: 'atomic' }, { 'x-orch-emit': 'always', description: 'The permissions the role grants.' })),
}, { description: 'A set of permissions within one namespace, granted by a RoleBinding.' });
export type Role = Static<typeof Role>;
