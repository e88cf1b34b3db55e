// A default value placed where it applies inside an otherwise empty object (upstream's
// SurroundingObjectFunc), so it can be pruned, coerced and validated as part of a whole object
// and read back from there.
import { hasField, isObject } from './json-schema-props.js';

/** Reads the focus back out of the surrounding object: its value, not found, or why the object has the wrong shape. */
export type Accessor = (root: Record<string, unknown>) => { value: unknown; found: boolean } | { error: string };

/** Wraps a focus value into its surrounding object; throws when the focus cannot be the object's root. */
export type SurroundingObject = (focus: unknown) => { obj: Record<string, unknown>; acc: Accessor };

export const rootObject: SurroundingObject = (x) => {
  if (!isObject(x)) throw new Error('object root default value must be of object type');
  return { obj: x, acc: (root) => ({ value: root, found: true }) };
};

/** The focus as field `k` of what `f` surrounds. */
export function childOf(f: SurroundingObject, k: string): SurroundingObject {
  return (x) => {
    const { obj, acc } = f({ [k]: x });
    return {
      obj,
      acc: (root) => {
        const r = acc(root);
        if ('error' in r) return { error: `.${k}${r.error}` };
        if (!r.found) return r;
        if (!isObject(r.value)) return { error: `.${k} must be of object type` };
        return hasField(r.value, k) ? { value: r.value[k], found: true } : { value: undefined, found: false };
      },
    };
  };
}

/** The focus as the only item of a list that `f` surrounds. */
export function indexOf(f: SurroundingObject): SurroundingObject {
  return (x) => {
    const { obj, acc } = f([x]);
    return {
      obj,
      acc: (root) => {
        const r = acc(root);
        if ('error' in r) return { error: `[]${r.error}` };
        if (!r.found) return r;
        if (!Array.isArray(r.value)) return { error: '[] must be of array type' };
        return r.value.length === 0 ? { value: undefined, found: false } : { value: r.value[0], found: true };
      },
    };
  };
}

/** `f`, with apiVersion and kind set on the surrounding object when it lacks them. */
export function withTypeMeta(f: SurroundingObject, apiVersion: string, kind: string): SurroundingObject {
  return (x) => {
    const { obj, acc } = f(x);
    if (!hasField(obj, 'kind')) obj.kind = kind;
    if (!hasField(obj, 'apiVersion')) obj.apiVersion = apiVersion;
    return { obj, acc };
  };
}
