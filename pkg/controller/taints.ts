// Taints and tolerations as the controllers weigh them (upstream's v1 Toleration.ToleratesTaint,
// component-helpers' FindMatchingUntoleratedTaint and GetMatchingTolerations, pkg/util/taints):
// whether a pod tolerates a node's taints, which tolerations it uses for them, and taint-set
// arithmetic keyed by key and effect.
import type { Taint } from '../../api/core/v1/node.js';
import type { Toleration } from '../../api/core/v1/toleration.js';

export type { Taint, Toleration };

/** Whether `t` tolerates `taint`: an empty effect or key matches any, Exists any value, Equal (or empty) the same value. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** The first taint passing `filter` that no toleration tolerates, if any. */
export function findUntoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[], filter: (t: Taint) => boolean): Taint | undefined {
  return taints.find((taint) => filter(taint) && !tolerations.some((t) => toleratesTaint(t, taint)));
}

/** Whether every taint is tolerated, and for each the first toleration that does (upstream's GetMatchingTolerations). */
export function matchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[]): { all: boolean; used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const first = tolerations.find((t) => toleratesTaint(t, taint));
    if (!first) return { all: false, used: [] };
    used.push(first);
  }
  return { all: true, used };
}

/** Same key and effect: the identity of a taint on a node (upstream's Taint.MatchTaint). */
export function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** Whether the node has a taint matching `t` by key and effect. */
export function hasTaint(taints: readonly Taint[] | undefined, t: Taint): boolean {
  return (taints ?? []).some((x) => sameTaint(x, t));
}

/** Taints of `want` missing from `have`, and taints of `have` not in `want` (upstream's TaintSetDiff). */
export function taintSetDiff(want: readonly Taint[], have: readonly Taint[]): { add: Taint[]; remove: Taint[] } {
  return {
    add: want.filter((t) => !hasTaint(have, t)),
    remove: have.filter((t) => !hasTaint(want, t)),
  };
}

/** The NoExecute taints of a node. */
export function noExecuteTaints(taints: readonly Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}
