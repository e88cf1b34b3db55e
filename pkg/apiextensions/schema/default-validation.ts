// Validation of a CRD schema's default values when the CRD is written (upstream's
// defaulting.ValidateDefaults): each default must survive pruning unchanged, be valid metadata
// where it lands in metadata, and pass the schema's own validation at its place, with the
// messages a custom resource would get (`...openAPIV3Schema.properties[spec].properties[x].default:
// Invalid value: ...`).
import { invalid, type FieldError, type Path } from '../../runtime/field-errors.js';
import { errorMessage } from '../../runtime/field-errors.js';
import { goBadValue } from './go-value.js';
import { deepCopyJSON, jsonEqual } from './json-schema-props.js';
import { coerceEmbedded, validateEmbedded } from './object-meta.js';
import { toFieldErrors } from './openapi-errors.js';
import { prune } from './pruning.js';
import { asResourceRoot, type Structural } from './structural.js';
import { childOf, indexOf, rootObject, withTypeMeta, type SurroundingObject } from './surrounding-object.js';
import { valueSchemaOfStructural } from './value-schema.js';
import { validateValue } from './value-validator.js';

/**
 * Checks a default against the CEL rules of its schema (pkg/cel plugs this in); `isResourceRoot`
 * tells whether `schema` is a resource's root, for `apiVersion`/`kind`/`metadata` in rules.
 */
export type DefaultRulesValidator = (path: Path, schema: Structural, value: unknown, isResourceRoot: boolean) => FieldError[];

export interface DefaultValidationOptions {
  /** Refuse defaults that pruning would change (upstream requires it unless the stored CRD already had such defaults). */
  requirePrunedDefaults: boolean;
  rules?: DefaultRulesValidator;
}

const validationRoot = (): SurroundingObject => withTypeMeta(rootObject, 'validation/v1', 'Validation');

/** The errors of the defaults in `s` (a CRD version's root schema at `path`); throws on an internal inconsistency, as upstream returns one. */
export function validateDefaults(path: Path, s: Structural, opts: DefaultValidationOptions): FieldError[] {
  const root = asResourceRoot(s);
  return walk(path, root, root, validationRoot(), false, opts);
}

function walk(path: Path, s: Structural | undefined, rootSchema: Structural, f: SurroundingObject, insideMeta: boolean, opts: DefaultValidationOptions): FieldError[] {
  if (s === undefined) return [];
  if (s.xEmbeddedResource) {
    insideMeta = false;
    f = validationRoot();
    rootSchema = s;
  }
  const errs: FieldError[] = [];
  if (s.default !== undefined) errs.push(...validateDefault(path, s, rootSchema, f, insideMeta, opts));
  if (s.items !== undefined) errs.push(...walk(path.child('items'), s.items, rootSchema, indexOf(f), insideMeta, opts));
  for (const [k, sub] of s.properties ?? []) {
    const subInsideMeta = insideMeta || (s.xEmbeddedResource && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    errs.push(...walk(path.child('properties').key(k), sub, rootSchema, childOf(f, k), subInsideMeta, opts));
  }
  return errs;
}

function validateDefault(path: Path, s: Structural, rootSchema: Structural, f: SurroundingObject, insideMeta: boolean, opts: DefaultValidationOptions): FieldError[] {
  const at = path.child('default');
  const value = s.default;
  const schemaErrors = () => toFieldErrors(validateValue(valueSchemaOfStructural(s), value).errors, String(at));
  const ruleErrors = () => opts.rules?.(at, s, value, s === rootSchema) ?? [];
  if (insideMeta) {
    // A default inside metadata is judged as the metadata of the whole object it would land in.
    const obj = f(deepCopyJSON(value)).obj;
    const coerced = coerceEmbedded(undefined, obj, rootSchema, true, { dropInvalidFields: false });
    if (coerced.error !== undefined) return [invalid(at, goBadValue(value), `must result in valid metadata: ${errorMessage(coerced.error)}`)];
    const metaErrs = validateEmbedded(undefined, obj, rootSchema, true);
    if (metaErrs.length > 0) return [invalid(at, goBadValue(value), `must result in valid metadata: ${aggregate(metaErrs)}`)];
  } else {
    const errs: FieldError[] = [];
    if (opts.requirePrunedDefaults) {
      const pruned = deepCopyJSON(value);
      prune(pruned, s, s.xEmbeddedResource);
      if (!jsonEqual(pruned, value)) errs.push(invalid(at, goBadValue(value), 'must not have unknown fields'));
    }
    const coerced = coerceEmbedded(at, value, s, s.xEmbeddedResource, { dropInvalidFields: false });
    if (coerced.error !== undefined) return [...errs, coerced.error];
    const metaErrs = validateEmbedded(at, value, s, s.xEmbeddedResource);
    if (metaErrs.length > 0) return [...errs, ...metaErrs];
    return [...errs, ...nonEmpty(schemaErrors()) ?? ruleErrors()];
  }
  return nonEmpty(schemaErrors()) ?? ruleErrors();
}

const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length > 0 ? list : undefined);

/** An aggregate of errors as apimachinery prints one: the message alone, or `[a, b]`. */
function aggregate(errs: FieldError[]): string {
  const msgs = [...new Set(errs.map(errorMessage))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}
