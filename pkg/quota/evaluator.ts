// What quota admission needs to know about one resource: which operations change its usage, which
// quota resource names it accounts for, how an object matches a quota scope, what it must state
// for a quota to be enforceable, and how much one object uses (upstream's quota Evaluator).
import type { ScopedResourceSelectorRequirement } from '../../api/core/v1/resource-quota.js';
import type { Usage } from './resource-list.js';

export type QuotaOperation = 'CREATE' | 'UPDATE';

export interface QuotaEvaluator {
  /** `resource.group` (`pods`, `deployments.apps`) the evaluator accounts for. */
  readonly groupResource: string;
  handles(op: QuotaOperation): boolean;
  /** The subset of `names` (quota resource names) this evaluator tracks. */
  matchingResources(names: string[]): string[];
  matchesScope(scope: ScopedResourceSelectorRequirement, obj: unknown): boolean;
  /** Why the object cannot be admitted under a quota tracking `required`, or undefined. */
  constraints(required: string[], obj: unknown): string | undefined;
  usage(obj: unknown, now: Date): Usage;
}

/** The `count/<resource>[.<group>]` name that counts objects of a resource. */
export function objectCountName(resource: string, group: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}
