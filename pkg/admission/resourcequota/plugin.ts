// The ResourceQuota plug-in (validating): a write that changes what a namespace uses must fit every
// quota tracking it, and the quotas' new status.used is written in the same etcd transaction as
// the object, only if no other write charged them in between. A lost race re-runs the check with
// the quotas read live, so concurrent creates can never take a quota past its hard limits.
import type { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type AdmissionObject, type Attributes, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import { checkQuota } from '../quota/check.js';
import { quotaEvaluatorFor } from '../quota/evaluators.js';

const quotaName = (q: ResourceQuota) => q.metadata?.name ?? '';

export function newResourceQuotaPlugin(_configuration: unknown, deps: PluginDeps): ValidationInterface {
  const quotas = deps.lister('', 'resourcequotas');
  return {
    name: 'ResourceQuota',
    handles: handlesOperations('CREATE', 'UPDATE'),
    async validate(attrs: Attributes): Promise<void> {
      const { operation, namespace } = attrs;
      // Sub-resources (status, scale, ...) never change what is charged; cluster-scoped objects have no quota.
      if (!quotas || attrs.subresource !== '' || !namespace || (operation !== 'CREATE' && operation !== 'UPDATE')) return;
      let current = quotas.list(namespace) as unknown as ResourceQuota[];
      if (current.length === 0) return;
      if (attrs.retrying) {
        const fresh = await Promise.all(current.map((q) => quotas.fetch(namespace, quotaName(q))));
        current = fresh.filter((q): q is AdmissionObject => q !== undefined) as unknown as ResourceQuota[];
      }
      const evaluator = quotaEvaluatorFor(attrs.resource.resource, attrs.resource.group, deps.domain);
      const decision = checkQuota(current, evaluator, { operation, object: attrs.object, oldObject: attrs.oldObject, now: new Date() });
      if (!decision.allowed) throw newAdmissionForbidden(attrs, decision.message);
      for (const [name, used] of decision.used) {
        const q = current.find((x) => quotaName(x) === name)!;
        attrs.writeAlongside({
          group: '', resource: 'resourcequotas', namespace, name,
          object: { ...q, status: { ...q.status, used } } as unknown as AdmissionObject,
          resourceVersion: q.metadata?.resourceVersion ?? '',
        });
      }
    },
  };
}
