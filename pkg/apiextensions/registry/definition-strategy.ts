// What CustomResourceDefinitions add to the generic strategy (upstream's customresourcedefinition
// strategy and REST): a new definition's status holds only its storage version; every write adds
// a new storage version to status.storedVersions; the first delete adds the cleanup finalizer and
// the Terminating condition, so the finalizer controller deletes the objects before the definition.
import type { ApiDomain } from '../../../api/domain.js';
import type { CustomResourceDefinition } from '../../../api/apiextensions/v1/custom-resource-definition.js';
import type { StrategyOverrides } from '../../registry/generic/strategy.js';
import type { StoredObject } from '../../storage/interface.js';
import { cleanupFinalizer, setCondition } from '../conditions.js';

const asDefinition = (o: StoredObject) => o as unknown as CustomResourceDefinition;

/** Adds the storage version to status.storedVersions when it is not there yet. */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = (crd.spec?.versions ?? []).find((v) => v.storage);
  if (!storage) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(storage.name)) stored.push(storage.name);
}

/**
 * Field selectors of custom resources are alpha in 1.30 (CustomResourceFieldSelectors, off):
 * upstream drops spec.versions[*].selectableFields unless the stored definition already uses them.
 */
function dropSelectableFields(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): void {
  if (old?.spec?.versions?.some((v) => v.selectableFields?.length)) return;
  for (const v of crd.spec?.versions ?? []) delete v.selectableFields;
}

export function customResourceDefinitionStrategy(domain: ApiDomain): StrategyOverrides {
  const finalizer = cleanupFinalizer(domain);
  return {
    requireResourceVersion: true,
    standardFinalizers: [finalizer],
    prepareForCreate: (obj) => {
      const crd = asDefinition(obj);
      crd.status = {};
      recordStorageVersion(crd);
      dropSelectableFields(crd, undefined);
    },
    prepareForUpdate: (obj, old) => {
      recordStorageVersion(asDefinition(obj));
      dropSelectableFields(asDefinition(obj), asDefinition(old));
    },
    // The first delete only marks the definition: its objects go first (the finalizer controller).
    pendingFinalizers: (obj) => obj.metadata.deletionTimestamp === undefined,
    prepareForDeletion: (obj) => {
      const crd = asDefinition(obj);
      const finalizers = (obj.metadata.finalizers ??= []);
      if (finalizers.includes(finalizer)) return;
      finalizers.push(finalizer);
      setCondition(crd, {
        type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      });
    },
  };
}
