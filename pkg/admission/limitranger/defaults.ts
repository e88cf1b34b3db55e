// LimitRanger's mutation (upstream's PodMutateLimitFunc): containers that leave out a request or
// limit named by a Container item's defaultRequest or default get it, and the pod is annotated
// with what was set so users can tell the values were not theirs.
import type { LimitRange } from '../../../api/core/v1/limit-range.js';
import type { Container } from '../../../api/core/v1/pod-template.js';
import type { PodLike } from '../../quota/pod-evaluator.js';

/** The annotation key recording what LimitRanger set (`kubernetes.io/limit-ranger` upstream). */
export function limitRangerAnnotation(keyDomain: string): string {
  return `${keyDomain}/limit-ranger`;
}

interface Defaults { requests: Record<string, string>; limits: Record<string, string> }

function containerDefaults(lr: LimitRange): Defaults {
  const out: Defaults = { requests: {}, limits: {} };
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    Object.assign(out.requests, item.defaultRequest ?? {});
    Object.assign(out.limits, item.default ?? {});
  }
  return out;
}

function mergeContainer(c: Container, d: Defaults, kind: string, notes: string[]): void {
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  const fill = (which: 'limits' | 'requests', from: Record<string, string>, set: string[]) => {
    for (const [k, v] of Object.entries(from)) {
      const cur = c.resources?.[which] as Record<string, string> | undefined;
      if (cur && k in cur) continue;
      c.resources ??= {};
      (c.resources[which] as Record<string, string> | undefined) ??= {};
      (c.resources[which] as Record<string, string>)[k] = v;
      set.push(k);
    }
  };
  fill('limits', d.limits, setLimits);
  fill('requests', d.requests, setRequests);
  if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${kind} ${c.name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${kind} ${c.name}`);
}

/** Applies one LimitRange's container defaults to the pod in place; true when anything was set. */
export function applyLimitRangeDefaults(pod: PodLike, lr: LimitRange, keyDomain: string): boolean {
  const d = containerDefaults(lr);
  if (Object.keys(d.requests).length === 0 && Object.keys(d.limits).length === 0) return false;
  const notes: string[] = [];
  for (const c of pod.spec?.containers ?? []) mergeContainer(c, d, 'container', notes);
  for (const c of pod.spec?.initContainers ?? []) mergeContainer(c, d, 'init container', notes);
  if (notes.length === 0) return false;
  pod.metadata ??= {};
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [limitRangerAnnotation(keyDomain)]: `LimitRanger plugin set: ${notes.join('; ')}` };
  return true;
}
