// The validation rules of every kind, keyed `<group>/<Kind>` (core kinds as `/<Kind>`). The
// generic store looks a kind's rules up here and calls them with the decoded object.
import type { StoredObject } from '../storage/interface.js';
import { statefulSetValidation } from './apps/stateful-set-validation.js';
import { configMapValidation } from './core/config-map-validation.js';
import { limitRangeValidation } from './core/limit-range-validation.js';
import { namespaceValidation } from './core/namespace-validation.js';
import { resourceQuotaValidation } from './core/resource-quota-validation.js';
import { secretValidation } from './core/secret-validation.js';
import { serviceAccountValidation } from './core/service-account-validation.js';
import { networkPolicyValidation } from './networking/network-policy-validation.js';
import { podDisruptionBudgetValidation } from './policy/pod-disruption-budget-validation.js';
import { clusterRoleBindingValidation } from './rbac/cluster-role-binding-validation.js';
import { clusterRoleValidation } from './rbac/cluster-role-validation.js';
import { roleBindingValidation } from './rbac/role-binding-validation.js';
import { roleValidation } from './rbac/role-validation.js';
import { csiDriverValidation } from './storage/csi-driver-validation.js';
import type { KindValidation } from './validation/kind-validation.js';
import { nameIsDNSSubdomain } from './validation/names.js';

const registry = new Map<string, KindValidation<StoredObject>>();

/**
 * Files the rules of one kind. The store only ever passes objects decoded and schema-checked as
 * that kind, which is what makes widening the parameter type sound.
 */
function register<T>(group: string, kind: string, validation: KindValidation<T>): void {
  registry.set(`${group}/${kind}`, validation as unknown as KindValidation<StoredObject>);
}

register('', 'Namespace', namespaceValidation);
register('', 'ConfigMap', configMapValidation);
register('', 'Secret', secretValidation);
register('', 'ServiceAccount', serviceAccountValidation);
register('', 'LimitRange', limitRangeValidation);
register('', 'ResourceQuota', resourceQuotaValidation);
register('apps', 'StatefulSet', statefulSetValidation);
register('rbac.authorization.orch.io', 'ClusterRole', clusterRoleValidation);
register('rbac.authorization.orch.io', 'ClusterRoleBinding', clusterRoleBindingValidation);
register('rbac.authorization.orch.io', 'Role', roleValidation);
register('rbac.authorization.orch.io', 'RoleBinding', roleBindingValidation);
register('storage.orch.io', 'CSIDriver', csiDriverValidation);
register('networking.orch.io', 'NetworkPolicy', networkPolicyValidation);
register('policy', 'PodDisruptionBudget', podDisruptionBudgetValidation);

/** Every kind's rules, keyed `<group>/<Kind>`. */
export const kindValidations: ReadonlyMap<string, KindValidation<StoredObject>> = registry;

/** Rules for kinds nobody registered: DNS subdomain names and nothing else. */
const noRules: KindValidation<StoredObject> = {
  name: nameIsDNSSubdomain,
  validate: () => [],
  validateUpdate: () => [],
};

/** The rules of a kind; a kind without rules of its own gets name checks only. */
export function validationFor(group: string, kind: string): KindValidation<StoredObject> {
  return registry.get(`${group}/${kind}`) ?? noRules;
}
