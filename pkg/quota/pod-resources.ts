// The resources a pod as a whole requests and is limited to, as upstream's resource helper sums
// them: app containers and sidecars (restartable init containers) add up, each ordinary init
// container runs alone next to the sidecars started before it, and the pod needs the larger of
// the two; pod-level resources, where set, replace the sum for cpu, memory and hugepages.
import type { Container, PodSpec } from '../../api/core/v1/pod-template.js';
import { addQuantity, compareQuantity } from '../runtime/quantity-exact.js';
import { addUsage, toUsage, type Usage } from './resource-list.js';

type Which = 'requests' | 'limits';

function containerList(c: Container, which: Which): Usage {
  return toUsage(c.resources?.[which] as Record<string, string> | undefined);
}

function maxInto(into: Usage, other: Usage): void {
  for (const [k, v] of other) {
    const cur = into.get(k);
    if (!cur || compareQuantity(v, cur) > 0) into.set(k, v);
  }
}

function isPodLevelResource(name: string): boolean {
  return name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');
}

export interface PodResourcesOptions {
  /** Adds spec.overhead (to every request; to limits only where a limit is set). */
  includeOverhead?: boolean;
}

function aggregate(spec: PodSpec, which: Which): Usage {
  let sum: Usage = new Map();
  for (const c of spec.containers ?? []) sum = addUsage(sum, containerList(c, which));
  let sidecars: Usage = new Map();
  const init: Usage = new Map();
  for (const c of spec.initContainers ?? []) {
    const own = containerList(c, which);
    let running: Usage;
    if (c.restartPolicy === 'Always') {
      sum = addUsage(sum, own);
      sidecars = addUsage(sidecars, own);
      running = sidecars;
    } else {
      running = addUsage(own, sidecars);
    }
    maxInto(init, running);
  }
  maxInto(sum, init);
  const podLevel = spec.resources?.[which] as Record<string, string> | undefined;
  for (const [k, v] of toUsage(podLevel)) if (isPodLevelResource(k)) sum.set(k, v);
  return sum;
}

export function podRequests(spec: PodSpec, opts: PodResourcesOptions = {}): Usage {
  const reqs = aggregate(spec, 'requests');
  return opts.includeOverhead ? addUsage(reqs, toUsage(spec.overhead as Record<string, string> | undefined)) : reqs;
}

export function podLimits(spec: PodSpec, opts: PodResourcesOptions = {}): Usage {
  const limits = aggregate(spec, 'limits');
  if (opts.includeOverhead) {
    for (const [k, v] of toUsage(spec.overhead as Record<string, string> | undefined)) {
      const cur = limits.get(k);
      if (cur) limits.set(k, addQuantity(cur, v));
    }
  }
  return limits;
}
