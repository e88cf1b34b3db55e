// $ref bookkeeping: which references a JSON value holds, and which definitions a document reaches.
import { isJsonObject, type JsonObject, type JsonValue } from './types.js';

/** Every $ref string inside `value`, in document order, duplicates included. */
export function collectRefs(value: JsonValue, out: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, out);
  } else if (isJsonObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

/**
 * The definitions reachable from `roots` through references starting with `prefix`, each
 * followed into the definitions it references in turn.
 */
export function reachableDefinitions(
  roots: JsonValue,
  prefix: string,
  lookup: (name: string) => JsonObject | undefined,
): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  const pending = collectRefs(roots);
  while (pending.length > 0) {
    const ref = pending.pop()!;
    if (!ref.startsWith(prefix)) continue;
    const name = ref.slice(prefix.length);
    if (name in out) continue;
    const def = lookup(name);
    if (!def) throw new Error(`reference to a missing definition: ${ref}`);
    out[name] = def;
    collectRefs(def, pending);
  }
  return out;
}
