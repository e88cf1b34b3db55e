// Equality as upstream's apiequality.Semantic sees decoded Go structs: a missing field equals its
// zero value, and nil equals an empty list or map, so a JSON object that omits a field compares
// equal to one spelling out the empty value.

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).every(isEmpty);
  return false;
}

export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) if (!semanticEqual(ao[k], bo[k])) return false;
    return true;
  }
  return a === b;
}

/** The dotted paths at which two objects differ (semantically), for a refusal message. */
export function differingPaths(a: unknown, b: unknown, prefix = ''): string[] {
  if (semanticEqual(a, b)) return [];
  const bothObjects = typeof a === 'object' && a !== null && !Array.isArray(a) && typeof b === 'object' && b !== null && !Array.isArray(b);
  if (!bothObjects) return [prefix || '.'];
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const out: string[] = [];
  for (const k of [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort()) {
    out.push(...differingPaths(ao[k], bo[k], prefix ? `${prefix}.${k}` : k));
  }
  return out;
}
