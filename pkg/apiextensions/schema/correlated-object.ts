// An updated object beside the object it replaces, place by place, as upstream correlates them
// for validation ratcheting (k8s.io/apiserver's common.CorrelatedObject): fields by name,
// items of `x-kubernetes-list-type: map` lists by their keys; other list items have no old value.
// Whether a place is unchanged is computed once and kept, so parents reuse their children's answer.
import { hasField, isObject, jsonEqual } from './json-schema-props.js';
import type { Structural } from './structural.js';

type Key = string | number;

export class CorrelatedObject {
  private children: Map<Key, CorrelatedObject | undefined> | undefined;
  private equal: boolean | undefined;
  private oldByKey: Map<string, unknown> | undefined;
  private unkeyedOld: unknown[] | undefined;

  constructor(readonly value: unknown, readonly oldValue: unknown, readonly schema: Structural | undefined) {}

  /** The correlation of field `name`, undefined when old or new lacks it or the schema does not describe it. */
  key(name: string): CorrelatedObject | undefined {
    if (this.schema === undefined) return undefined;
    if (this.children?.has(name)) return this.children.get(name);
    if (!isObject(this.value) || !isObject(this.oldValue) || !hasField(this.value, name) || !hasField(this.oldValue, name)) return undefined;
    const fieldSchema = this.schema.properties?.get(name) ?? this.schema.additionalProperties?.structural;
    if (fieldSchema === undefined) return undefined;
    return this.remember(name, new CorrelatedObject(this.value[name], this.oldValue[name], fieldSchema));
  }

  /** The correlation of item `i`: only items of map lists have an old value, found by their keys. */
  index(i: number): CorrelatedObject | undefined {
    if (this.schema === undefined) return undefined;
    if (this.children?.has(i)) return this.children.get(i);
    if (!Array.isArray(this.value) || i >= this.value.length || !Array.isArray(this.oldValue)) return undefined;
    if (this.schema.xListType !== 'map') return undefined;
    const old = this.oldItemFor(this.value[i]);
    if (old === undefined || this.schema.items === undefined) return undefined;
    return this.remember(i, new CorrelatedObject(this.value[i], old, this.schema.items));
  }

  private remember(k: Key, c: CorrelatedObject): CorrelatedObject {
    (this.children ??= new Map()).set(k, c);
    return c;
  }

  /** The old item with the same key values, matched lazily as upstream's MapList does. */
  private oldItemFor(item: unknown): unknown {
    const keys = this.schema?.xListMapKeys ?? [];
    if (this.schema?.type !== 'array' || keys.length === 0 || !isObject(item)) return undefined;
    const key = compositeKey(item, keys);
    if (key === undefined) return undefined;
    this.oldByKey ??= new Map();
    this.unkeyedOld ??= [...(this.oldValue as unknown[])];
    const found = this.oldByKey.get(key);
    if (found !== undefined) return found;
    while (this.unkeyedOld.length > 0) {
      const old = this.unkeyedOld.shift();
      if (!isObject(old)) continue;
      const k = compositeKey(old, keys);
      if (k === undefined) continue;
      if (!this.oldByKey.has(k)) this.oldByKey.set(k, old);
      if (k === key) return old;
    }
    return undefined;
  }

  /** Whether old and new are equal here, compared through the correlation of the children. */
  unchanged(): boolean {
    if (this.equal === undefined) this.equal = this.compare();
    return this.equal;
  }

  private compare(): boolean {
    const { value, oldValue } = this;
    if (value === null && oldValue === null) return true;
    if (value === null || oldValue === null || value === undefined || oldValue === undefined) return false;
    if (Array.isArray(value) !== Array.isArray(oldValue) || isObject(value) !== isObject(oldValue)) return false;
    if (Array.isArray(value)) {
      // Only items of map lists correlate; other lists are compared whole.
      if (this.schema?.xListType !== 'map') return jsonEqual(oldValue, value);
      if (value.length !== (oldValue as unknown[]).length) return false;
      for (let i = 0; i < value.length; i++) {
        const child = this.index(i);
        if (child === undefined || !child.unchanged()) return false;
      }
      return true;
    }
    if (isObject(value)) {
      if (Object.keys(value).length !== Object.keys(oldValue as object).length) return false;
      for (const k of Object.keys(value)) {
        const child = this.key(k);
        if (child === undefined || !child.unchanged()) return false;
      }
      return true;
    }
    return jsonEqual(oldValue, value);
  }
}

/** A map list item's key: its key fields' scalar values, or undefined when one is missing or not a scalar. */
function compositeKey(item: Record<string, unknown>, keys: readonly string[]): string | undefined {
  const parts: unknown[] = [];
  for (const k of keys) {
    if (!hasField(item, k)) return undefined;
    const v = item[k];
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;
    parts.push(v);
  }
  return JSON.stringify(parts);
}
