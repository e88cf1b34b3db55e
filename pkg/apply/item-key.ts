// The path element naming an item of a set or map list: its value, or its key fields (with a
// key field's schema default when the item leaves it out).
import { isPlainObject } from '../runtime/schema-node.js';
import { goQuote } from './go-format.js';
import { key, value, type JsonValue, type PathElement } from './path.js';
import type { ListType } from './type.js';

/** The element naming `item` in a list of type `t` (a set or map list); throws Error with upstream's wording. */
export function itemElement(t: ListType, item: unknown): PathElement {
  if (t.listType === 'map') {
    if (item === null) throw new Error('associative list with keys may not have a null element');
    if (!isPlainObject(item)) throw new Error('associative list with keys may not have non-map elements');
    const fields: Record<string, JsonValue> = {};
    let found = false;
    for (const name of t.keys) {
      if (Object.hasOwn(item, name)) {
        fields[name] = item[name] as JsonValue;
        found = true;
      } else {
        const def = t.keyDefault(name);
        if (def !== undefined) {
          fields[name] = def as JsonValue;
          found = true;
        }
      }
    }
    if (!found) {
      throw new Error(`associative list with keys has an element that omits all key fields [${t.keys.map(goQuote).join(' ')}] (and doesn't have default values for any key fields)`);
    }
    return key(fields);
  }
  if (isPlainObject(item)) throw new Error("associative list without keys has an element that's a map type");
  if (Array.isArray(item)) throw new Error('not supported: associative list with lists as elements');
  if (item === null) throw new Error("associative list without keys has an element that's an explicit null");
  return value(item as JsonValue);
}
