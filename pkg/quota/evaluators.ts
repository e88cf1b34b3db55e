// The evaluator for a written resource: the specific ones for pods, claims and services, and an
// object count for any other resource, as upstream creates one on first use.
import type { QuotaEvaluator } from './evaluator.js';
import { claimEvaluator, objectCountEvaluator, serviceEvaluator } from './object-count-evaluators.js';
import { podEvaluator } from './pod-evaluator.js';

export interface QuotaDomain {
  /** Domain of native resource names and annotation keys (`kubernetes.io` upstream). */
  keyDomain: string;
  /** `<prefix>.<domain>`, e.g. group('storage') for per-class claim quota names. */
  group(prefix: string): string;
}

export interface EvaluatorOptions {
  /** Charge pod updates (upstream does when in-place resize is enabled). */
  chargePodUpdates?: boolean;
}

export function quotaEvaluatorFor(resource: string, group: string, domain: QuotaDomain, opts: EvaluatorOptions = {}): QuotaEvaluator {
  if (group === '') {
    if (resource === 'pods') return podEvaluator({ keyDomain: domain.keyDomain, chargeUpdates: opts.chargePodUpdates ?? false });
    if (resource === 'persistentvolumeclaims') return claimEvaluator({ storageGroup: domain.group('storage'), keyDomain: domain.keyDomain });
    if (resource === 'services') return serviceEvaluator();
  }
  return objectCountEvaluator(resource, group);
}
