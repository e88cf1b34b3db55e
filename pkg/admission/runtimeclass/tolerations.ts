// Upstream's pkg/util/tolerations.MergeTolerations: two lists of tolerations as one, a toleration
// dropped when another in the result (or later in the input) already tolerates everything it does.
import { isDeepStrictEqual } from 'node:util';

export interface TolerationLike {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

/** The toleration with Go's zero values filled in, so a missing field equals an empty one. */
function norm(t: TolerationLike): Required<Omit<TolerationLike, 'tolerationSeconds'>> & { tolerationSeconds?: number } {
  return {
    key: t.key ?? '', operator: t.operator ?? '', value: t.value ?? '', effect: t.effect ?? '',
    ...(t.tolerationSeconds !== undefined && t.tolerationSeconds !== null ? { tolerationSeconds: t.tolerationSeconds } : {}),
  };
}

const equal = (a: TolerationLike, b: TolerationLike) => isDeepStrictEqual(norm(a), norm(b));

/** Whether `ss` tolerates every taint `t` tolerates. */
export function isSuperset(ssIn: TolerationLike, tIn: TolerationLike): boolean {
  if (equal(ssIn, tIn)) return true;
  const ss = norm(ssIn);
  const t = norm(tIn);
  // An empty key with Exists matches every key.
  if (t.key !== ss.key && (ss.key !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if (t.effect !== ss.effect && ss.effect !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator) {
    case 'Equal':
    case '':
      return (t.operator === 'Equal' || t.operator === '') && t.value === ss.value;
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** `first` then `second`, without the tolerations another one makes redundant (equal ones: the first kept). */
export function mergeTolerations<T extends TolerationLike>(first: readonly T[], second: readonly T[]): T[] {
  const all = [...first, ...second];
  const merged: T[] = [];
  next: for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    for (const m of merged) if (isSuperset(m, t)) continue next;
    for (const t2 of all.slice(i + 1)) {
      if (!equal(t, t2) && isSuperset(t2, t)) continue next;
    }
    merged.push(t);
  }
  return merged;
}
