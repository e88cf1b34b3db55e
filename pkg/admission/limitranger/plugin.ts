// The LimitRanger plug-in over a namespace's LimitRanges: which requests it looks at (pod creates
// and resizes, claim creates and updates, never other subresources), the defaults it sets, and
// the message of the Forbidden refusal (the caller prefixes `<resource> "<name>" is forbidden: `).
import type { LimitRange } from '../../../api/core/v1/limit-range.js';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type Attributes, type MutationInterface, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import type { ClaimLike } from '../../quota/object-count-evaluators.js';
import type { PodLike } from '../../quota/pod-evaluator.js';
import { applyLimitRangeDefaults } from './defaults.js';
import { aggregateMessage, claimLimitViolations, podLimitViolations } from './validate.js';

export type LimitedResource = 'pods' | 'persistentvolumeclaims';

/** The resource LimitRanger acts on for this request, or undefined when it lets it pass untouched. */
export function limitRangerApplies(resource: string, operation: string, subresource: string): LimitedResource | undefined {
  if (resource === 'pods') {
    if (subresource === 'resize' && operation === 'UPDATE') return 'pods';
    return subresource === '' && operation === 'CREATE' ? 'pods' : undefined;
  }
  if (resource === 'persistentvolumeclaims' && subresource === '' && (operation === 'CREATE' || operation === 'UPDATE')) {
    return 'persistentvolumeclaims';
  }
  return undefined;
}

/** Mutating step: each LimitRange's container defaults in turn; true when the pod changed. */
export function defaultPod(pod: PodLike, ranges: LimitRange[], keyDomain: string): boolean {
  let changed = false;
  for (const lr of ranges) changed = applyLimitRangeDefaults(pod, lr, keyDomain) || changed;
  return changed;
}

/** Validating step: the refusal message over all LimitRanges, or undefined. */
export function limitRangeRefusal(resource: LimitedResource, obj: unknown, ranges: LimitRange[]): string | undefined {
  const errs = ranges.flatMap((lr) => resource === 'pods'
    ? podLimitViolations(obj as PodLike, lr) : claimLimitViolations(obj as ClaimLike, lr));
  return aggregateMessage(errs);
}

/**
 * The LimitRanger plug-in over the namespace's LimitRanges (from the cache): container defaults
 * in the mutating phase, the min/max/ratio limits in the validating phase.
 */
export function limitRangerFactory(_configuration: unknown, deps: PluginDeps): MutationInterface & ValidationInterface {
  const lister = deps.lister('', 'limitranges');
  const applies = (attrs: Attributes) => (lister && attrs.resource.group === '' ? limitRangerApplies(attrs.resource.resource, attrs.operation, attrs.subresource) : undefined);
  const rangesOf = (attrs: Attributes) => (lister?.list(attrs.namespace) ?? []) as unknown as LimitRange[];
  return {
    name: 'LimitRanger',
    handles: handlesOperations('CREATE', 'UPDATE'),
    admit(attrs) {
      if (applies(attrs) !== 'pods' || !attrs.object) return;
      const ranges = rangesOf(attrs);
      if (ranges.length > 0) defaultPod(attrs.object as PodLike, ranges, deps.domain.keyDomain);
    },
    validate(attrs) {
      const resource = applies(attrs);
      if (!resource || !attrs.object) return;
      const ranges = rangesOf(attrs);
      const refusal = ranges.length > 0 ? limitRangeRefusal(resource, attrs.object, ranges) : undefined;
      if (refusal) throw newAdmissionForbidden(attrs, refusal);
    },
  };
}
