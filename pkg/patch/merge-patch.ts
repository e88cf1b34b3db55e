// JSON merge patch (RFC 7386): objects merge key by key, null deletes, anything else replaces.

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Applies `patch` to `target` and returns the result; neither argument is modified. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    // defineProperty: a key named "__proto__" is data, never the prototype.
    else Object.defineProperty(out, key, { value: applyMergePatch(Object.hasOwn(out, key) ? out[key] : undefined, value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
