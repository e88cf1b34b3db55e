// LimitRanger's validation (upstream's PodValidateLimitFunc and PersistentVolumeClaimValidateLimitFunc):
// min, max and maxLimitRequestRatio of Container items per container, of Pod items over the pod's
// summed requests and limits, and min and max of PersistentVolumeClaim items over a claim's
// requests. Values compare in milli-units rounded up, as upstream does.
import type { LimitRange, LimitRangeItem } from '../../../api/core/v1/limit-range.js';
import { formatQuantity, mustParse, quantityMilliValue, type ExactQuantity } from '../../runtime/quantity-exact.js';
import type { ClaimLike } from '../../quota/object-count-evaluators.js';
import type { PodLike } from '../../quota/pod-evaluator.js';
import { podLimits, podRequests } from '../../quota/pod-resources.js';
import { toUsage, type Usage } from '../../quota/resource-list.js';

const str = (q: ExactQuantity) => formatQuantity(q);
const milli = (q: ExactQuantity | undefined) => (q ? quantityMilliValue(q) : 0n);

function minConstraint(type: string, name: string, enforced: ExactQuantity, requests: Usage, limits: Usage): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  if (!req) return `minimum ${name} usage per ${type} is ${str(enforced)}.  No request is specified`;
  if (milli(req) < milli(enforced)) return `minimum ${name} usage per ${type} is ${str(enforced)}, but request is ${str(req)}`;
  if (lim && milli(lim) < milli(enforced)) return `minimum ${name} usage per ${type} is ${str(enforced)}, but limit is ${str(lim)}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: ExactQuantity, requests: Usage, limits: Usage): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  if (!lim) return `maximum ${name} usage per ${type} is ${str(enforced)}.  No limit is specified`;
  if (milli(lim) > milli(enforced)) return `maximum ${name} usage per ${type} is ${str(enforced)}, but limit is ${str(lim)}`;
  if (req && milli(req) > milli(enforced)) return `maximum ${name} usage per ${type} is ${str(enforced)}, but request is ${str(req)}`;
  return undefined;
}

function maxRequestConstraint(type: string, name: string, enforced: ExactQuantity, requests: Usage): string | undefined {
  const req = requests.get(name);
  if (!req) return `maximum ${name} usage per ${type} is ${str(enforced)}.  No request is specified`;
  if (milli(req) > milli(enforced)) return `maximum ${name} usage per ${type} is ${str(enforced)}, but request is ${str(req)}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: ExactQuantity, requests: Usage, limits: Usage): string | undefined {
  const req = milli(requests.get(name));
  const lim = milli(limits.get(name));
  const prefix = `${name} max limit to request ratio per ${type} is ${str(enforced)}`;
  if (req === 0n) return `${prefix}, but no request is specified or request is 0`;
  if (lim === 0n) return `${prefix}, but no limit is specified or limit is 0`;
  // lim/req > enforced, in integers: lim * 1000 > enforcedMilli * req.
  if (lim * 1000n > milli(enforced) * req) return `${prefix}, but provided ratio is ${(Number(lim) / Number(req)).toFixed(6)}`;
  return undefined;
}

function sorted(list: Record<string, string | number> | undefined): [string, ExactQuantity][] {
  return Object.keys(list ?? {}).sort().map((k) => [k, mustParse(list![k]!)]);
}

function checkItem(type: string, item: LimitRangeItem, requests: Usage, limits: Usage, errs: string[]): void {
  for (const [k, v] of sorted(item.min)) { const e = minConstraint(type, k, v, requests, limits); if (e) errs.push(e); }
  for (const [k, v] of sorted(item.max)) { const e = maxConstraint(type, k, v, requests, limits); if (e) errs.push(e); }
  for (const [k, v] of sorted(item.maxLimitRequestRatio)) { const e = ratioConstraint(type, k, v, requests, limits); if (e) errs.push(e); }
}

/** Every violation of one LimitRange by a pod, in upstream's order (map keys sorted). */
export function podLimitViolations(pod: PodLike, lr: LimitRange): string[] {
  const errs: string[] = [];
  const spec = pod.spec;
  if (!spec) return errs;
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === 'Container') {
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
        checkItem('Container', item, toUsage(c.resources?.requests as Record<string, string>),
          toUsage(c.resources?.limits as Record<string, string>), errs);
      }
    }
    if (item.type === 'Pod') checkItem('Pod', item, podRequests(spec), podLimits(spec), errs);
  }
  return errs;
}

/** Every violation of one LimitRange by a claim: min and max against spec.resources.requests only. */
export function claimLimitViolations(claim: ClaimLike, lr: LimitRange): string[] {
  const errs: string[] = [];
  const requests = toUsage(claim.spec?.resources?.requests);
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of sorted(item.min)) { const e = minConstraint('PersistentVolumeClaim', k, v, requests, new Map()); if (e) errs.push(e); }
    for (const [k, v] of sorted(item.max)) { const e = maxRequestConstraint('PersistentVolumeClaim', k, v, requests); if (e) errs.push(e); }
  }
  return errs;
}

/**
 * Upstream's aggregate error text over all LimitRanges: duplicates dropped, one message bare,
 * several as `[a, b]`; undefined when there is nothing to refuse.
 */
export function aggregateMessage(errs: string[]): string | undefined {
  const unique = [...new Set(errs)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}
