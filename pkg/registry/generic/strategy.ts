// The strategy every kind starts from, built from its scheme entry and its validation rules;
// kinds with extra behaviour override single hooks (see ../strategies.ts).
import type { Subresource } from '../../../api/registration.js';
import type { ResourceInfo } from '../../runtime/scheme.js';
import type { SchemaValidator } from '../../runtime/schema-validator.js';
import { isDeepStrictEqual } from 'node:util';
import { sameOnWire } from '../../runtime/wire-shape.js';
import type { FieldError } from '../../runtime/field-errors.js';
import type { StoredObject } from '../../storage/interface.js';
import type { Strategy, WriteContext } from '../rest/strategy.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { standardFinalizers, validateObjectMeta, validateObjectMetaUpdate } from '../validation/object-meta.js';

export interface StrategyOverrides {
  /** Runs after the generic preparation of a new object. */
  prepareForCreate?: (obj: StoredObject, ctx: WriteContext) => void;
  /** Runs after the generic preparation of an update of the main resource. */
  prepareForUpdate?: (obj: StoredObject, old: StoredObject) => void;
  /** Runs after the generic preparation of an update through /status. */
  prepareForStatusUpdate?: (obj: StoredObject, old: StoredObject) => void;
  /** Runs after the generic preparation of an update through another object sub-resource, by name. */
  prepareForSubresourceUpdate?: Partial<Record<string, (obj: StoredObject, old: StoredObject) => void>>;
  /** Finalizers beyond metadata.finalizers (a Namespace's spec.finalizers). */
  pendingFinalizers?: (obj: StoredObject) => boolean;
  prepareForDeletion?: (obj: StoredObject) => void;
  validateDeletion?: (obj: StoredObject) => void;
  returnDeletedObject?: boolean;
  /** A PUT of a missing object creates it. */
  allowCreateOnUpdate?: boolean;
  /** An update without metadata.resourceVersion is refused (upstream's AllowUnconditionalUpdate false). */
  requireResourceVersion?: boolean;
  /** Finalizers without a domain path the kind accepts besides the standard ones. */
  standardFinalizers?: readonly string[];
  /** A create keeps the status the client sent, though the kind has a status sub-resource (upstream's Node). */
  statusOnCreate?: boolean;
  /** Extra selectable fields beyond metadata.name and metadata.namespace. */
  selectableFields?: Record<string, (obj: StoredObject) => string>;
}

/** Drops a cause the schema and the kind's rules both report (an enum value both refuse). */
function unique(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const key = `${e.type}\u0000${e.field}\u0000${JSON.stringify(e.badValue ?? null)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function hasProperty(info: ResourceInfo, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(info.schema.properties, name);
}

/** The strategy of the main resource. */
export function newStrategy(
  info: ResourceInfo,
  validation: KindValidation<StoredObject>,
  schemas: SchemaValidator,
  overrides: StrategyOverrides = {},
): Strategy {
  const hasStatusSubresource = info.subresources.includes('status');
  const tracksGeneration = hasProperty(info, 'spec');
  const specSchema = info.schema.properties.spec;
  const extraFields = overrides.selectableFields ?? {};
  const schemaErrors = (obj: StoredObject) => schemas.check(info.schema, obj).fieldErrors;
  const finalizers = new Set([...standardFinalizers(info.domain.namespaceFinalizer), ...(overrides.standardFinalizers ?? [])]);
  return {
    allowCreateOnUpdate: overrides.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: !overrides.requireResourceVersion,
    returnDeletedObject: overrides.returnDeletedObject ?? false,
    selectableFieldNames: new Set(['metadata.name', 'metadata.namespace', ...Object.keys(extraFields)]),
    selectableFields(obj) {
      const fields: Record<string, string> = {
        'metadata.name': obj.metadata.name ?? '',
        'metadata.namespace': obj.metadata.namespace ?? '',
      };
      for (const [name, get] of Object.entries(extraFields)) fields[name] = get(obj);
      return fields;
    },
    prepareForCreate(obj, ctx = {}) {
      if (hasStatusSubresource && !overrides.statusOnCreate) delete obj.status;
      if (tracksGeneration) obj.metadata.generation = 1;
      overrides.prepareForCreate?.(obj, ctx);
    },
    prepareForUpdate(obj, old) {
      if (hasStatusSubresource) {
        if (old.status === undefined) delete obj.status;
        else obj.status = old.status;
      }
      if (tracksGeneration) {
        // The stored spec carries the zero values filled in at write; the sent one may not.
        const changed = !sameOnWire(specSchema!, obj.spec, old.spec);
        obj.metadata.generation = (old.metadata.generation ?? 1) + (changed ? 1 : 0);
      } else if (old.metadata.generation !== undefined) {
        obj.metadata.generation = old.metadata.generation;
      }
      overrides.prepareForUpdate?.(obj, old);
    },
    validate(obj) {
      return unique([
        ...validateObjectMeta(obj.metadata, info.namespaced, validation.name, finalizers),
        ...schemaErrors(obj),
        ...validation.validate(obj),
      ]);
    },
    validateUpdate(obj, old) {
      return unique([
        ...validateObjectMeta(obj.metadata, info.namespaced, validation.name, finalizers),
        ...validateObjectMetaUpdate(obj.metadata, old.metadata),
        ...schemaErrors(obj),
        ...validation.validateUpdate(obj, old),
      ]);
    },
    hasPendingFinalizers(obj) {
      return (obj.metadata.finalizers ?? []).length > 0 || (overrides.pendingFinalizers?.(obj) ?? false);
    },
    prepareForDeletion(obj) {
      overrides.prepareForDeletion?.(obj);
    },
    validateDeletion(obj) {
      overrides.validateDeletion?.(obj);
    },
  };
}

/** Sub-resources that speak the kind itself (scale and token speak kinds of their own). */
export type ObjectSubresource = Exclude<Subresource, 'scale' | 'token' | 'binding' | 'eviction' | 'exec' | 'attach' | 'portforward' | 'proxy' | 'log'>;

/** What a sub-resource update takes from the client's object; everything else stays as stored. */
const subresourceFields: Record<ObjectSubresource, (from: StoredObject, to: StoredObject) => void> = {
  status(from, to) {
    if (from.status === undefined) delete to.status;
    else to.status = from.status;
  },
  finalize(from, to) {
    const finalizers = (from.spec as { finalizers?: unknown } | undefined)?.finalizers;
    to.spec = { ...((to.spec as object | undefined) ?? {}), finalizers: finalizers ?? [] };
  },
  // A CertificateSigningRequest's approval: only status.conditions is taken (spec and certificate stay).
  approval(from, to) {
    const sent = (from.status as { conditions?: unknown } | undefined)?.conditions;
    const status = { ...((to.status as Record<string, unknown> | undefined) ?? {}) };
    if (sent === undefined) delete status.conditions;
    else status.conditions = sent;
    to.status = status;
  },
  // A Pod's debugging containers: only spec.ephemeralContainers is taken; a change starts a new generation.
  ephemeralcontainers(from, to) {
    const spec = { ...((to.spec as Record<string, unknown> | undefined) ?? {}) };
    const before = spec.ephemeralContainers;
    const sent = (from.spec as { ephemeralContainers?: unknown } | undefined)?.ephemeralContainers;
    if (sent === undefined) delete spec.ephemeralContainers;
    else spec.ephemeralContainers = sent;
    to.spec = spec;
    if (!isDeepStrictEqual(before ?? [], sent ?? []) && to.metadata.generation !== undefined) to.metadata.generation += 1;
  },
};

/**
 * What a write through `subresource` would leave of `current` given the client's `sent` object:
 * `current` with only the sub-resource's fields taken from `sent` (what its field manager compares).
 */
export function subresourceView(subresource: string, sent: StoredObject, current: StoredObject): StoredObject {
  const take = subresourceFields[subresource as ObjectSubresource] as ((from: StoredObject, to: StoredObject) => void) | undefined;
  if (!take) return sent;
  const out = structuredClone(current);
  take(sent, out);
  return out;
}

/**
 * The strategy of a sub-resource: an update keeps the stored object but for the sub-resource's
 * fields (the resourceVersion the client sent has already been checked for conflicts).
 */
export function newSubresourceStrategy(
  info: ResourceInfo,
  subresource: ObjectSubresource,
  main: Strategy,
  validation: KindValidation<StoredObject>,
  schemas: SchemaValidator,
  overrides: StrategyOverrides = {},
): Strategy {
  const take = subresourceFields[subresource];
  return {
    ...main,
    allowCreateOnUpdate: false,
    prepareForCreate() {
      throw new Error(`create is not served through ${info.resource}/${subresource}`);
    },
    prepareForUpdate(obj, old) {
      const sent = { ...obj };
      for (const key of Object.keys(obj)) delete obj[key];
      Object.assign(obj, structuredClone(old));
      take(sent, obj);
      // The managed fields the handler recorded for this write, not the stored ones.
      obj.metadata = { ...obj.metadata };
      if (sent.metadata?.managedFields === undefined) delete obj.metadata.managedFields;
      else obj.metadata.managedFields = sent.metadata.managedFields;
      if (subresource === 'status') overrides.prepareForStatusUpdate?.(obj, old);
      else overrides.prepareForSubresourceUpdate?.[subresource]?.(obj, old);
    },
    validateUpdate(obj, old) {
      return [
        ...schemas.check(info.schema, obj).fieldErrors,
        ...(subresource === 'status'
          ? (validation.validateStatusUpdate?.(obj, old) ?? [])
          : (validation.validateSubresourceUpdate?.[subresource] ?? validation.validateUpdate)(obj, old)),
      ];
    },
  };
}
