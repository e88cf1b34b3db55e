// Quota admission of one write (upstream's CheckRequest): the quotas of the namespace that track
// the object must know their usage, the object must state what they require, and the change in
// usage must fit every one of them. The result is each affected quota's new status.used, which
// the caller stores with compare-and-swap, or upstream's Forbidden message.
import type { ResourceQuota } from '../../api/core/v1/resource-quota.js';
import type { QuotaEvaluator, QuotaOperation } from './evaluator.js';
import {
  addUsage, exceeding, fromUsage, mask, negativeNames, prettyPrint, prettyPrintNames, removeZeros,
  subtractNonNegative, toUsage,
} from './resource-list.js';
import { quotaMatches } from './scopes.js';

export interface QuotaRequest {
  operation: QuotaOperation;
  object: unknown;
  /** The stored object on update; one without a resourceVersion is charged in full (create on update). */
  oldObject?: unknown;
  now: Date;
}

export type QuotaDecision =
  | { allowed: true; /** New status.used of each quota the write charges, by quota name. */ used: Map<string, Record<string, string>> }
  | { allowed: false; /** The message after `<resource> "<name>" is forbidden: `. */ message: string };

export function checkQuota(quotas: ResourceQuota[], evaluator: QuotaEvaluator, req: QuotaRequest): QuotaDecision {
  const none: QuotaDecision = { allowed: true, used: new Map() };
  if (!evaluator.handles(req.operation)) return none;
  const interesting: ResourceQuota[] = [];
  for (const q of quotas) {
    if (!quotaMatches(q, evaluator, req.object)) continue;
    const name = q.metadata?.name ?? '';
    const hard = q.status?.hard ?? {};
    const restricted = evaluator.matchingResources(Object.keys(hard));
    const why = evaluator.constraints(restricted, req.object);
    if (why) return { allowed: false, message: `failed quota: ${name}: ${why}` };
    const used = q.status?.used ?? {};
    if (Object.keys(hard).some((r) => restricted.includes(r) && !(r in used))) {
      return { allowed: false, message: `status unknown for quota: ${name}, resources: ${prettyPrintNames(restricted)}` };
    }
    interesting.push(q);
  }
  let delta = evaluator.usage(req.object, req.now);
  const negative = negativeNames(delta);
  if (negative.length > 0) {
    return { allowed: false, message: `quota usage is negative for resource(s): ${prettyPrintNames(negative)}` };
  }
  if (req.operation === 'UPDATE') {
    if (req.oldObject == null) {
      return { allowed: false, message: 'unable to get previous usage since prior version of object was not found' };
    }
    const rv = (req.oldObject as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
    if (rv) delta = subtractNonNegative(delta, evaluator.usage(req.oldObject, req.now));
  }
  delta = removeZeros(delta);
  if (delta.size === 0 || interesting.length === 0) return none;
  const out = new Map<string, Record<string, string>>();
  for (const q of interesting) {
    const name = q.metadata?.name ?? '';
    const hard = toUsage(q.status?.hard);
    const used = toUsage(q.status?.used);
    const requested = mask(delta, hard.keys());
    const newUsed = addUsage(used, requested);
    const over = exceeding(mask(newUsed, requested.keys()), hard);
    if (over.length > 0) {
      return {
        allowed: false,
        message: `exceeded quota: ${name}, requested: ${prettyPrint(mask(requested, over))}, ` +
          `used: ${prettyPrint(mask(used, over))}, limited: ${prettyPrint(mask(hard, over))}`,
      };
    }
    out.set(name, fromUsage(newUsed));
  }
  return { allowed: true, used: out };
}
