// The options kinds that arrive as query parameters (PodExecOptions, PodLogOptions, ...), read as
// upstream's parameter codec converts url.Values into them: each field by its schema type, the
// first value of a scalar, a conversion error answered 400 with Go's text.
import type { TObject, TSchema } from '@sinclair/typebox';
import { parseGoRFC3339 } from '../util/rfc3339.js';
import { newBadRequest } from '../runtime/errors.js';
import { parseGoInt, queryBool } from './query.js';

const int32Range = [-(2n ** 31n), 2n ** 31n - 1n] as const;
const int64Range = [-(2n ** 63n), 2n ** 63n - 1n] as const;

/** An integer field of `schema` as strconv.ParseInt reads it, in the field's range. */
function integer(prop: TSchema, v: string): number {
  const [min, max] = prop.format === 'int32' ? int32Range : int64Range;
  return parseGoInt(v, min, max);
}

/**
 * A metav1.Time as its UnmarshalQueryParameter reads it: empty (or `null`) is the zero time,
 * anything else RFC 3339 as Go's time.Parse reads it; written back as time.RFC3339 formats it (UTC).
 */
function queryTime(v: string): string {
  if (v === '' || v === 'null') return '0001-01-01T00:00:00Z';
  const parsed = parseGoRFC3339(v);
  if ('error' in parsed) throw newBadRequest(parsed.error);
  const iso = new Date(Math.floor(parsed.ms / 1000) * 1000).toISOString();
  return iso.replace(/\.\d+Z$/, 'Z');
}

/** Reads the options kind's fields off the query; a field without a value is left out, as is a false flag. */
export function optionsFromQuery(kind: string, schema: TObject, query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = { kind, apiVersion: 'v1' };
  for (const [name, prop] of Object.entries(schema.properties as Record<string, TSchema>)) {
    if (name === 'kind' || name === 'apiVersion') continue;
    const values = query.getAll(name);
    if (values.length === 0) continue;
    switch (prop.type) {
      case 'boolean':
        if (queryBool(values)) out[name] = true;
        break;
      case 'string':
        if (prop.format === 'date-time') out[name] = queryTime(values[0]!);
        else if (values[0] !== '') out[name] = values[0];
        break;
      case 'integer':
        out[name] = integer(prop, values[0]!);
        break;
      case 'array': {
        const item = prop.items as TSchema;
        out[name] = item.type === 'integer' ? values.map((v) => integer(item, v)) : values;
        break;
      }
    }
  }
  return out;
}
