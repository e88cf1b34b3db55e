// Toleration arithmetic of upstream's pkg/util/tolerations: whether one toleration tolerates
// everything another does, merging two lists without redundant entries, and checking a list
// against a whitelist. Tolerations are compared as Go compares them, absent fields being empty.
import type { Toleration } from '../../../api/core/v1/toleration.js';

export type { Toleration };

interface Flat {
  key: string;
  operator: string;
  value: string;
  effect: string;
  tolerationSeconds: number | undefined;
}

const flat = (t: Toleration): Flat => ({
  key: t.key ?? '',
  operator: t.operator ?? '',
  value: t.value ?? '',
  effect: t.effect ?? '',
  tolerationSeconds: t.tolerationSeconds === undefined || t.tolerationSeconds === null ? undefined : Number(t.tolerationSeconds),
});

function equal(a: Flat, b: Flat): boolean {
  return a.key === b.key && a.operator === b.operator && a.value === b.value && a.effect === b.effect && a.tolerationSeconds === b.tolerationSeconds;
}

/** Whether `superset` tolerates every taint `t` tolerates (upstream's isSuperset). */
export function isSuperset(superset: Toleration, t: Toleration): boolean {
  const ss = flat(superset);
  const f = flat(t);
  if (equal(ss, f)) return true;
  // An empty key with Exists matches every key and value.
  if (f.key !== ss.key && (ss.key !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if (f.effect !== ss.effect && ss.effect !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined) {
    if (f.tolerationSeconds === undefined || f.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator) {
    case 'Equal':
    case '':
      // Upstream compares the other's operator literally here: an empty one is not Equal.
      return f.operator === 'Equal' && f.value === ss.value;
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Both lists as one, `first`'s entries first, without any toleration another one covers (of equal ones the first stays). */
export function mergeTolerations<T extends Toleration>(first: readonly T[], second: readonly T[]): T[] {
  const all = [...first, ...second];
  const merged: T[] = [];
  next: for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    for (const m of merged) if (isSuperset(m, t)) continue next;
    for (const later of all.slice(i + 1)) {
      if (!equal(flat(t), flat(later)) && isSuperset(later, t)) continue next;
    }
    merged.push(t);
  }
  return merged;
}

/** Whether each toleration is covered by some entry of the whitelist; an empty whitelist allows everything. */
export function verifyAgainstWhitelist(tolerations: readonly Toleration[], whitelist: readonly Toleration[]): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}

/**
 * A JSON list of tolerations as Go decodes it into []Toleration: null is an empty list, unknown
 * fields are ignored, a field of the wrong type is an error. Returns the tolerations with empty
 * fields left out, as they would be written back.
 */
export function decodeTolerations(value: unknown): Toleration[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`json: cannot unmarshal ${jsonType(value)} into Go value of type []v1.Toleration`);
  return value.map((item: unknown) => {
    if (item === null) return {};
    if (typeof item !== 'object' || Array.isArray(item)) throw new Error(`json: cannot unmarshal ${jsonType(item)} into Go value of type v1.Toleration`);
    const o = item as Record<string, unknown>;
    const out: Toleration = {};
    for (const field of ['key', 'operator', 'value', 'effect'] as const) {
      const v = o[field];
      if (v === null || v === undefined) continue;
      if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${jsonType(v)} into Go struct field Toleration.${field} of type string`);
      if (v !== '') (out as Record<string, unknown>)[field] = v;
    }
    const secs = o['tolerationSeconds'];
    if (secs !== null && secs !== undefined) {
      if (typeof secs !== 'number' || !Number.isSafeInteger(secs)) {
        throw new Error(`json: cannot unmarshal ${jsonType(secs)} into Go struct field Toleration.tolerationSeconds of type int64`);
      }
      out.tolerationSeconds = secs;
    }
    return out;
  });
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'number' : `number ${v}`;
  return typeof v === 'object' ? 'object' : typeof v;
}
