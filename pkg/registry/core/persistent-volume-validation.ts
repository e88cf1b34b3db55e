// Rules of PersistentVolume (upstream ValidatePersistentVolume, ValidatePersistentVolumeUpdate):
// exactly one volume source, a storage capacity, access modes, and per-source required fields. The
// volume source and the volume mode cannot change once the volume exists.
import { isDeepStrictEqual } from 'node:util';
import { PersistentVolumeSourceNames, type PersistentVolume, type PersistentVolumeSpec } from '../../../api/core/v1/persistent-volume.js';
import { forbidden, invalid, notSupported, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { parseQuantity } from '../../runtime/quantity.js';
import { validateImmutableField } from '../validation/immutable.js';
import { shortDiff } from '../validation/short-diff.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain } from '../validation/names.js';
import { validateNodeSelector } from './pod-template-validation.js';
import { validateCSIDriverName, validateIQN, validatePathNoBacksteps } from './volume-validation.js';

type Spec = PersistentVolumeSpec;
type SourceCheck = (spec: Spec, path: Path) => FieldError[];

const requireStrings = (source: object, path: Path, ...names: string[]): FieldError[] =>
  names.filter((n) => !(source as Record<string, unknown>)[n]).map((n) => required(path.child(n), ''));

/** Checks of the sources upstream looks into; the others are held to their schema's required fields. */
const sourceChecks: Partial<Record<(typeof PersistentVolumeSourceNames)[number], SourceCheck>> = {
  hostPath: (s, p) => (s.hostPath!.path ? validatePathNoBacksteps(s.hostPath!.path, p.child('path')) : [required(p.child('path'), '')]),
  nfs: (s, p) => {
    const errs = requireStrings(s.nfs!, p, 'server', 'path');
    if (s.nfs!.path && !s.nfs!.path.startsWith('/')) errs.push(invalid(p.child('path'), s.nfs!.path, 'must be an absolute path'));
    return errs;
  },
  local: (s, p) => {
    const errs = s.local!.path ? validatePathNoBacksteps(s.local!.path, p.child('path')) : [required(p.child('path'), '')];
    if (!s.nodeAffinity?.required) errs.push(required(Path.root('spec').child('nodeAffinity'), 'Local volume requires node affinity'));
    return errs;
  },
  csi: (s, p) => {
    const errs = validateCSIDriverName(s.csi!.driver ?? '', p.child('driver'));
    if (!s.csi!.volumeHandle) errs.push(required(p.child('volumeHandle'), ''));
    for (const ref of ['controllerPublishSecretRef', 'nodeStageSecretRef', 'nodePublishSecretRef', 'controllerExpandSecretRef', 'nodeExpandSecretRef'] as const) {
      const r = s.csi![ref];
      if (!r) continue;
      if (!r.name) errs.push(required(p.child(ref, 'name'), ''));
      if (!r.namespace) errs.push(required(p.child(ref, 'namespace'), ''));
    }
    return errs;
  },
  iscsi: (s, p) => {
    const i = s.iscsi!;
    const errs = requireStrings(i, p, 'targetPortal', 'iqn');
    if (i.iqn) errs.push(...validateIQN(i.iqn, p.child('iqn'), 'must be valid format starting with iqn, eui, or naa'));
    if (i.lun < 0 || i.lun > 255) errs.push(invalid(p.child('lun'), i.lun, 'must be between 0 and 255, inclusive'));
    if ((i.chapAuthDiscovery || i.chapAuthSession) && !i.secretRef) errs.push(required(p.child('secretRef'), ''));
    return errs;
  },
  fc: (s, p) => {
    const fc = s.fc!;
    const wwns = fc.targetWWNs ?? [];
    const wwids = fc.wwids ?? [];
    if (wwns.length === 0 && wwids.length === 0) return [required(p.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both')];
    if (wwns.length > 0 && wwids.length > 0) return [invalid(p.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously')];
    if (wwns.length > 0 && fc.lun === undefined) return [required(p.child('lun'), 'lun is required if targetWWNs is specified')];
    if (fc.lun !== undefined && (fc.lun < 0 || fc.lun > 255)) return [invalid(p.child('lun'), fc.lun, 'must be between 0 and 255, inclusive')];
    return [];
  },
};

/** The volume sources set in a spec, in upstream's order. */
const setSources = (spec: Spec) => PersistentVolumeSourceNames.filter((n) => spec[n] !== undefined && spec[n] !== null);

function validateSpec(spec: Spec): FieldError[] {
  const errs: FieldError[] = [];
  const path = Path.root('spec');
  const modes: string[] = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(required(path.child('accessModes'), ''));
  if (modes.includes('ReadWriteOncePod') && modes.some((m) => m !== 'ReadWriteOncePod')) {
    errs.push(forbidden(path.child('accessModes'), 'may not use ReadWriteOncePod with other access modes'));
  }
  const capacity = spec.capacity ?? {};
  const capPath = path.child('capacity');
  if (Object.keys(capacity).length === 0) errs.push(required(capPath, ''));
  else if (!('storage' in capacity) || Object.keys(capacity).length > 1) errs.push(notSupported(capPath, capacity, ['storage']));
  for (const [r, q] of Object.entries(capacity)) {
    const v = parseQuantity(q);
    if (v !== undefined && v <= 0) errs.push(invalid(capPath.key(r), String(q), 'must be greater than zero'));
  }

  if (spec.nodeAffinity?.required) errs.push(...validateNodeSelector(spec.nodeAffinity.required, path.child('nodeAffinity', 'required')));
  const sources = setSources(spec);
  sources.forEach((name, i) => {
    if (i > 0) errs.push(forbidden(path.child(name), 'may not specify more than 1 volume type'));
    else errs.push(...(sourceChecks[name]?.(spec, path.child(name)) ?? []));
  });
  if (sources.length === 0) errs.push(required(path, 'must specify a volume type'));
  if (spec.hostPath?.path && cleanPath(spec.hostPath.path) === '/' && spec.persistentVolumeReclaimPolicy === 'Recycle') {
    errs.push(forbidden(path.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (spec.storageClassName) {
    for (const m of isDNS1123Subdomain(spec.storageClassName)) errs.push(invalid(path.child('storageClassName'), spec.storageClassName, m));
  }
  if (spec.volumeAttributesClassName !== undefined) {
    const vac = spec.volumeAttributesClassName;
    if (vac === '') errs.push(required(path.child('volumeAttributesClassName'), 'an empty string is disallowed'));
    else for (const m of isDNS1123Subdomain(vac)) errs.push(invalid(path.child('volumeAttributesClassName'), vac, m));
    if (!spec.csi) errs.push(required(path.child('csi'), 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

/** Go's path.Clean, enough to tell whether a path is the root. */
function cleanPath(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return (p.startsWith('/') ? '/' : '') + parts.join('/') || '.';
}

const sourceOf = (spec: Spec) => Object.fromEntries(PersistentVolumeSourceNames.filter((n) => spec[n] !== undefined).map((n) => [n, spec[n]]));

export const persistentVolumeValidation: KindValidation<PersistentVolume> = {
  name: nameIsDNSSubdomain,
  validate: (pv) => validateSpec(pv.spec ?? {}),
  validateUpdate: (pv, old) => {
    const errs = validateSpec(pv.spec ?? {});
    const now = sourceOf(pv.spec ?? {});
    const before = sourceOf(old.spec ?? {});
    if (!isDeepStrictEqual(now, before)) {
      errs.push(forbidden(Path.root('spec').child('persistentvolumesource'),
        `spec.persistentvolumesource is immutable after creation\n${shortDiff(before, now)}`));
    }
    errs.push(...validateImmutableField(pv.spec?.volumeMode, old.spec?.volumeMode, Path.root('volumeMode')));
    return errs;
  },
  validateStatusUpdate: () => [],
};
