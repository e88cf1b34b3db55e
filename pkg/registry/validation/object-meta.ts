// Validation of metadata shared by every kind (upstream ValidateObjectMeta / ValidateObjectMetaUpdate).
import type { ObjectMeta } from '../../../api/meta/v1/types.js';
import { forbidden, invalid, required, tooLong, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateImmutableField } from './immutable.js';
import { validateLabels } from './label-selector.js';
import { isDNS1123Label, isQualifiedName, type NameValidator } from './names.js';

const TotalAnnotationSizeLimit = 256 * 1024;

/** Finalizers that need no domain prefix, as upstream allows: orphan, foregroundDeletion and the namespace finalizer. */
export function standardFinalizers(namespaceFinalizer: string): ReadonlySet<string> {
  return new Set(['orphan', 'foregroundDeletion', namespaceFinalizer]);
}

/**
 * Checks metadata of a new or updated object of a kind whose names follow `validateName`;
 * finalizers must be `standard` or carry a domain.
 */
export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, validateName: NameValidator, standard: { has(name: string): boolean }, path = Path.root('metadata')): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const m of validateName(meta.generateName, true)) errs.push(invalid(path.child('generateName'), meta.generateName, m));
  }
  if (!meta.name) {
    errs.push(required(path.child('name'), 'name or generateName is required'));
  } else {
    for (const m of validateName(meta.name, false)) errs.push(invalid(path.child('name'), meta.name, m));
  }
  if (namespaced) {
    if (!meta.namespace) errs.push(required(path.child('namespace')));
    else for (const m of isDNS1123Label(meta.namespace)) errs.push(invalid(path.child('namespace'), meta.namespace, m));
  } else if (meta.namespace) {
    errs.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  if ((meta.generation ?? 0) < 0) errs.push(invalid(path.child('generation'), meta.generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(meta.labels, path.child('labels')));
  let size = 0;
  for (const [k, v] of Object.entries(meta.annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid(path.child('annotations'), k, m));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > TotalAnnotationSizeLimit) errs.push(tooLong(path.child('annotations'), '', TotalAnnotationSizeLimit));
  const seen = new Set<string>();
  (meta.finalizers ?? []).forEach((f, i) => {
    for (const m of isQualifiedName(f)) errs.push(invalid(path.child('finalizers').index(i), f, m));
    if (!f.includes('/') && !standard.has(f)) {
      errs.push(invalid(path.child('finalizers').index(i), f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
    if (seen.has(f)) errs.push(invalid(path.child('finalizers').index(i), f, 'duplicate finalizer'));
    seen.add(f);
  });
  (meta.ownerReferences ?? []).forEach((ref, i) => {
    const p = path.child('ownerReferences').index(i);
    if (!ref.apiVersion) errs.push(invalid(p.child('apiVersion'), ref.apiVersion, 'version must not be empty'));
    if (!ref.kind) errs.push(invalid(p.child('kind'), ref.kind, 'kind must not be empty'));
    if (!ref.name) errs.push(invalid(p.child('name'), ref.name, 'name must not be empty'));
    if (!ref.uid) errs.push(invalid(p.child('uid'), ref.uid, 'uid must not be empty'));
  });
  if ((meta.ownerReferences ?? []).filter((r) => r.controller).length > 1) {
    errs.push(invalid(path.child('ownerReferences'), meta.ownerReferences, 'Only one reference can have Controller set to true'));
  }
  return errs;
}

/** Metadata fields a client may never change on update. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, path = Path.root('metadata')): FieldError[] {
  return [
    ...validateImmutableField(meta.name, old.name, path.child('name')),
    ...validateImmutableField(meta.namespace, old.namespace, path.child('namespace')),
    ...validateImmutableField(meta.uid, old.uid, path.child('uid')),
    ...validateImmutableField(meta.creationTimestamp, old.creationTimestamp, path.child('creationTimestamp')),
  ];
}
