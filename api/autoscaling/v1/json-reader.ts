// Reading JSON the way Go's encoding/json fills a typed struct: field names match exactly or, failing
// that, case-insensitively; null leaves the zero value; a value of the wrong type fails the whole
// decode. Upstream's autoscaling/v1 conversion ignores an annotation that does not decode, so the
// readers throw Decoded and the caller drops the annotation.

/** Thrown when a value does not decode into the Go type it is read as. */
export class Decoded extends Error {}

const fail = (what: string): never => {
  throw new Decoded(what);
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The named fields of a JSON object (a pointer to a struct): undefined for null or absent; throws for a non-object. */
export function optStruct<const K extends string>(raw: unknown, names: readonly K[]): Record<K, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isPlainObject(raw)) return fail('not an object');
  const keys = Object.keys(raw);
  const out = {} as Record<K, unknown>;
  for (const name of names) {
    const key = name in raw ? name : keys.find((k) => k.toLowerCase() === name.toLowerCase());
    out[name] = key === undefined ? undefined : raw[key];
  }
  return out;
}

/** The named fields of a JSON object (a struct value): every field undefined for null or absent. */
export function struct<const K extends string>(raw: unknown, names: readonly K[]): Record<K, unknown> {
  return optStruct(raw, names) ?? ({} as Record<K, unknown>);
}

/** A JSON string; '' for null or absent. */
export function readString(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  return typeof raw === 'string' ? raw : fail('not a string');
}

/** A JSON integer (a pointer to one): undefined for null or absent. */
export function readInt(raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  return typeof raw === 'number' && Number.isInteger(raw) && Math.abs(raw) <= 2 ** 31 ? raw : fail('not an int32');
}

/** A resource quantity (a pointer to one): undefined for null or absent; throws when it does not parse. */
export function readQuantity(raw: unknown): number | string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+|[KMGTPE]i|[numkMGTPE])?$/.test(raw)) return raw;
  return fail('not a quantity');
}

/** A JSON array: undefined for null or absent. */
export function readList(raw: unknown): unknown[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  return Array.isArray(raw) ? raw : fail('not an array');
}

/** A JSON object of strings (map[string]string): undefined for null or absent. */
export function readStringMap(raw: unknown): Record<string, string> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isPlainObject(raw)) return fail('not an object');
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, readString(v)]));
}

/** A metav1.Time: an RFC 3339 string, or undefined for null or absent. */
export function readTime(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  return typeof raw === 'string' && !Number.isNaN(Date.parse(raw)) && /^\d{4}-\d\d-\d\dT/.test(raw) ? raw : fail('not a time');
}
