// The quality of service class of a pod, as upstream's GetPodQOS computes it from the cpu and
// memory requests and limits of its containers (or of the pod itself when it sets pod-level
// resources).
import type { Pod, PodStatus } from '../../../api/core/v1/pod.js';
import { addQuantity, compareQuantity, parseExact, type ExactQuantity } from '../../runtime/quantity-exact.js';

type QOSClass = NonNullable<PodStatus['qosClass']>;
type Resources = { requests?: Record<string, unknown>; limits?: Record<string, unknown> } | undefined;

const computeResources = ['cpu', 'memory'];

/** Positive amounts of cpu and memory in `list`; unparsable values count as absent. */
function positive(list: Record<string, unknown> | undefined): Map<string, ExactQuantity> {
  const out = new Map<string, ExactQuantity>();
  for (const name of computeResources) {
    const v = list?.[name];
    const q = typeof v === 'string' || typeof v === 'number' ? parseExact(v) : undefined;
    if (q && q.nanos > 0n) out.set(name, q);
  }
  return out;
}

/** Guaranteed, Burstable or BestEffort. */
export function podQOSClass(pod: Pod): QOSClass {
  const spec = pod.spec;
  const requests = new Map<string, ExactQuantity>();
  const limits = new Map<string, ExactQuantity>();
  let guaranteed = true;
  const add = (into: Map<string, ExactQuantity>, name: string, q: ExactQuantity) => {
    const prev = into.get(name);
    into.set(name, prev ? addQuantity(prev, q) : q);
  };
  const podLevel: Resources = spec?.resources;
  const sources: Resources[] = podLevel && (podLevel.requests || podLevel.limits)
    ? [podLevel]
    : [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])].map((c) => c.resources);
  for (const r of sources) {
    for (const [name, q] of positive(r?.requests)) add(requests, name, q);
    const lim = positive(r?.limits);
    for (const [name, q] of lim) add(limits, name, q);
    if (!computeResources.every((name) => lim.has(name))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || compareQuantity(lim, req) !== 0) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
