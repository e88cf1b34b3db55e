// Managed field sets written before a schema changed a node's topology (spec 4.9.8): a node that
// became atomic is owned whole by anyone who owned part of it, so later changes conflict. A node
// that became granular keeps its owners on the whole node, since ownership of parts cannot be inferred.
import { FieldSet, FieldSetBuilder } from './field-set.js';
import type { Path, PathElement } from './path.js';
import { fieldType, type TypeNode } from './type.js';

/** `set` adjusted to the current schema, or the same set when nothing changed. */
export function reconcileWithSchema(type: TypeNode, set: FieldSet): FieldSet {
  const remove = new FieldSetBuilder();
  const add = new FieldSetBuilder();
  let changed = false;
  const walk = (t: TypeNode | undefined, node: FieldSet | undefined, path: Path, atomic: boolean): void => {
    if (t === undefined || t.kind === 'scalar' || t.kind === 'deduced') return;
    if (t.kind === 'map' && t.deduced) return;
    const nowAtomic = t.kind === 'list' ? t.listType === 'atomic' : t.atomic;
    if (!atomic && nowAtomic) {
      if (node !== undefined && !node.isEmpty()) {
        remove.insert(path);
        add.insert(path);
        changed = true;
      }
      return;
    }
    if (node === undefined) return;
    const visit = (pe: PathElement, member: boolean) => {
      const below = node.withPrefix(pe);
      const hasChildren = !below.isEmpty();
      let child: TypeNode | undefined;
      if (t.kind === 'list') child = t.element;
      else child = pe.kind === 'field' ? fieldType(t, pe.name) : t.element;
      walk(child, hasChildren ? below : undefined, [...path, pe], member && !hasChildren);
    };
    for (const pe of node.childElements()) if (!node.hasMember(pe)) visit(pe, false);
    for (const pe of node.memberElements()) visit(pe, true);
  };
  walk(type, set, [], false);
  return changed ? set.recursiveDifference(remove.build()).union(add.build()) : set;
}
