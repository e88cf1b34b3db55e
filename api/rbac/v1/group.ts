/** The RBAC API group. */
export const RbacGroupName = 'rbac.authorization.orch.io';
