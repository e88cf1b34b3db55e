// Walks over built documents: every object with its JSON pointer, and every schema inside a
// schema. The tests check whole documents with these.
import { isJsonObject, type JsonObject, type JsonValue } from './types.js';

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Every object inside `value` (itself included), with its JSON pointer. */
export function* objectsIn(value: JsonValue, pointer = ''): Generator<[string, JsonObject]> {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) yield* objectsIn(v, `${pointer}/${i}`);
  } else if (isJsonObject(value)) {
    yield [pointer, value];
    for (const [k, v] of Object.entries(value)) yield* objectsIn(v, `${pointer}/${escape(k)}`);
  }
}

/** `schema` and every schema nested in it (properties, items, additionalProperties, allOf/anyOf/oneOf, not), with pointers. */
export function* schemasIn(schema: JsonValue, pointer: string): Generator<[string, JsonObject]> {
  if (!isJsonObject(schema)) return;
  yield [pointer, schema];
  const { properties, items, additionalProperties, not } = schema;
  if (isJsonObject(properties)) {
    for (const [k, v] of Object.entries(properties)) yield* schemasIn(v, `${pointer}/properties/${escape(k)}`);
  }
  if (items !== undefined) yield* schemasIn(items, `${pointer}/items`);
  if (isJsonObject(additionalProperties)) yield* schemasIn(additionalProperties, `${pointer}/additionalProperties`);
  if (not !== undefined) yield* schemasIn(not, `${pointer}/not`);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const [i, s] of list.entries()) yield* schemasIn(s, `${pointer}/${key}/${i}`);
  }
}

/** The value at a local JSON pointer (`#/definitions/...`), or undefined. */
export function resolvePointer(doc: JsonValue, ref: string): JsonValue | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let at: JsonValue | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isJsonObject(at) || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = at[key];
  }
  return at;
}
