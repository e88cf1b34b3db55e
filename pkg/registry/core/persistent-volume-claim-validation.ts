// Validation of PersistentVolumeClaim specs and claim templates (StatefulSet volumeClaimTemplates,
// generic ephemeral volumes), following upstream's ValidatePersistentVolumeClaimSpec.
import { isDeepStrictEqual } from 'node:util';
import type { PersistentVolumeClaim, PersistentVolumeClaimSpec } from '../../../api/core/v1/persistent-volume-claim.js';
import type { TypedLocalObjectReference, TypedObjectReference } from '../../../api/core/v1/object-reference.js';
import type { ObjectMeta } from '../../../api/meta/v1/types.js';
import { forbidden, invalid, notSupported, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { parseQuantity } from '../../runtime/quantity.js';
import { validateAnnotations } from '../validation/annotations.js';
import { validateLabelSelector, validateLabels } from '../validation/label-selector.js';
import { validateImmutableField } from '../validation/immutable.js';
import { shortDiff } from '../validation/short-diff.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { isDNS1123Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../validation/names.js';

// Upstream lists supported values sorted.
const supportedAccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'] as const;
const supportedVolumeModes = ['Block', 'Filesystem'] as const;

/**
 * Validates a claim used as a template (a StatefulSet volumeClaimTemplate): its name, labels and
 * annotations, and its spec. `path` points at the claim, e.g. `spec.volumeClaimTemplates[0]`.
 */
export function validatePersistentVolumeClaimTemplate(pvc: PersistentVolumeClaim, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const meta: ObjectMeta = pvc.metadata ?? {};
  const namePath = path.child('metadata', 'name');
  if (!meta.name) errs.push(required(namePath, ''));
  else for (const m of isDNS1123Subdomain(meta.name)) errs.push(invalid(namePath, meta.name, m));
  errs.push(...validateLabels(meta.labels, path.child('metadata', 'labels')));
  errs.push(...validateAnnotations(meta.annotations, path.child('metadata', 'annotations')));
  errs.push(...validatePersistentVolumeClaimSpec(pvc.spec ?? {}, path.child('spec')));
  return errs;
}

/** Validates a PersistentVolumeClaimSpec: access modes, storage request, class, mode and data sources. */
export function validatePersistentVolumeClaimSpec(spec: PersistentVolumeClaimSpec, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const modes: string[] = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(required(path.child('accessModes'), 'at least 1 access mode is required'));
  if (spec.selector) errs.push(...validateLabelSelector(spec.selector, path.child('selector')));

  let readWriteOncePod = false;
  let others = false;
  for (const mode of modes) {
    if (!(supportedAccessModes as readonly string[]).includes(mode)) {
      errs.push(notSupported(path.child('accessModes'), mode, supportedAccessModes));
    } else if (mode === 'ReadWriteOncePod') readWriteOncePod = true;
    else others = true;
  }
  if (readWriteOncePod && others) {
    errs.push(forbidden(path.child('accessModes'), 'may not use ReadWriteOncePod with other access modes'));
  }

  // Upstream reports the storage request at `resources[storage]`, not under requests.
  const storagePath = path.child('resources').key('storage');
  const storage = spec.resources?.requests?.['storage'];
  if (storage === undefined) {
    errs.push(required(storagePath, ''));
  } else {
    const value = parseQuantity(storage);
    if (value === undefined) errs.push(invalid(storagePath, storage, 'must be a valid resource quantity'));
    else if (value <= 0) errs.push(invalid(storagePath, String(storage), 'must be greater than zero'));
  }

  if (spec.storageClassName) {
    for (const m of isDNS1123Subdomain(spec.storageClassName)) errs.push(invalid(path.child('storageClassName'), spec.storageClassName, m));
  }
  const volumeMode: string | undefined = spec.volumeMode;
  if (volumeMode !== undefined && !(supportedVolumeModes as readonly string[]).includes(volumeMode)) {
    errs.push(notSupported(path.child('volumeMode'), volumeMode, supportedVolumeModes));
  }

  if (spec.dataSource) errs.push(...validateDataSource(spec.dataSource, path.child('dataSource')));
  if (spec.dataSourceRef) errs.push(...validateDataSourceRef(spec.dataSourceRef, path.child('dataSourceRef')));
  if (spec.dataSourceRef?.namespace) {
    if (spec.dataSource) {
      errs.push(invalid(path, String(path.child('dataSource')), 'may not be specified when dataSourceRef.namespace is specified'));
    }
  } else if (spec.dataSource && spec.dataSourceRef && !sameSource(spec.dataSource, spec.dataSourceRef)) {
    errs.push(invalid(path, String(path.child('dataSource')), 'must match dataSourceRef'));
  }
  if (spec.volumeAttributesClassName) {
    for (const m of isDNS1123Subdomain(spec.volumeAttributesClassName)) {
      errs.push(invalid(path.child('volumeAttributesClassName'), spec.volumeAttributesClassName, m));
    }
  }
  return errs;
}

function sameSource(a: TypedLocalObjectReference, b: TypedObjectReference): boolean {
  return (a.apiGroup ?? null) === (b.apiGroup ?? null) && a.kind === b.kind && a.name === b.name;
}

function validateDataSource(ref: TypedLocalObjectReference, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!ref.name) errs.push(required(path.child('name'), ''));
  if (!ref.kind) errs.push(required(path.child('kind'), ''));
  const apiGroup = ref.apiGroup ?? '';
  if (apiGroup === '' && ref.kind !== 'PersistentVolumeClaim') {
    errs.push(invalid(path, ref.kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (apiGroup !== '') for (const m of isDNS1123Subdomain(apiGroup)) errs.push(invalid(path.child('apiGroup'), apiGroup, m));
  return errs;
}

function validateDataSourceRef(ref: TypedObjectReference, path: Path): FieldError[] {
  const errs = validateDataSource(ref, path);
  if (ref.namespace) for (const m of isDNS1123Label(ref.namespace)) errs.push(invalid(path.child('namespace'), ref.namespace, m));
  return errs;
}

/**
 * The rules of a served claim (upstream ValidatePersistentVolumeClaim and ...Update): the spec
 * rules on create; after creation the spec is fixed but for volumeName (set once, by the binder),
 * and, while the claim is Bound, a growing storage request and volumeAttributesClassName.
 * `storageClassAnnotation` is the beta annotation that named the class before storageClassName.
 */
export function persistentVolumeClaimValidation(storageClassAnnotation: string): KindValidation<PersistentVolumeClaim> {
  const validate = (pvc: PersistentVolumeClaim) => validatePersistentVolumeClaimSpec(pvc.spec ?? {}, Path.root('spec'));
  return {
    name: nameIsDNSSubdomain,
    validate,
    validateUpdate(pvc, old) {
      const errs = validate(pvc);
      const spec: PersistentVolumeClaimSpec = structuredClone(pvc.spec ?? {});
      const oldSpec: PersistentVolumeClaimSpec = structuredClone(old.spec ?? {});
      if (!oldSpec.volumeName) {
        if (spec.volumeName === undefined) delete oldSpec.volumeName;
        else oldSpec.volumeName = spec.volumeName;
      }
      const annotation = (o: PersistentVolumeClaim) => o.metadata?.annotations?.[storageClassAnnotation];
      // A class named by the beta annotation (or by nothing) may be written into storageClassName once.
      if (oldSpec.storageClassName === undefined && spec.storageClassName !== undefined &&
        (annotation(old) === undefined || annotation(old) === spec.storageClassName)) {
        delete spec.storageClassName;
      } else if (annotation(pvc) !== annotation(old)) {
        errs.push(invalid(Path.root('metadata').child('annotations').key(storageClassAnnotation), annotation(pvc) ?? '', 'field is immutable'));
      }
      const bound = pvc.status?.phase === 'Bound';
      if (bound && spec.resources?.requests) {
        const oldStorage = oldSpec.resources?.requests?.['storage'];
        if (oldStorage === undefined) delete spec.resources.requests['storage'];
        else spec.resources.requests['storage'] = oldStorage;
      }
      if (bound && spec.volumeAttributesClassName !== undefined) {
        if (oldSpec.volumeAttributesClassName === undefined) delete spec.volumeAttributesClassName;
        else spec.volumeAttributesClassName = oldSpec.volumeAttributesClassName;
      }
      if (!isDeepStrictEqual(normalize(spec), normalize(oldSpec))) {
        errs.push(forbidden(Path.root('spec'),
          `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${shortDiff(oldSpec, spec)}`));
      }
      const newSize = parseQuantity(pvc.spec?.resources?.requests?.['storage'] ?? 0) ?? 0;
      const oldSize = parseQuantity(old.spec?.resources?.requests?.['storage'] ?? 0) ?? 0;
      if (newSize < oldSize) {
        errs.push(forbidden(Path.root('spec').child('resources', 'requests', 'storage'), 'field can not be less than previous value'));
      }
      errs.push(...validateImmutableField(pvc.spec?.volumeMode, old.spec?.volumeMode, Path.root('volumeMode')));
      return errs;
    },
    validateStatusUpdate: () => [],
  };
}

/** A spec with quantities compared by value (a stored "1Gi" equals a sent "1024Mi"). */
function normalize(spec: PersistentVolumeClaimSpec): unknown {
  const requests = Object.fromEntries(Object.entries(spec.resources?.requests ?? {}).map(([k, v]) => [k, parseQuantity(v) ?? v]));
  const limits = Object.fromEntries(Object.entries(spec.resources?.limits ?? {}).map(([k, v]) => [k, parseQuantity(v) ?? v]));
  return { ...spec, resources: { requests, limits } };
}
