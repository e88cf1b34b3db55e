// The ResourceQuota plug-in (validating): a write that changes what a namespace uses must fit every
// quota tracking it, and the quotas' new status.used is written in the same etcd transaction as
// the object, only if no other write charged them in between. A lost race re-runs the check with
// the quotas read live, so concurrent creates can never take a quota past its hard limits.
import type { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import type { StoredObject } from '../../storage/interface.js';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type AdmissionObject, type Attributes, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import { checkQuota } from '../../quota/check.js';
import { quotaEvaluatorFor } from '../../quota/evaluators.js';
import { quotaMatches } from '../../quota/scopes.js';
import { hasLimitedResources, limitedNames, parseResourceQuotaConfiguration } from './config.js';

const quotaName = (q: ResourceQuota) => q.metadata?.name ?? '';

export function resourceQuotaFactory(configuration: unknown, deps: PluginDeps): ValidationInterface {
  const config = parseResourceQuotaConfiguration(configuration);
  const quotas = deps.lister('', 'resourcequotas');
  return {
    name: 'ResourceQuota',
    handles: handlesOperations('CREATE', 'UPDATE'),
    async validate(attrs: Attributes): Promise<void> {
      const { operation, namespace } = attrs;
      // Sub-resources (status, scale, ...) never change what is charged; cluster-scoped objects have no quota.
      if (!quotas || attrs.subresource !== '' || !namespace || (operation !== 'CREATE' && operation !== 'UPDATE')) return;
      const { group, resource } = attrs.resource;
      const evaluator = quotaEvaluatorFor(resource, group, deps.domain);
      if (!evaluator.handles(operation)) return;
      let current = quotas.list(namespace) as unknown as ResourceQuota[];
      // No quota in the namespace and none required by the configuration: nothing to charge or refuse,
      // so the write's usage is not even computed (the common case, on every create).
      if (current.length === 0 && !hasLimitedResources(config, group, resource)) return;
      const now = new Date();
      const limited = limitedNames(config, group, resource, evaluator.usage(attrs.object, now).keys());
      if (current.length === 0 && limited.length === 0) return;
      if (attrs.retrying) {
        const fresh = await Promise.all(current.map((q) => quotas.fetch(namespace, quotaName(q))));
        current = fresh.filter((q): q is AdmissionObject => q !== undefined) as unknown as ResourceQuota[];
      }
      if (limited.length > 0) {
        // Resources the configuration limits by default need a quota that tracks them.
        const covered = new Set(current.filter((q) => quotaMatches(q, evaluator, attrs.object))
          .flatMap((q) => evaluator.matchingResources(Object.keys(q.status?.hard ?? {}))));
        const uncovered = limited.filter((n) => !covered.has(n));
        if (uncovered.length > 0) throw newAdmissionForbidden(attrs, `insufficient quota to consume: ${uncovered.join(',')}`);
      }
      const decision = checkQuota(current, evaluator, { operation, object: attrs.object, oldObject: attrs.oldObject, now });
      if (!decision.allowed) throw newAdmissionForbidden(attrs, decision.message);
      for (const [name, used] of decision.used) {
        const q = current.find((x) => quotaName(x) === name)!;
        attrs.writeAlongside({
          group: '', resource: 'resourcequotas', namespace, name,
          object: { ...q, status: { ...q.status, used } } as unknown as StoredObject,
          resourceVersion: q.metadata?.resourceVersion ?? '',
        });
      }
    },
  };
}
