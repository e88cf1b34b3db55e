// Validation of a pod's volumes and their sources, following upstream's ValidateVolumes. Also the
// path rules shared with volume mounts.
import type { Volume, VolumeProjection } from '../../../api/core/v1/volume.js';
import type { ObjectFieldSelector, ResourceFieldSelector } from '../../../api/core/v1/env.js';
import {
  duplicate, forbidden, invalid, notSupported, required, tooLong, type FieldError, type Path,
} from '../../runtime/field-errors.js';
import { parseQuantity } from '../../runtime/quantity.js';
import { validateAnnotations } from '../validation/annotations.js';
import { validateLabelSelector, validateLabels } from '../validation/label-selector.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../validation/names.js';
import { validatePersistentVolumeClaimSpec } from './persistent-volume-claim-validation.js';

export const fileModeErrorMsg = 'must be a number between 0 and 0777 (octal), both inclusive';

/** An inclusive-range message in upstream's words. */
export const inclusiveRangeError = (lo: number, hi: number) => `must be between ${lo} and ${hi}, inclusive`;

/** What a container may mount by name: the valid volumes, plus claim names the workload provides. */
export interface MountableVolumes {
  /** Valid volumes by name. */
  volumes: Map<string, Volume>;
  /** Names provided outside spec.volumes (StatefulSet volumeClaimTemplates); they behave as claims. */
  extra: ReadonlySet<string>;
}

/** Whether `name` may be mounted, and whether it is backed by a claim (as block devices must be). */
export function lookupVolume(vols: MountableVolumes, name: string): { found: boolean; claim: boolean } {
  const v = vols.volumes.get(name);
  if (v) return { found: true, claim: v.persistentVolumeClaim !== undefined || v.ephemeral !== undefined };
  return vols.extra.has(name) ? { found: true, claim: true } : { found: false, claim: false };
}

/** Validates spec.volumes and returns the volumes that containers may refer to. */
export function validateVolumes(volumes: Volume[] | undefined, path: Path): { volumes: Map<string, Volume>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const valid = new Map<string, Volume>();
  const seen = new Set<string>();
  (volumes ?? []).forEach((vol, i) => {
    const idx = path.index(i);
    const namePath = idx.child('name');
    const el = validateVolumeSource(vol, idx);
    if (!vol.name) el.push(required(namePath, ''));
    else for (const m of isDNS1123Label(vol.name)) el.push(invalid(namePath, vol.name, m));
    if (seen.has(vol.name)) el.push(duplicate(namePath, vol.name));
    // Like upstream, only a volume without errors can be mounted; mounts of others are NotFound.
    if (el.length === 0) {
      seen.add(vol.name);
      valid.set(vol.name, vol);
    } else {
      errs.push(...el);
    }
  });
  return { volumes: valid, errs };
}

type SourceCheck = (v: Volume, path: Path) => FieldError[];

const requireStrings = (...names: string[]) => (source: Record<string, unknown>, path: Path): FieldError[] =>
  names.filter((n) => !source[n]).map((n) => required(path.child(n), ''));

const partition = (value: number | undefined, path: Path): FieldError[] =>
  value !== undefined && (value < 0 || value > 255) ? [invalid(path, value, inclusiveRangeError(1, 255))] : [];

/** Every volume source, in the order upstream examines them (which decides where "more than 1" is reported). */
const sources: [keyof Volume, SourceCheck][] = [
  ['emptyDir', (v, p) => {
    const limit = v.emptyDir?.sizeLimit;
    const n = limit === undefined ? undefined : parseQuantity(limit);
    return n !== undefined && n < 0 ? [forbidden(p.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity')] : [];
  }],
  ['hostPath', (v, p) => {
    const hp = v.hostPath!;
    if (!hp.path) return [required(p.child('path'), '')];
    return validatePathNoBacksteps(hp.path, p.child('path'));
  }],
  ['gitRepo', (v, p) => [
    ...requireStrings('repository')(v.gitRepo!, p),
    ...validateLocalDescendingPath(v.gitRepo!.directory ?? '', p.child('directory')),
  ]],
  ['gcePersistentDisk', (v, p) => [
    ...requireStrings('pdName')(v.gcePersistentDisk!, p), ...partition(v.gcePersistentDisk!.partition, p.child('partition')),
  ]],
  ['awsElasticBlockStore', (v, p) => [
    ...requireStrings('volumeID')(v.awsElasticBlockStore!, p), ...partition(v.awsElasticBlockStore!.partition, p.child('partition')),
  ]],
  ['secret', (v, p) => {
    const s = v.secret!;
    return [
      ...requireStrings('secretName')(s, p),
      ...validateFileMode(s.defaultMode, p.child('defaultMode')),
      ...(s.items ?? []).flatMap((kp, i) => validateKeyToPath(kp, p.child('items').index(i))),
    ];
  }],
  ['nfs', (v, p) => {
    const errs = requireStrings('server', 'path')(v.nfs!, p);
    if (!(v.nfs!.path ?? '').startsWith('/')) errs.push(invalid(p.child('path'), v.nfs!.path, 'must be an absolute path'));
    return errs;
  }],
  ['iscsi', (v, p) => {
    const s = v.iscsi!;
    const errs = requireStrings('targetPortal', 'iqn')(s, p);
    if (s.iqn) errs.push(...validateIQN(s.iqn, p.child('iqn'), 'must be valid format starting with iqn, eui, or naa'));
    if (s.lun < 0 || s.lun > 255) errs.push(invalid(p.child('lun'), s.lun, inclusiveRangeError(0, 255)));
    if ((s.chapAuthDiscovery || s.chapAuthSession) && !s.secretRef) errs.push(required(p.child('secretRef'), ''));
    if (s.initiatorName !== undefined) {
      errs.push(...validateIQN(s.initiatorName, p.child('initiatorname'), 'must be valid format starting with iqn, eui, or naa'));
      if (`${v.name}:${s.targetPortal}`.length > 64) {
        errs.push(invalid(p.child('name'), v.name,
          'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
      }
    }
    return errs;
  }],
  ['glusterfs', (v, p) => requireStrings('endpoints', 'path')(v.glusterfs!, p)],
  ['flocker', (v, p) => {
    const f = v.flocker!;
    const errs: FieldError[] = [];
    if (!f.datasetName && !f.datasetUUID) errs.push(required(p, 'one of datasetName and datasetUUID is required'));
    if (f.datasetName && f.datasetUUID) errs.push(invalid(p, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
    if (f.datasetName?.includes('/')) errs.push(invalid(p.child('datasetName'), f.datasetName, "must not contain '/'"));
    return errs;
  }],
  ['persistentVolumeClaim', (v, p) => requireStrings('claimName')(v.persistentVolumeClaim!, p)],
  ['rbd', (v, p) => [
    ...((v.rbd!.monitors ?? []).length === 0 ? [required(p.child('monitors'), '')] : []),
    ...requireStrings('image')(v.rbd!, p),
  ]],
  ['cinder', (v, p) => [
    ...requireStrings('volumeID')(v.cinder!, p),
    ...(v.cinder!.secretRef && !v.cinder!.secretRef.name ? [required(p.child('secretRef', 'name'), '')] : []),
  ]],
  ['cephfs', (v, p) => ((v.cephfs!.monitors ?? []).length === 0 ? [required(p.child('monitors'), '')] : [])],
  ['quobyte', (v, p) => {
    const q = v.quobyte!;
    const errs: FieldError[] = [];
    if (!q.registry) errs.push(required(p.child('registry'), 'must be a host:port pair or multiple pairs separated by commas'));
    if (!q.volume) errs.push(required(p.child('volume'), ''));
    return errs;
  }],
  ['downwardAPI', (v, p) => [
    ...validateFileMode(v.downwardAPI!.defaultMode, p.child('defaultMode')),
    ...(v.downwardAPI!.items ?? []).flatMap((f) => validateDownwardAPIVolumeFile(f, p)),
  ]],
  ['fc', (v, p) => {
    const fc = v.fc!;
    const wwns = fc.targetWWNs ?? [];
    const wwids = fc.wwids ?? [];
    const errs: FieldError[] = [];
    if (wwns.length === 0 && wwids.length === 0) {
      errs.push(required(p.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
    }
    if (wwns.length > 0 && wwids.length > 0) {
      errs.push(invalid(p.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
    }
    if (wwns.length > 0) {
      if (fc.lun === undefined) errs.push(required(p.child('lun'), 'lun is required if targetWWNs is specified'));
      else if (fc.lun < 0 || fc.lun > 255) errs.push(invalid(p.child('lun'), fc.lun, inclusiveRangeError(0, 255)));
    }
    return errs;
  }],
  ['flexVolume', (v, p) => requireStrings('driver')(v.flexVolume!, p)],
  ['configMap', (v, p) => {
    const c = v.configMap!;
    return [
      ...requireStrings('name')(c, p),
      ...validateFileMode(c.defaultMode, p.child('defaultMode')),
      ...(c.items ?? []).flatMap((kp, i) => validateKeyToPath(kp, p.child('items').index(i))),
    ];
  }],
  ['azureFile', (v, p) => requireStrings('secretName', 'shareName')(v.azureFile!, p)],
  ['vsphereVolume', (v, p) => requireStrings('volumePath')(v.vsphereVolume!, p)],
  ['photonPersistentDisk', (v, p) => requireStrings('pdID')(v.photonPersistentDisk!, p)],
  ['portworxVolume', (v, p) => requireStrings('volumeID')(v.portworxVolume!, p)],
  ['azureDisk', (v, p) => requireStrings('diskName', 'diskURI')(v.azureDisk!, p)],
  ['storageos', (v, p) => {
    const s = v.storageos!;
    const errs: FieldError[] = [];
    if (!s.volumeName) errs.push(required(p.child('volumeName'), ''));
    else for (const m of isDNS1123Label(s.volumeName)) errs.push(invalid(p.child('volumeName'), s.volumeName, m));
    if (s.volumeNamespace) for (const m of isDNS1123Label(s.volumeNamespace)) errs.push(invalid(p.child('volumeNamespace'), s.volumeNamespace, m));
    if (s.secretRef && !s.secretRef.name) errs.push(required(p.child('secretRef', 'name'), ''));
    return errs;
  }],
  ['projected', (v, p) => [
    ...validateFileMode(v.projected!.defaultMode, p.child('defaultMode')),
    ...validateProjectionSources(v.projected!.sources ?? [], p),
  ]],
  ['scaleIO', (v, p) => requireStrings('gateway', 'system', 'volumeName')(v.scaleIO!, p)],
  ['csi', (v, p) => {
    const c = v.csi!;
    const errs = validateCSIDriverName(c.driver, p.child('driver'));
    const ref = c.nodePublishSecretRef;
    if (ref) {
      if (!ref.name) errs.push(required(p.child('nodePublishSecretRef', 'name'), ''));
      else for (const m of isDNS1123Subdomain(ref.name)) errs.push(invalid(p.child('name'), ref.name, m));
    }
    return errs;
  }],
  ['ephemeral', (v, p) => {
    const tmpl = v.ephemeral!.volumeClaimTemplate;
    if (!tmpl) return [required(p.child('volumeClaimTemplate'), '')];
    const tp = p.child('volumeClaimTemplate');
    const errs = [
      ...validateAnnotations(tmpl.metadata?.annotations, tp.child('metadata', 'annotations')),
      ...validateLabels(tmpl.metadata?.labels, tp.child('metadata', 'labels')),
    ];
    // Only labels and annotations of the template's metadata are used; anything else is refused.
    for (const [key, value] of Object.entries(tmpl.metadata ?? {})) {
      if (key !== 'labels' && key !== 'annotations' && value !== undefined) errs.push(forbidden(tp.child('metadata', key), 'cannot be set'));
    }
    errs.push(...validatePersistentVolumeClaimSpec(tmpl.spec, tp.child('spec')));
    return errs;
  }],
  ['image', () => []],
];

function validateVolumeSource(v: Volume, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [name, check] of sources) {
    if (v[name] === undefined || v[name] === null) continue;
    if (count > 0) {
      errs.push(forbidden(path.child(name), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...check(v, path.child(name)));
  }
  if (count === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

function validateFileMode(mode: number | undefined, path: Path): FieldError[] {
  return mode !== undefined && (mode < 0 || mode > 0o777) ? [invalid(path, mode, fileModeErrorMsg)] : [];
}

function validateKeyToPath(kp: { key: string; path: string; mode?: number }, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!kp.key) errs.push(required(path.child('key'), ''));
  if (!kp.path) errs.push(required(path.child('path'), ''));
  errs.push(...validateLocalNonReservedPath(kp.path ?? '', path.child('path')));
  errs.push(...validateFileMode(kp.mode, path.child('mode')));
  return errs;
}

const volumeFieldPaths = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
const resourceFieldPaths = [
  'limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory',
];

function validateDownwardAPIVolumeFile(
  file: { path: string; fieldRef?: ObjectFieldSelector; resourceFieldRef?: ResourceFieldSelector; mode?: number },
  path: Path,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!file.path) errs.push(required(path.child('path'), ''));
  errs.push(...validateLocalNonReservedPath(file.path ?? '', path.child('path')));
  if (file.fieldRef) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, volumeFieldPaths, path.child('fieldRef')));
    if (file.resourceFieldRef) {
      errs.push(invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
    }
  } else if (file.resourceFieldRef) {
    errs.push(...validateResourceFieldSelector(file.resourceFieldRef, path.child('resourceFieldRef'), true));
  } else {
    errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...validateFileMode(file.mode, path.child('mode')));
  return errs;
}

// The field labels upstream's v1 conversion accepts before the per-use list is checked.
const convertibleFieldLabels = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
]);

/** Validates a downward API field selector against the field paths supported where it is used. */
export function validateObjectFieldSelector(fs: ObjectFieldSelector, supported: readonly string[], path: Path): FieldError[] {
  if (!fs.apiVersion) return [required(path.child('apiVersion'), '')];
  if (!fs.fieldPath) return [required(path.child('fieldPath'), '')];
  const fieldPathPath = path.child('fieldPath');
  const convertError = (msg: string) => [invalid(fieldPathPath, fs.fieldPath, `error converting fieldPath: ${msg}`)];
  if (fs.apiVersion !== 'v1') return convertError(`unsupported pod version: ${fs.apiVersion}`);

  const label = fs.fieldPath === 'spec.host' ? 'spec.nodeName' : fs.fieldPath;
  const sub = splitSubscript(label);
  if (sub) {
    if (sub.path !== 'metadata.annotations' && sub.path !== 'metadata.labels') {
      return convertError(`field label does not support subscript: ${label}`);
    }
    const key = sub.path === 'metadata.annotations' ? sub.subscript.toLowerCase() : sub.subscript;
    return isQualifiedName(key).map((m) => invalid(path, key, m));
  }
  if (!convertibleFieldLabels.has(label)) return convertError(`field label not supported: ${label}`);
  return supported.includes(label) ? [] : [notSupported(fieldPathPath, label, supported)];
}

function splitSubscript(fieldPath: string): { path: string; subscript: string } | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return { path: s.slice(0, at), subscript: s.slice(at + 2) };
}

/** Validates a resource field selector; a volume file must also name its container. */
export function validateResourceFieldSelector(fs: ResourceFieldSelector, path: Path, volume: boolean): FieldError[] {
  if (volume && !fs.containerName) return [required(path.child('containerName'), '')];
  if (!fs.resource) return [required(path.child('resource'), '')];
  const hugePages = fs.resource.startsWith('limits.hugepages-') || fs.resource.startsWith('requests.hugepages-');
  if (!resourceFieldPaths.includes(fs.resource) && !hugePages) {
    return [notSupported(path.child('resource'), fs.resource, resourceFieldPaths)];
  }
  return [];
}

function validateProjectionSources(sourcesList: VolumeProjection[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  const claimPath = (p: string, value: unknown) => {
    if (paths.has(p)) errs.push(invalid(path, value, 'conflicting duplicate paths'));
    else paths.add(p);
  };
  sourcesList.forEach((source, i) => {
    let count = 0;
    const sp = path.child('sources').index(i);
    for (const kind of ['secret', 'configMap'] as const) {
      const s = source[kind];
      if (!s) continue;
      count++;
      const pp = sp.child(kind);
      if (!s.name) errs.push(required(pp.child('name'), ''));
      (s.items ?? []).forEach((kp, j) => {
        errs.push(...validateKeyToPath(kp, pp.child('items').index(j)));
        if (kp.path) claimPath(kp.path, s.name ?? '');
      });
    }
    if (source.downwardAPI) {
      count++;
      for (const file of source.downwardAPI.items ?? []) {
        errs.push(...validateDownwardAPIVolumeFile(file, sp.child('downwardAPI')));
        if (file.path) claimPath(file.path, file.path);
      }
    }
    if (source.serviceAccountToken) {
      count++;
      const t = source.serviceAccountToken;
      const tp = sp.child('serviceAccountToken');
      const seconds = t.expirationSeconds ?? 3600;
      if (seconds < 600) errs.push(invalid(tp.child('expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32) errs.push(invalid(tp.child('expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
      // Upstream reports these two at the volume's path, not the source's.
      if (!t.path) errs.push(required(path.child('path'), ''));
      else errs.push(...validateLocalNonReservedPath(t.path, path.child('path')));
    }
    if (source.clusterTrustBundle) {
      count++;
      const b = source.clusterTrustBundle;
      const bp = sp.child('clusterTrustBundle');
      const byName = b.name !== undefined;
      const bySigner = b.signerName !== undefined;
      if (byName && bySigner) errs.push(invalid(bp, b, 'only one of name and signerName may be used'));
      else if (byName) {
        if (!b.name) errs.push(required(bp.child('name'), 'must be a valid object name'));
        if (b.labelSelector) errs.push(invalid(bp.child('labelSelector'), b.labelSelector, 'labelSelector must be unset if name is specified'));
      } else if (bySigner) {
        if (!b.signerName) errs.push(required(bp.child('signerName'), 'must be a valid signer name'));
        errs.push(...validateLabelSelector(b.labelSelector, bp.child('labelSelector')));
      } else errs.push(required(bp, 'either name or signerName must be specified'));
      if (!b.path) errs.push(required(bp.child('path'), ''));
      errs.push(...validateLocalNonReservedPath(b.path ?? '', bp.child('path')));
      claimPath(b.path ?? '', b.path ?? '');
    }
    if (source.podCertificate) count++;
    if (count > 1) errs.push(forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

export function validateCSIDriverName(driver: string, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!driver) errs.push(required(path, ''));
  if (driver.length > 63) errs.push(tooLong(path, '', 63));
  for (const m of isDNS1123Subdomain(driver.toLowerCase())) errs.push(invalid(path, driver, m));
  return errs;
}

const iqnRe = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\s]+)$/;
const euiRe = /^eui.[A-Za-z0-9]{16}$/;
const naaRe = /^naa.[A-Za-z0-9]{32}$/;

export function validateIQN(value: string, path: Path, prefixMsg: string): FieldError[] {
  if (!value.startsWith('iqn') && !value.startsWith('eui') && !value.startsWith('naa')) return [invalid(path, value, prefixMsg)];
  const re = value.startsWith('iqn') ? iqnRe : value.startsWith('eui') ? euiRe : naaRe;
  return re.test(value) ? [] : [invalid(path, value, 'must be valid format')];
}

/** A path may not contain a '..' element. */
export function validatePathNoBacksteps(target: string, path: Path): FieldError[] {
  return target.replace(/\\/g, '/').split('/').includes('..') ? [invalid(path, target, "must not contain '..'")] : [];
}

/** A relative path without '..' elements. */
export function validateLocalDescendingPath(target: string, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(invalid(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

/** A relative path without '..' elements that does not start with '..' either. */
export function validateLocalNonReservedPath(target: string, path: Path): FieldError[] {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(invalid(path, target, "must not start with '..'"));
  return errs;
}
