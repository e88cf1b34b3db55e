// Quota usage of a pod (upstream's pod evaluator): the object count always, and while the pod is
// not terminal its compute requests and limits under both the bare and the requests./limits.
// names, hugepages and extended resources (requests. only).
import type { ObjectMeta } from '../../api/meta/v1/types.js';
import type { Container, PodSpec } from '../../api/core/v1/pod-template.js';
import type { ScopedResourceSelectorRequirement } from '../../api/core/v1/resource-quota.js';
import { mustParse, type ExactQuantity } from '../runtime/quantity-exact.js';
import type { QuotaEvaluator, QuotaOperation } from './evaluator.js';
import { podLimits, podRequests } from './pod-resources.js';
import { addUsage, toUsage, type Usage } from './resource-list.js';
import { matchesValue } from './scopes.js';

const podResources = new Set([
  'count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
]);
const podResourcePrefixes = ['hugepages-', 'requests.hugepages-'];
/** Resources each container must state when a quota tracks them (a historical coupling upstream keeps). */
const validationSet = ['requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory', 'cpu', 'memory'];
const qualifiedName = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

export interface PodEvaluatorOptions {
  /** Where native resource names live (`kubernetes.io` upstream): `<keyDomain>/x` is not extended. */
  keyDomain: string;
  /** Whether pod updates are charged (upstream does with in-place resize enabled). */
  chargeUpdates?: boolean;
}

/** A pod as a plain object; only the fields quota reads. */
export interface PodLike {
  metadata?: ObjectMeta;
  spec?: PodSpec;
  status?: { phase?: string };
}

export function isExtendedResourceName(name: string, keyDomain: string): boolean {
  if (!name.includes('/') || name.startsWith(`${keyDomain}/`) || name.includes(`.${keyDomain}/`)) return false;
  if (name.startsWith('requests.')) return false;
  return qualifiedName.test(name) && name.length <= 316;
}

function computeUsage(requests: Usage, limits: Usage, keyDomain: string): Usage {
  const out: Usage = new Map([['pods', mustParse('1')]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) { out.set(r, req); out.set(`requests.${r}`, req); }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [k, v] of requests) {
    if (k.startsWith('hugepages-')) { out.set(k, v); out.set(`requests.${k}`, v); }
    if (isExtendedResourceName(k, keyDomain)) out.set(`requests.${k}`, v);
  }
  return out;
}

/** Counted against compute quota: not Succeeded/Failed, and not past its deletion grace period. */
export function podCountsForQuota(pod: PodLike, now: Date): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const ts = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (ts && grace !== undefined && grace !== null) {
    const end = Date.parse(ts) + Number(grace) * 1000;
    if (now.getTime() > end) return false;
  }
  return true;
}

function nonZero(list: Record<string, string> | undefined, name: string): boolean {
  const v = list?.[name];
  return v !== undefined && mustParse(v).nanos !== 0n;
}

function allContainers(spec: PodSpec | undefined): Container[] {
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
}

/** BestEffort QoS: no container (nor the pod level) asks for or limits cpu or memory. */
export function isBestEffort(spec: PodSpec | undefined): boolean {
  const lists = allContainers(spec).flatMap((c) => [c.resources?.requests, c.resources?.limits]);
  lists.push(spec?.resources?.requests, spec?.resources?.limits);
  return !lists.some((l) => nonZero(l as Record<string, string> | undefined, 'cpu') || nonZero(l as Record<string, string> | undefined, 'memory'));
}

export function isTerminating(spec: PodSpec | undefined): boolean {
  const d = spec?.activeDeadlineSeconds;
  return d !== undefined && d !== null && Number(d) >= 0;
}

export function usesCrossNamespacePodAffinity(spec: PodSpec | undefined): boolean {
  const a = spec?.affinity;
  const terms = [a?.podAffinity, a?.podAntiAffinity].flatMap((x) => [
    ...(x?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(x?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => w.podAffinityTerm),
  ]);
  return terms.some((t) => t && ((t.namespaces?.length ?? 0) > 0 || t.namespaceSelector != null));
}

export function podEvaluator(opts: PodEvaluatorOptions): QuotaEvaluator {
  const { keyDomain } = opts;
  return {
    groupResource: 'pods',
    handles: (op: QuotaOperation) => op === 'CREATE' || (op === 'UPDATE' && opts.chargeUpdates === true),
    matchingResources(names) {
      return names.filter((n) => podResources.has(n) || podResourcePrefixes.some((p) => n.startsWith(p)) ||
        (n.startsWith('requests.') && isExtendedResourceName(n.slice('requests.'.length), keyDomain)));
    },
    matchesScope(scope: ScopedResourceSelectorRequirement, obj) {
      const spec = (obj as PodLike).spec;
      switch (scope.scopeName) {
        case 'Terminating': return isTerminating(spec);
        case 'NotTerminating': return !isTerminating(spec);
        case 'BestEffort': return isBestEffort(spec);
        case 'NotBestEffort': return !isBestEffort(spec);
        case 'PriorityClass': {
          const pc = spec?.priorityClassName ?? '';
          return scope.operator === 'Exists' ? pc !== '' : matchesValue(scope, pc);
        }
        case 'CrossNamespacePodAffinity': return usesCrossNamespacePodAffinity(spec);
        default: return false;
      }
    },
    constraints(required, obj) {
      const needed = validationSet.filter((r) => required.includes(r));
      if (needed.length === 0) return undefined;
      const missing = new Map<string, Set<string>>();
      for (const c of allContainers((obj as PodLike).spec)) {
        const has = computeUsage(toUsage(c.resources?.requests as Record<string, string>),
          toUsage(c.resources?.limits as Record<string, string>), keyDomain);
        for (const r of needed) {
          if (!has.has(r)) {
            if (!missing.has(r)) missing.set(r, new Set());
            missing.get(r)!.add(c.name);
          }
        }
      }
      if (missing.size === 0) return undefined;
      const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
      return `must specify ${parts.join('; ')}`;
    },
    usage(obj, now) {
      const pod = obj as PodLike;
      const out: Usage = new Map<string, ExactQuantity>([['count/pods', mustParse('1')]]);
      if (!podCountsForQuota(pod, now) || !pod.spec) return out;
      const opt = { includeOverhead: true };
      return addUsage(out, computeUsage(podRequests(pod.spec, opt), podLimits(pod.spec, opt), keyDomain));
    },
  };
}
