// One serialised form per document: object keys sorted at every level (as upstream's documents
// are), so the bytes, and the hash clients cache them by, depend only on what is served.
import { createHash } from 'node:crypto';
import { isJsonObject, type JsonObject, type JsonValue } from './types.js';

/** A copy of `value` with the keys of every object in sorted order; arrays keep their order. */
export function sortedKeys<T extends JsonValue>(value: T): T;
export function sortedKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map((v) => sortedKeys(v));
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const k of Object.keys(value).sort()) out[k] = sortedKeys(value[k]!);
  return out;
}

/** The bytes to serve for a document (compact JSON); the OpenAPI v3 index hashes exactly these. */
export function serializeOpenAPI(doc: object): string {
  return JSON.stringify(doc);
}

/** Upstream's document hash: the SHA-512 of the served bytes, as upper-case hex. */
export function openAPIHash(doc: object): string {
  return createHash('sha512').update(serializeOpenAPI(doc)).digest('hex').toUpperCase();
}
