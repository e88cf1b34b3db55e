// The key order of an object upstream holds unstructured (a custom resource): a map that Go's
// encoding/json writes with its keys sorted, at every level, lists keeping their order. Built-in
// kinds keep their Go struct's field order instead, which the schemas declare.

/** A copy of `value` with every object's keys in sorted order (as Go encodes a map[string]any). */
export function unstructuredOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unstructuredOrder);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  const out: Record<string, unknown> = {};
  for (const k of keys.sort()) out[k] = unstructuredOrder((value as Record<string, unknown>)[k]);
  return out;
}
