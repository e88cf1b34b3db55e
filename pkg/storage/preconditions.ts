import type { Preconditions, StoredObject } from './interface.js';

/** Why `obj` fails the preconditions (upstream's wording), or undefined when it meets them. */
export function preconditionFailure(pre: Preconditions | undefined, obj: StoredObject): string | undefined {
  if (pre?.uid !== undefined && pre.uid !== obj.metadata.uid) {
    return `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`;
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== obj.metadata.resourceVersion) {
    return `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`;
  }
  return undefined;
}
