// The strategy every kind starts from, built from its scheme entry and its validation rules;
// kinds with extra behaviour override single hooks (see ../strategies.ts).
import { isDeepStrictEqual } from 'node:util';
import type { ResourceInfo } from '../../runtime/scheme.js';
import type { SchemaValidator } from '../../runtime/schema-validator.js';
import type { StoredObject } from '../../storage/interface.js';
import type { Strategy } from '../rest/strategy.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../validation/object-meta.js';

export interface StrategyOverrides {
  prepareForCreate?: (obj: StoredObject) => void;
  returnDeletedObject?: boolean;
  /** Extra selectable fields beyond metadata.name and metadata.namespace. */
  selectableFields?: Record<string, (obj: StoredObject) => string>;
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
  const extraFields = overrides.selectableFields ?? {};
  const schemaErrors = (obj: StoredObject) => schemas.check(info.schema, obj).fieldErrors;
  return {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
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
    prepareForCreate(obj) {
      if (hasStatusSubresource) delete obj.status;
      if (tracksGeneration) obj.metadata.generation = 1;
      overrides.prepareForCreate?.(obj);
    },
    prepareForUpdate(obj, old) {
      if (hasStatusSubresource) {
        if (old.status === undefined) delete obj.status;
        else obj.status = old.status;
      }
      if (tracksGeneration) {
        const changed = !isDeepStrictEqual(obj.spec ?? null, old.spec ?? null);
        obj.metadata.generation = (old.metadata.generation ?? 1) + (changed ? 1 : 0);
      } else if (old.metadata.generation !== undefined) {
        obj.metadata.generation = old.metadata.generation;
      }
    },
    validate(obj) {
      return [
        ...validateObjectMeta(obj.metadata, info.namespaced, validation.name),
        ...schemaErrors(obj),
        ...validation.validate(obj),
      ];
    },
    validateUpdate(obj, old) {
      return [
        ...validateObjectMeta(obj.metadata, info.namespaced, validation.name),
        ...validateObjectMetaUpdate(obj.metadata, old.metadata),
        ...schemaErrors(obj),
        ...validation.validateUpdate(obj, old),
      ];
    },
  };
}

/**
 * The strategy of the status sub-resource: the update keeps everything of the stored object but
 * its status (and the resourceVersion the client sent, for the conflict check).
 */
export function newStatusStrategy(
  info: ResourceInfo,
  main: Strategy,
  validation: KindValidation<StoredObject>,
  schemas: SchemaValidator,
): Strategy {
  return {
    ...main,
    allowCreateOnUpdate: false,
    prepareForCreate() {
      throw new Error(`create is not served through ${info.resource}/status`);
    },
    prepareForUpdate(obj, old) {
      const status = obj.status;
      for (const key of Object.keys(obj)) delete obj[key];
      Object.assign(obj, structuredClone(old));
      if (status === undefined) delete obj.status;
      else obj.status = status;
    },
    validateUpdate(obj, old) {
      return [...schemas.check(info.schema, obj).fieldErrors, ...(validation.validateStatusUpdate?.(obj, old) ?? [])];
    },
  };
}
