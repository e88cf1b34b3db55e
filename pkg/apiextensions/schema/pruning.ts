// Pruning of unknown fields (upstream's pruning.Prune): what the schema does not declare is
// dropped, as Go's JSON decoding drops unknown fields of built-in kinds. Places marked
// x-kubernetes-preserve-unknown-fields keep what they hold (their declared parts are still
// pruned); the apiVersion, kind and metadata of a resource and of embedded resources are left
// alone (ObjectMeta is coerced separately, object-meta.ts).
import { isObject } from './json-schema-props.js';
import { asResourceRoot, type Structural } from './structural.js';
import { UnknownFieldPaths } from './unknown-field-paths.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Removes from `obj`, in place, every field `s` does not declare, and returns their paths
 * (sorted; only when `trackUnknown`, for fieldValidation). `isResourceRoot`: `obj` is a whole
 * resource, whose apiVersion, kind and metadata are kept.
 */
export function prune(obj: unknown, s: Structural | undefined, isResourceRoot: boolean, trackUnknown = false): string[] {
  const paths = new UnknownFieldPaths(trackUnknown);
  walk(obj, isResourceRoot ? asResourceRoot(s) : s, paths);
  return paths.sorted();
}

function walk(x: unknown, s: Structural | undefined, paths: UnknownFieldPaths): void {
  if (s?.xPreserveUnknownFields) {
    walkPreserving(x, s, paths);
    return;
  }
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      if (s === undefined) {
        paths.record(k);
        delete x[k];
        continue;
      }
      if (s.xEmbeddedResource && metaFields.has(k)) continue;
      const prop = s.properties?.get(k);
      if (prop !== undefined) paths.withKey(k, () => walk(x[k], prop, paths));
      else if (s.additionalProperties !== undefined) paths.withKey(k, () => walk(x[k], s.additionalProperties!.structural, paths));
      else {
        if (!metaFields.has(k) || paths.nested) paths.record(k);
        delete x[k];
      }
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => paths.withIndex(i, () => walk(v, s?.items, paths)));
  }
}

/** Inside x-kubernetes-preserve-unknown-fields: unknown fields stay, declared ones are pruned by their schema. */
function walkPreserving(x: unknown, s: Structural | undefined, paths: UnknownFieldPaths): void {
  if (s === undefined) return;
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      if (s.xEmbeddedResource && metaFields.has(k)) continue;
      const prop = s.properties?.get(k);
      if (prop !== undefined) paths.withKey(k, () => walk(x[k], prop, paths));
      else if (s.additionalProperties !== undefined) paths.withKey(k, () => walk(x[k], s.additionalProperties!.structural, paths));
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => paths.withIndex(i, () => walkPreserving(v, s.items, paths)));
  }
}
