// Watch events encoded once per form, not once per watcher. The registry hands every watcher of a
// resource the same object instance for one event; the bytes of that event in one form (event
// type, media format, conversion, group-version) are kept beside the object and the same Buffer is
// written to every watcher wanting that form. Entries go with their object: once no watcher and no
// replay window holds the object, its encodings are collectable too.

const encodings = new WeakMap<object, Map<string, Buffer>>();

/**
 * The encoding of `obj` in the form named by `form` (equal names for equal bytes), computed by
 * `encode` the first time any watcher asks for it.
 */
export function encodedOnce(obj: object, form: string, encode: () => Buffer): Buffer {
  let forms = encodings.get(obj);
  if (!forms) encodings.set(obj, (forms = new Map()));
  let bytes = forms.get(form);
  if (!bytes) forms.set(form, (bytes = encode()));
  return bytes;
}

/**
 * A bookmark's object, one per resource kind and revision: the watchers told of the same progress
 * share it (and with it its encodings).
 */
const bookmarks = new Map<string, { revision: string; object: Record<string, unknown> }>();

export function bookmarkObject(kind: string, apiVersion: string, resourceVersion: string): Record<string, unknown> {
  const key = `${apiVersion}\u0000${kind}`;
  const last = bookmarks.get(key);
  if (last && last.revision === resourceVersion) return last.object;
  const object = Object.freeze({ kind, apiVersion, metadata: Object.freeze({ resourceVersion }) });
  bookmarks.set(key, { revision: resourceVersion, object });
  return object;
}
