// The schema of one served version of a CRD, compiled once and applied to its custom resources
// as apiextensions-apiserver 1.30 applies it: decoding (prune unknown fields, drop unacceptable
// nulls, coerce ObjectMeta, report unknown fields for fieldValidation), defaulting (on write and
// on read from storage), validation (OpenAPI v3 with ratcheting on update, embedded resources,
// list types, x-kubernetes-validations through pkg/cel) and the status sub-resource's validation.
// What server-side apply and OpenAPI read of the version is customresource/internal-schema.ts.
import { validateWithRules } from '../../cel/validation-rules.js';
import type { Schema as RulesSchema } from '../../cel/types.js';
import { CustomResourceDecodeError, type CustomResourceSchema as Seam } from '../../runtime/custom-resource-schema.js';
import { errorMessage, type FieldError } from '../../runtime/field-errors.js';
import { CorrelatedObject } from './correlated-object.js';
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from './defaulting.js';
import { goV } from './go-value.js';
import { hasField, isObject, type JSONSchemaProps } from './json-schema-props.js';
import { validateListSetsAndMaps } from './list-type-validation.js';
import { coerceEmbedded, decodeObjectMeta, validateEmbedded } from './object-meta.js';
import { toFieldErrors } from './openapi-errors.js';
import { pruneDefaults } from './prune-defaults.js';
import { prune } from './pruning.js';
import { cloneStructural, newStructural, visitStructural, type Structural } from './structural.js';
import { valueSchemaOf, type ValueSchema } from './value-schema.js';
import { validateValue } from './value-validator.js';

export interface CustomResourceSchemaOptions {
  /** spec.preserveUnknownFields of a legacy CRD: nothing is pruned. Always false for CRDs written as v1. */
  preserveUnknownFields?: boolean;
}

export interface DecodeOptions {
  /** The object comes from storage: malformed metadata is dropped rather than refused, a missing generation becomes 1. */
  fromStorage?: boolean;
}

/** Go's %T of a decoded JSON value. */
function goTypeOf(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
}

export class CustomResourceSchema implements Seam {
  /** The structural schema, defaults pruned as upstream prunes them before serving; undefined without a schema. */
  readonly structural: Structural | undefined;
  /** Whether some place of the schema has a default: objects read from storage are defaulted only then. */
  readonly hasDefaults: boolean = false;
  private readonly values: ValueSchema | undefined;
  private readonly statusValues: ValueSchema | undefined;

  /**
   * Compiles a version's `openAPIV3Schema` (undefined: none, legacy CRDs only). Throws
   * StructuralSchemaError for a schema upstream cannot read as structural; CRD validation
   * (validateCustomResourceSchema) refuses such schemas before they are served.
   */
  constructor(readonly props: JSONSchemaProps | undefined, private readonly opts: CustomResourceSchemaOptions = {}) {
    if (props === undefined) return;
    const s = cloneStructural(newStructural(props));
    if (!opts.preserveUnknownFields) pruneDefaults(s);
    this.structural = s;
    let defaults = false;
    visitStructural(s, (x) => {
      if (x.default !== undefined) defaults = true;
    });
    this.hasDefaults = defaults;
    this.values = valueSchemaOf(props);
    const status = isObject(props.properties) ? props.properties.status : undefined;
    if (status !== undefined) this.statusValues = valueSchemaOf(status);
  }

  /**
   * Decodes a custom resource in place, as upstream's decoder does after reading JSON or YAML:
   * ObjectMeta decoded as Go decodes it, unknown fields pruned, nulls nothing accepts dropped,
   * embedded resources coerced. Returns the paths of the unknown fields (for fieldValidation:
   * Strict refuses with `strict decoding error: unknown field "<path>"`, Warn warns with
   * `unknown field "<path>"`, Ignore ignores them). Throws CustomResourceDecodeError for what cannot be
   * decoded (upstream answers 400: `<Kind> in version "<v>" cannot be handled as a <Kind>: <why>`).
   */
  prune(obj: Record<string, unknown>, opts: DecodeOptions = {}): string[] {
    const fromStorage = opts.fromStorage === true;
    for (const k of ['kind', 'apiVersion']) {
      if (hasField(obj, k) && typeof obj[k] !== 'string') {
        throw new CustomResourceDecodeError(`.${k} accessor error: ${goV(obj[k])} is of the type ${goTypeOf(obj[k])}, expected string`);
      }
    }
    const meta = decodeObjectMeta(obj, fromStorage);
    if (meta.error !== undefined) throw new CustomResourceDecodeError(meta.error);
    const unknown = [...meta.unknown];
    if (!this.opts.preserveUnknownFields) {
      unknown.push(...prune(obj, this.structural, true, true));
      pruneNonNullableNullsWithoutDefaults(obj, this.structural);
    }
    const coerced = coerceEmbedded(undefined, obj, this.structural, false, { dropInvalidFields: fromStorage });
    if (coerced.error !== undefined) throw new CustomResourceDecodeError(errorMessage(coerced.error));
    unknown.push(...coerced.unknown);
    if (meta.meta !== undefined) {
      if (fromStorage && !meta.meta.generation) meta.meta.generation = 1;
      obj.metadata = meta.meta;
    }
    return unknown;
  }

  /** Applies the schema's defaults in place: to what a client sent, and to what is read from storage (fields stored before their default existed). */
  default(obj: Record<string, unknown>): void {
    applyDefaults(obj, this.structural);
  }

  /**
   * The 422 causes of a custom resource under the schema: OpenAPI v3 validation, embedded
   * resources, list-type sets and maps. With `old` (an update), validation ratchets: errors at
   * places whose value did not change are dropped, and list-type duplicates count only if the
   * old object had none. The caller adds the checks that are not the schema's (TypeMeta,
   * ObjectMeta of the resource, scale paths); validate adds the CEL rules.
   */
  schemaErrors(obj: Record<string, unknown>, old?: Record<string, unknown>): FieldError[] {
    const errs: FieldError[] = [];
    if (this.values !== undefined) {
      const correlation = old !== undefined ? new CorrelatedObject(obj, old, this.structural) : undefined;
      errs.push(...toFieldErrors(validateValue(this.values, obj, correlation).errors));
    }
    errs.push(...validateEmbedded(undefined, obj, this.structural, false));
    errs.push(...this.listTypeErrors(obj, old));
    return errs;
  }

  /**
   * The 422 causes of a write to the status sub-resource: `status` against its own schema
   * (reported under `status.`, as upstream since 1.31; 1.28 to 1.30 left the prefix out), and
   * list types of the whole object unless the old object already broke them.
   */
  statusSchemaErrors(obj: Record<string, unknown>, old: Record<string, unknown>): FieldError[] {
    const errs: FieldError[] = [];
    if (this.statusValues !== undefined && hasField(obj, 'status')) {
      errs.push(...toFieldErrors(validateValue(this.statusValues, obj.status).errors, 'status'));
    }
    errs.push(...this.listTypeErrors(obj, old));
    return errs;
  }

  /** The schema's errors and those of its x-kubernetes-validations rules (transition rules against `old`). */
  async validate(obj: Record<string, unknown>, old?: Record<string, unknown>): Promise<FieldError[]> {
    return [...this.schemaErrors(obj, old), ...(await this.ruleErrors(obj, old))];
  }

  /** A status write's errors: the status schema's, and the rules of the whole object, as upstream's status strategy checks. */
  async validateStatus(obj: Record<string, unknown>, old: Record<string, unknown>): Promise<FieldError[]> {
    return [...this.statusSchemaErrors(obj, old), ...(await this.ruleErrors(obj, old))];
  }

  private async ruleErrors(obj: Record<string, unknown>, old: Record<string, unknown> | undefined): Promise<FieldError[]> {
    return this.props === undefined ? [] : validateWithRules(this.props as RulesSchema, obj, old);
  }

  private listTypeErrors(obj: Record<string, unknown>, old: Record<string, unknown> | undefined): FieldError[] {
    const errs = validateListSetsAndMaps(undefined, this.structural, obj);
    if (errs.length === 0 || old === undefined) return errs;
    return validateListSetsAndMaps(undefined, this.structural, old).length === 0 ? errs : [];
  }
}
