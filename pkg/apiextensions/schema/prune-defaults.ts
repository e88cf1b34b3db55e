// Defaults pruned as objects are (upstream's defaulting.PruneDefaults): each default is placed
// where it applies in an otherwise empty resource, coerced and pruned with the whole schema, and
// read back, so a default never brings a field the schema does not know. The API server does
// this once per schema before serving.
import { deepCopyJSON, jsonEqual } from './json-schema-props.js';
import { coerceEmbedded } from './object-meta.js';
import { prune } from './pruning.js';
import type { Structural } from './structural.js';
import { childOf, indexOf, rootObject, type SurroundingObject } from './surrounding-object.js';

/** Prunes every default of `root`, in place; returns whether any changed. Throws when a default cannot be placed. */
export function pruneDefaults(root: Structural): boolean {
  return walk(root, root, rootObject);
}

function walk(root: Structural, s: Structural | undefined, f: SurroundingObject): boolean {
  if (s === undefined) return false;
  let changed = false;
  if (s.default !== undefined) {
    const orig = deepCopyJSON(s.default);
    let placed;
    try {
      placed = f(s.default);
    } catch (e) {
      throw new Error(`failed to prune default value: ${(e as Error).message}`);
    }
    const { error } = coerceEmbedded(undefined, placed.obj, root, true, { dropInvalidFields: true });
    if (error !== undefined) throw new Error(`failed to prune default value: ${String(error.detail)}`);
    prune(placed.obj, root, true);
    const back = placed.acc(placed.obj);
    if ('error' in back) throw new Error(`failed to prune default value: ${back.error}`);
    s.default = back.found && back.value !== null ? back.value : undefined;
    changed = !jsonEqual(orig, s.default);
  }
  if (s.additionalProperties?.structural !== undefined) changed = walk(root, s.additionalProperties.structural, childOf(f, '*')) || changed;
  if (s.items !== undefined) changed = walk(root, s.items, indexOf(f)) || changed;
  for (const [k, sub] of s.properties ?? []) changed = walk(root, sub, childOf(f, k)) || changed;
  return changed;
}
