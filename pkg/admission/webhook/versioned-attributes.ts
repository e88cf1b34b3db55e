// The request's object and old object as the kind a webhook is sent (upstream's
// VersionedAttributes): the request's own objects when the webhook matched the request's own
// resource, converted copies when it matched an equivalent one under matchPolicy Equivalent.
import { newInternalError } from '../../runtime/errors.js';
import type { AdmissionObject, Attributes, GroupVersionKind, ObjectInterfaces } from '../interfaces.js';

export interface VersionedObjects {
  kind: GroupVersionKind;
  object: AdmissionObject | undefined;
  oldObject: AdmissionObject | undefined;
}

export const sameKind = (a: GroupVersionKind, b: GroupVersionKind) => a.group === b.group && a.version === b.version && a.kind === b.kind;

/** Go's GroupVersionKind.String(). */
export const gvkString = (k: GroupVersionKind) => `${k.group}/${k.version}, Kind=${k.kind}`;

/** The request's objects as `kind`; throws 500 when they cannot be converted. */
export function versionedObjects(attrs: Attributes, kind: GroupVersionKind, objects: ObjectInterfaces | undefined): VersionedObjects {
  if (sameKind(kind, attrs.kind)) return { kind, object: attrs.object, oldObject: attrs.oldObject };
  if (!objects) throw newInternalError(`unable to convert to ${gvkString(kind)}: no conversion`);
  const convert = (o: AdmissionObject | undefined) => {
    if (!o) return undefined;
    try {
      return objects.convert(o, attrs.kind, kind);
    } catch (e) {
      throw newInternalError(e);
    }
  };
  return { kind, object: convert(attrs.object), oldObject: convert(attrs.oldObject) };
}
