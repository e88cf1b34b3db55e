// The apiVersion and kind of a JSON body, read as upstream's JSON decoder reads them before it
// picks the type to decode into, with its wording for what it cannot read.

/** Group and version as Go's schema.ParseGroupVersion reads an apiVersion; more than one slash reads as none. */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (parts.length > 2 || apiVersion === '/') return { group: '', version: '' };
  return parts.length === 1 ? { group: '', version: parts[0]! } : { group: parts[0]!, version: parts[1]! };
}

/** The JSON type names Go's encoding/json uses in its unmarshal errors. */
function goJSONType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * The apiVersion and kind of a decoded JSON body (empty when absent or null). A body that is not
 * an object, or whose apiVersion or kind is not a string, throws `fail` with upstream's reason.
 */
export function readTypeMeta(value: unknown, fail: (why: string) => Error): { apiVersion: string; kind: string } {
  const prefix = "couldn't get version/kind; json parse error: json: cannot unmarshal";
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fail(`${prefix} ${goJSONType(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const read = (field: 'apiVersion' | 'kind'): string => {
    const v = (value as Record<string, unknown>)[field];
    if (v === undefined || v === null) return '';
    if (typeof v === 'string') return v;
    throw fail(`${prefix} ${goJSONType(v)} into Go struct field .${field} of type string`);
  };
  return { apiVersion: read('apiVersion'), kind: read('kind') };
}
