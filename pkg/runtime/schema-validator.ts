// Checks objects against their kind's schema with ajv (compiled once per kind, on first use).
// Wrong JSON types are decode errors (400, as upstream's decoder rejects them); everything else
// the schema says (required, enum, ranges, patterns) is validation and becomes 422 causes.
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import { invalid, notSupported, required, tooMany, type FieldError } from './field-errors.js';

const Ajv = AjvModule.default;

const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const quantityRe = /^[+-]?(\d+(\.\d*)?|\.\d+)(([KMGTPE]i)|[numkMGTPE]|[eE][+-]?\d+)?$/;
const base64Re = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Formats whose failure upstream reports while decoding (400) rather than validating (422). */
const decodeFormats = new Set(['date-time', 'quantity', 'byte']);

function newAjv() {
  return new Ajv({
    allErrors: true,
    useDefaults: true,
    strict: false,
    formats: {
      'date-time': { type: 'string', validate: (s: string) => rfc3339.test(s) && !Number.isNaN(Date.parse(s)) },
      quantity: { type: 'string', validate: (s: string) => quantityRe.test(s) },
      byte: { type: 'string', validate: (s: string) => base64Re.test(s) },
      int32: { type: 'number', validate: () => true },
      int64: { type: 'number', validate: () => true },
      'int-or-string': true,
    },
  });
}

function fieldOf(e: ErrorObject): string {
  return e.instancePath
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) && acc ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function valueAt(root: unknown, pointer: string): unknown {
  let cur: unknown = root;
  for (const seg of pointer.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

export interface SchemaCheck {
  /** Decode-level problems (wrong JSON types, unparsable times or quantities): the body is rejected with 400. */
  decodeErrors: string[];
  /** Validation problems, reported as 422 causes together with the kind's own rules. */
  fieldErrors: FieldError[];
}

export class SchemaValidator {
  private readonly ajv = newAjv();
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  private fn(schema: object): ValidateFunction {
    let f = this.compiled.get(schema);
    if (!f) {
      f = this.ajv.compile(schema);
      this.compiled.set(schema, f);
    }
    return f;
  }

  /** Applies schema defaults to `obj` in place and reports what does not fit the schema. */
  check(schema: object, obj: unknown): SchemaCheck {
    const f = this.fn(schema);
    f(obj);
    return classify(f.errors ?? [], obj);
  }
}

function classify(errors: ErrorObject[], root: unknown): SchemaCheck {
  const decodeErrors: string[] = [];
  const fieldErrors: FieldError[] = [];
  // A failed union (IntOrString, Quantity) reports every branch; keep one message for the union.
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  for (const e of errors) {
    const field = fieldOf(e);
    if (e.keyword !== 'anyOf' && unions.has(e.instancePath)) continue;
    switch (e.keyword) {
      case 'anyOf':
        decodeErrors.push(`${field}: expected an integer or a string, got ${describeType(valueAt(root, e.instancePath))}`);
        break;
      case 'type':
        decodeErrors.push(`${field || 'body'}: expected ${String(e.params.type)}, got ${describeType(valueAt(root, e.instancePath))}`);
        break;
      case 'format':
        if (decodeFormats.has(String(e.params.format))) {
          decodeErrors.push(`${field}: ${formatProblem(String(e.params.format), valueAt(root, e.instancePath))}`);
        } else {
          fieldErrors.push(invalid(field, valueAt(root, e.instancePath), `must be a valid ${String(e.params.format)}`));
        }
        break;
      case 'required': {
        const missing = String(e.params.missingProperty);
        fieldErrors.push(required(field ? `${field}.${missing}` : missing));
        break;
      }
      case 'enum':
        fieldErrors.push(notSupported(field, valueAt(root, e.instancePath), (e.params.allowedValues as unknown[]).map(String)));
        break;
      case 'const':
        fieldErrors.push(notSupported(field, valueAt(root, e.instancePath), [String(e.params.allowedValue)]));
        break;
      case 'minimum':
      case 'exclusiveMinimum':
        fieldErrors.push(invalid(field, valueAt(root, e.instancePath), `must be greater than ${e.keyword === 'minimum' ? 'or equal to ' : ''}${String(e.params.limit)}`));
        break;
      case 'maximum':
      case 'exclusiveMaximum':
        fieldErrors.push(invalid(field, valueAt(root, e.instancePath), `must be less than ${e.keyword === 'maximum' ? 'or equal to ' : ''}${String(e.params.limit)}`));
        break;
      case 'maxItems':
        fieldErrors.push(tooMany(field, (valueAt(root, e.instancePath) as unknown[]).length, Number(e.params.limit)));
        break;
      case 'minItems':
        fieldErrors.push(required(field, `must have at least ${String(e.params.limit)} item${e.params.limit === 1 ? '' : 's'}`));
        break;
      case 'pattern':
        fieldErrors.push(invalid(field, valueAt(root, e.instancePath), `must match the regular expression '${String(e.params.pattern)}'`));
        break;
      case 'maxLength':
        fieldErrors.push(invalid(field, valueAt(root, e.instancePath), `must be no more than ${String(e.params.limit)} characters`));
        break;
      case 'minLength':
        fieldErrors.push(e.params.limit === 1 ? required(field) : invalid(field, valueAt(root, e.instancePath), `must be at least ${String(e.params.limit)} characters`));
        break;
      default:
        fieldErrors.push(invalid(field, valueAt(root, e.instancePath), e.message ?? 'invalid value'));
    }
  }
  return { decodeErrors, fieldErrors };
}

function formatProblem(format: string, value: unknown): string {
  switch (format) {
    case 'date-time':
      return `cannot parse ${JSON.stringify(value)} as an RFC 3339 time`;
    case 'quantity':
      return `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`;
    default:
      return `illegal base64 data in ${JSON.stringify(value)}`;
  }
}
