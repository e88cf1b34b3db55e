// The dry run of a namespace's new enforce level over the pods already in it (upstream's
// EvaluatePodsInNamespace): the change is allowed, and the client is warned of the pods that would
// no longer be admitted, one line per distinct set of reasons naming its lexically first pod. At
// most 3000 pods are looked at, and for at most a second; one pod per controller comes first, so a
// big ReplicaSet does not hide the other workloads.
import type { AdmissionObject } from '../interfaces.js';
import { forbiddenReason, aggregateCheckResults } from './aggregate.js';
import type { Evaluator } from './evaluator.js';
import { goQuote } from '../../util/go-quote.js';
import { levelVersionString, type LevelVersion } from './level-version.js';
import { podOf } from './pod-spec-extractor.js';

export const defaultNamespaceMaxPodsToCheck = 3000;
export const defaultNamespacePodCheckTimeoutMs = 1000;

export interface NamespacePodsOptions {
  maxPodsToCheck: number;
  timeoutMs: number;
  /** Milliseconds since the epoch; tests move it. */
  now: () => number;
}

interface PodLike {
  metadata?: { name?: string; ownerReferences?: { uid?: string; controller?: boolean }[] };
  spec?: { runtimeClassName?: string };
}

/**
 * The pods worth checking first: those of an exempt runtime class left out, then one pod per
 * controller and every pod without one, then the other pods of controllers already seen.
 */
export function prioritizePods(pods: readonly AdmissionObject[], exemptRuntimeClass: (name: string | undefined) => boolean): AdmissionObject[] {
  const first: AdmissionObject[] = [];
  const later: AdmissionObject[] = [];
  const controllers = new Set<string>();
  for (const pod of pods) {
    const p = pod as PodLike;
    if (exemptRuntimeClass(p.spec?.runtimeClassName)) continue;
    const ref = p.metadata?.ownerReferences?.find((r) => r.controller === true);
    if (!ref) first.push(pod);
    else if (controllers.has(ref.uid ?? '')) later.push(pod);
    else {
      controllers.add(ref.uid ?? '');
      first.push(pod);
    }
  }
  return [...first, ...later];
}

/** The warnings for a namespace whose enforce level becomes `enforce`, over its existing `pods`. */
export function evaluatePodsInNamespace(
  evaluator: Evaluator, namespace: string, enforce: LevelVersion, pods: readonly AdmissionObject[],
  exemptRuntimeClass: (name: string | undefined) => boolean, opts: NamespacePodsOptions,
): string[] {
  const deadline = opts.now() + opts.timeoutMs;
  const prioritized = prioritizePods(pods, exemptRuntimeClass);
  const total = prioritized.length;
  const toCheck = prioritized.slice(0, opts.maxPodsToCheck);
  let checked = toCheck.length;
  // Each distinct reason list, in the order first seen, with its lexically first pod and its count.
  const byWarning = new Map<string, { podName: string; count: number }>();
  for (let i = 0; i < toCheck.length; i++) {
    const { meta, spec } = podOf(toCheck[i]!);
    const r = aggregateCheckResults(evaluator.evaluatePod(enforce, meta, spec));
    if (!r.allowed) {
      const warning = forbiddenReason(r);
      const name = meta.name ?? '';
      const seen = byWarning.get(warning);
      if (!seen) byWarning.set(warning, { podName: name, count: 1 });
      else {
        seen.count++;
        if (name < seen.podName) seen.podName = name;
      }
    }
    if (opts.now() > deadline) {
      checked = i + 1;
      break;
    }
  }
  const warnings: string[] = [];
  if (checked < total) warnings.push(`new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`);
  if (byWarning.size > 0) warnings.push(`existing pods in namespace ${goQuote(namespace)} violate the new PodSecurity enforce level ${goQuote(levelVersionString(enforce))}`);
  const podLines = [...byWarning].map(([warning, { podName, count }]) => {
    if (count === 1) return `${podName}: ${warning}`;
    if (count === 2) return `${podName} (and 1 other pod): ${warning}`;
    return `${podName} (and ${count - 1} other pods): ${warning}`;
  });
  return [...warnings, ...podLines.sort()];
}
