// The Table columns of a custom resource version, as upstream's tableconvertor prints them: the
// name, then the version's additionalPrinterColumns (an Age column when it has none), each cell
// the first value its JSONPath finds, typed by the column: a string as the jsonpath printer
// writes it, an integer, number or boolean as JSON, a date as a human duration since then.
import { nameColumn, timestampSince, type PrinterColumn, type PrinterColumnType } from '../../../api/printer-column.js';
import type { CustomResourceDefinitionVersion } from '../../../api/apiextensions/v1/custom-resource-definition.js';
import { JSONPath } from '../../util/jsonpath.js';

type Column = NonNullable<CustomResourceDefinitionVersion['additionalPrinterColumns']>[number];

/** What a version without columns of its own shows after the name (upstream's serveDefaultColumnsIfEmpty). */
const defaultColumns: Column[] = [{
  name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
}];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A float as Go's %v prints it: shortest digits, in e-notation from 1e+06 and below 1e-04. */
function goFloat(v: number): string {
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN';
  if (v === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(v)));
  if (exp < -4 || exp >= 6) {
    const [mantissa, e] = v.toExponential().split('e') as [string, string];
    const n = Number(e);
    return `${mantissa}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  return String(v);
}

/** JSON as Go's encoding/json writes it: map keys sorted, <, > and & escaped. */
function goJSON(v: unknown): string {
  const sorted = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sorted);
    if (!isObject(x)) return x;
    return Object.fromEntries(Object.keys(x).sort().map((k) => [k, sorted(x[k])]));
  };
  return JSON.stringify(sorted(v)).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}

/** A value as client-go's jsonpath printer writes it: maps and lists as JSON, anything else with %v. */
function printed(v: unknown): string {
  if (Array.isArray(v) || isObject(v)) return goJSON(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  return String(v);
}

/** The cell of a column of `type` for the value found (undefined: nothing found, a null cell). */
function cellOf(type: string, value: unknown, now: Date): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string': return printed(value);
    case 'integer': return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number': return typeof value === 'number' ? value : null;
    case 'boolean': return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      // Only RFC 3339 is a time here; anything else is upstream's <invalid>.
      if (!/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) return '<invalid>';
      return timestampSince(value, now);
    }
    default: return null;
  }
}

/** The Table columns of a version with these additionalPrinterColumns. */
export function printerColumnsOf(columns: readonly Column[] | undefined): PrinterColumn[] {
  const out: PrinterColumn[] = [nameColumn];
  for (const c of columns?.length ? columns : defaultColumns) {
    let path: JSONPath | undefined;
    try {
      path = JSONPath.parse(c.jsonPath);
    } catch {
      // An expression that does not parse prints nothing, as upstream's falls back for its cells.
    }
    out.push({
      name: c.name,
      type: c.type as PrinterColumnType,
      ...(c.format ? { format: c.format } : {}),
      description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
      priority: c.priority ?? 0,
      cell: (obj, now) => cellOf(c.type, path?.find(obj)[0], now),
    });
  }
  return out;
}
