// The strategy of a custom resource (upstream's customResourceStrategy and its status strategy):
// a create starts at generation 1 without status (with the status sub-resource); any change
// outside metadata starts a new generation; writes to the resource keep status as stored, writes
// to /status change only status; every write must carry metadata.resourceVersion. Objects are
// checked by their ObjectMeta, the definition's schema (the CustomResourceSchema seam) and the
// scale sub-resource's replica counts.
import { isDeepStrictEqual } from 'node:util';
import type { ObjectMeta } from '../../../api/meta/v1/types.js';
import type { ResourceInfo } from '../../runtime/scheme.js';
import type { Strategy } from '../../registry/rest/strategy.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../registry/validation/object-meta.js';
import { nameIsDNSSubdomain } from '../../registry/validation/names.js';
import type { StoredObject } from '../../storage/interface.js';
import type { CustomResourceScale } from './scale.js';

/** Upstream validates a custom resource's finalizers only as qualified names (and warns of the rest). */
const anyFinalizer = { has: () => true };

/** The object without its metadata: what a new generation is judged by. */
function withoutMetadata(obj: StoredObject): Record<string, unknown> {
  const { metadata: _m, ...rest } = obj;
  return rest;
}

/** The strategies of a custom resource version: the resource's own and, with the status sub-resource, its status's. */
export function customResourceStrategies(info: ResourceInfo, scale: CustomResourceScale | undefined): { main: Strategy; status?: Strategy } {
  const custom = info.custom!;
  const hasStatus = info.subresources.includes('status');
  const selectable = info.namespaced ? ['metadata.name', 'metadata.namespace'] : ['metadata.name'];
  const metaErrors = (obj: StoredObject) => validateObjectMeta(obj.metadata as ObjectMeta, info.namespaced, nameIsDNSSubdomain, anyFinalizer);
  const main: Strategy = {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    returnDeletedObject: false,
    selectableFieldNames: new Set(selectable),
    selectableFields(obj) {
      const fields: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
      if (info.namespaced) fields['metadata.namespace'] = obj.metadata.namespace ?? '';
      return fields;
    },
    prepareForCreate(obj) {
      if (hasStatus) delete obj.status;
      obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, old) {
      if (hasStatus) {
        if (old.status === undefined) delete obj.status;
        else obj.status = old.status;
      }
      const changed = !isDeepStrictEqual(withoutMetadata(obj), withoutMetadata(old));
      obj.metadata.generation = (old.metadata.generation ?? 0) + (changed ? 1 : 0);
    },
    async validate(obj) {
      return [...metaErrors(obj), ...(await custom.schema.validate(obj)), ...(scale?.validate(obj, false) ?? [])];
    },
    async validateUpdate(obj, old) {
      return [
        ...metaErrors(obj),
        ...validateObjectMetaUpdate(obj.metadata as ObjectMeta, old.metadata as ObjectMeta),
        ...(await custom.schema.validate(obj, old)),
        ...(scale?.validate(obj, false) ?? []),
      ];
    },
    hasPendingFinalizers: (obj) => (obj.metadata.finalizers ?? []).length > 0,
    prepareForDeletion: () => undefined,
    validateDeletion: () => undefined,
  };
  if (!hasStatus) return { main };
  const status: Strategy = {
    ...main,
    prepareForCreate() {
      throw new Error(`create is not served through ${info.resource}/status`);
    },
    prepareForUpdate(obj, old) {
      const sent = { ...obj };
      for (const key of Object.keys(obj)) delete obj[key];
      Object.assign(obj, structuredClone(old));
      if (sent.status === undefined) delete obj.status;
      else obj.status = sent.status;
      // The managed fields the handler recorded for this write, not the stored ones.
      obj.metadata = { ...obj.metadata };
      if (sent.metadata?.managedFields === undefined) delete obj.metadata.managedFields;
      else obj.metadata.managedFields = sent.metadata.managedFields;
    },
    async validateUpdate(obj, old) {
      return [
        ...validateObjectMetaUpdate(obj.metadata as ObjectMeta, old.metadata as ObjectMeta),
        ...(await custom.schema.validateStatus(obj, old)),
        ...(scale?.validate(obj, true) ?? []),
      ];
    },
  };
  return { main, status };
}
