// Removing the fields of a set from an object, and the set operations that make "a struct field
// with children" count as the field itself when removing (upstream's EnsureNamedFieldsAreMembers).
import { FieldSet, FieldSetBuilder } from './field-set.js';
import { elementOf } from './fields-of.js';
import { isPlainObject, setOwn, type JsonObject } from './json.js';
import { field, type Path } from './path.js';
import { concreteType, fieldType, typeOfSchema, type TypeNode } from './type.js';

const UNTYPED = typeOfSchema(undefined);

/**
 * `value` without the list items and fields in `remove`. Like upstream, a map or list left with
 * nothing becomes null rather than disappearing.
 */
export function removeFields(type: TypeNode, value: unknown, remove: FieldSet): unknown {
  return removeAt(type, value, remove, []);
}

function removeAt(t: TypeNode, v: unknown, remove: FieldSet, path: Path): unknown {
  const ct = concreteType(t, v);
  if (ct.kind === 'list') {
    if (!Array.isArray(v) || v.length === 0 || ct.listType === 'atomic') return null;
    const out: unknown[] = [];
    v.forEach((item, i) => {
      const pe = elementOf(ct, item, i, path);
      if (remove.hasMember(pe)) return;
      const below = remove.withPrefix(pe);
      out.push(below.isEmpty() ? item : removeAt(ct.element, item, below, [...path, pe]));
    });
    return out.length > 0 ? out : null;
  }
  if (ct.kind === 'map') {
    if (!isPlainObject(v) || Object.keys(v).length === 0 || ct.atomic) return null;
    const out: JsonObject = {};
    for (const [k, child] of Object.entries(v)) {
      const pe = field(k);
      if (remove.hasMember(pe)) continue;
      const below = remove.withPrefix(pe);
      setOwn(out, k, below.isEmpty() ? child : removeAt(fieldType(ct, k) ?? UNTYPED, child, below, [...path, pe]));
    }
    return Object.keys(out).length > 0 ? out : null;
  }
  return v;
}

/** `set` with every declared struct field that has paths below it also a member itself. */
export function withNamedFieldsAsMembers(type: TypeNode, set: FieldSet): FieldSet {
  const named = new FieldSetBuilder();
  addNamedFields(type, set, [], named);
  return set.union(named.build());
}

function addNamedFields(t: TypeNode | undefined, set: FieldSet, path: Path, b: FieldSetBuilder): void {
  for (const pe of set.childElements()) {
    let child: TypeNode | undefined;
    if (t?.kind === 'map' && pe.kind === 'field') {
      if (t.field(pe.name) !== undefined) b.insert([...path, pe]);
      child = fieldType(t, pe.name);
    } else if (t?.kind === 'list' && pe.kind === 'key') {
      child = t.element;
    }
    addNamedFields(child, set.withPrefix(pe), [...path, pe], b);
  }
}

