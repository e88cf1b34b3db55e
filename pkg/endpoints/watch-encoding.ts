// Watch events encoded once per form, not once per watcher. The registry hands every watcher of a
// resource the same object instance for one event; the bytes of that event in one form (event
// type, media format, conversion, group-version) are kept beside the object and the same Buffer is
// written to every watcher wanting that form.
//
// They are kept for a while after they were last asked for, not for the object's life: the object
// of the last change stays in the watch cache until the next change, and its encodings beside it
// would more than double what the cache holds for every watched resource (1 KiB ConfigMaps: about
// 2.3 KiB of buffers and maps beside each). Every watcher of one event asks within moments; a
// watcher that resumes from the event window later gets the bytes encoded again, once.
import { upstreamInitialEventsEndAnnotation, type ApiDomain } from '../../api/domain.js';

/**
 * How long encodings are kept after they were last asked for: at least this; they go with the first
 * new encoding after twice this.
 */
export const ENCODING_KEEP_MS = 10_000;

type Forms = Map<string, Buffer>;

let current = new WeakMap<object, Forms>();
let previous = new WeakMap<object, Forms>();
let rotateAt = 0;

/**
 * The encoding of `obj` in the form named by `form` (equal names for equal bytes), computed by
 * `encode` the first time any watcher asks for it in the last ENCODING_KEEP_MS.
 */
export function encodedOnce(obj: object, form: string, encode: () => Buffer, now?: number): Buffer {
  // Every watcher but the first of an event finds its bytes here, without reading the clock.
  const shared = current.get(obj)?.get(form);
  if (shared) return shared;
  const at = now ?? performance.now();
  if (at >= rotateAt) {
    // The encodings asked for in the last period stay one more; older ones go.
    previous = at >= rotateAt + ENCODING_KEEP_MS ? new WeakMap() : current;
    current = new WeakMap();
    rotateAt = at + ENCODING_KEEP_MS;
  }
  let forms = current.get(obj);
  if (!forms) {
    forms = previous.get(obj) ?? new Map();
    current.set(obj, forms);
  }
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

/**
 * The BOOKMARK that ends a watch-list's initial events: the revision of the state they showed and
 * the domain's initial-events-end annotation set to "true", with upstream's key beside it for
 * stock client-go (api/domain.ts). One per watch.
 */
export function initialEventsEndObject(kind: string, apiVersion: string, resourceVersion: string, domain: ApiDomain): Record<string, unknown> {
  const annotations = Object.freeze({ [domain.initialEventsEndAnnotation]: 'true', [upstreamInitialEventsEndAnnotation]: 'true' });
  return Object.freeze({ kind, apiVersion, metadata: Object.freeze({ resourceVersion, annotations }) });
}
