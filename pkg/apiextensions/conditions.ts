// The conditions of a CustomResourceDefinition and the names they come with (upstream's
// apiextensions helpers): NamesAccepted, Established and Terminating, and the cleanup finalizer.
import { formatTime } from '../../api/meta/v1/primitives.js';
import type { ApiDomain } from '../../api/domain.js';
import { apiextensionsGroup } from '../../api/apiextensions/v1/register.js';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '../../api/apiextensions/v1/custom-resource-definition.js';

export type ConditionType = 'NamesAccepted' | 'Established' | 'Terminating' | 'NonStructuralSchema' | 'KubernetesAPIApprovalPolicyConformant';

/** The finalizer by which deleting a definition first deletes its objects (upstream: customresourcecleanup.apiextensions.k8s.io). */
export const cleanupFinalizer = (d: ApiDomain): string => `customresourcecleanup.${apiextensionsGroup(d)}`;

export function findCondition(crd: CustomResourceDefinition, type: ConditionType): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

/** Whether the condition is present and True. */
export function isConditionTrue(crd: CustomResourceDefinition, type: ConditionType): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/**
 * Sets a condition in place, as upstream's SetCRDCondition: the transition time moves only when
 * the status changes (or was never set).
 */
export function setCondition(crd: CustomResourceDefinition, c: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>, now = new Date()): void {
  const status = (crd.status ??= {});
  const conditions = (status.conditions ??= []);
  const existing = conditions.find((x) => x.type === c.type);
  if (!existing) {
    conditions.push({ ...c, lastTransitionTime: formatTime(now) });
    return;
  }
  if (existing.status !== c.status || !existing.lastTransitionTime) existing.lastTransitionTime = formatTime(now);
  existing.status = c.status;
  if (c.reason === undefined) delete existing.reason;
  else existing.reason = c.reason;
  if (c.message === undefined) delete existing.message;
  else existing.message = c.message;
}

/** Whether two conditions say the same, their transition times aside. */
export function sameCondition(a: CustomResourceDefinitionCondition | undefined, b: CustomResourceDefinitionCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '');
}
