// Which existing volume a claim may bind to (upstream's FindMatchingVolume and the PV controller's
// access-mode index): pure functions over claims and volumes. A volume pre-bound to the claim
// (its claimRef names it) wins; otherwise the smallest Available volume that is large enough, of
// the claim's class and volume mode, selected by the claim's selector and offering its access
// modes, searched by sets of access modes from the fewest up.
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { KubeObject } from '../../client/index.js';
import { selectorMatches } from '../../runtime/label-selector-match.js';
import { compareQuantity, parseExact, quantityValue, zeroQuantity, type ExactQuantity } from '../../runtime/quantity-exact.js';

export type ClaimObject = PersistentVolumeClaim & KubeObject;
export type VolumeObject = PersistentVolume & KubeObject;

/** The class of a claim or volume: the beta annotation when present, else spec.storageClassName, else none (''). */
export function classOf(obj: ClaimObject | VolumeObject, betaAnnotation: string): string {
  const ann = obj.metadata.annotations;
  if (ann && Object.hasOwn(ann, betaAnnotation)) return ann[betaAnnotation]!;
  return obj.spec?.storageClassName ?? '';
}

/** Whether the claim asked for a class at all: an empty name asks for none, which is a choice too. */
export function claimHasClass(claim: ClaimObject, betaAnnotation: string): boolean {
  const ann = claim.metadata.annotations;
  return (ann !== undefined && Object.hasOwn(ann, betaAnnotation)) || (claim.spec?.storageClassName ?? null) !== null;
}

/** The volume's claimRef names this claim (and, when it has a uid, this very claim). */
export function isVolumeBoundToClaim(pv: VolumeObject, claim: ClaimObject): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata.uid;
}

/** Claim and volume differ in volume mode (Filesystem when unset). */
export const volumeModeMismatch = (claim: ClaimObject, pv: VolumeObject) =>
  (claim.spec?.volumeMode ?? 'Filesystem') !== (pv.spec?.volumeMode ?? 'Filesystem');

/** The volume offers every access mode the claim asks for. */
const offersAccessModes = (pv: VolumeObject, claim: ClaimObject) =>
  (claim.spec?.accessModes ?? []).every((m) => (pv.spec?.accessModes ?? []).includes(m));

const modeAbbreviations: [string, string][] = [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']];

/** Upstream's GetAccessModesAsString: the modes a volume is indexed under, e.g. "RWO,ROX". */
export function accessModesKey(modes: readonly string[] | undefined): string {
  return modeAbbreviations.filter(([m]) => (modes ?? []).includes(m)).map(([, a]) => a).join(',');
}

const storageOf = (list: Record<string, number | string> | undefined): ExactQuantity => {
  const v = list?.storage;
  return (v === undefined ? undefined : parseExact(v)) ?? zeroQuantity;
};
const volumeCapacity = (pv: VolumeObject) => storageOf(pv.spec?.capacity);
const claimRequest = (claim: ClaimObject) => storageOf(claim.spec?.resources?.requests);

/**
 * Upstream's FindMatchingVolume over one set of volumes. With delayed binding (WaitForFirstConsumer)
 * only a volume pre-bound to the claim is taken: the scheduler binds the others.
 */
function findMatchingVolume(claim: ClaimObject, volumes: VolumeObject[], delayBinding: boolean, beta: string): VolumeObject | undefined {
  const requested = claimRequest(claim);
  const requestedClass = classOf(claim, beta);
  const selector = claim.spec?.selector;
  let smallest: VolumeObject | undefined;
  for (const pv of volumes) {
    if (pv.spec?.claimRef && !isVolumeBoundToClaim(pv, claim)) continue;
    const size = volumeCapacity(pv);
    if (compareQuantity(size, requested) < 0) continue;
    if (volumeModeMismatch(claim, pv)) continue;
    if (pv.metadata.deletionTimestamp) continue;
    if (isVolumeBoundToClaim(pv, claim)) return pv;
    if (delayBinding) continue;
    // Volumes not yet Available would most likely meet a conflict; they are taken on a later pass.
    if (pv.status?.phase !== 'Available') continue;
    if (selector && !selectorMatches(selector, pv.metadata.labels)) continue;
    if (classOf(pv, beta) !== requestedClass) continue;
    if (!smallest || compareQuantity(volumeCapacity(smallest), size) > 0) smallest = pv;
  }
  return smallest;
}

/** The volume the claim should bind to, or undefined (upstream's findBestMatchForClaim). */
export function findBestMatchForClaim(claim: ClaimObject, volumes: readonly VolumeObject[], delayBinding: boolean, betaClassAnnotation: string): VolumeObject | undefined {
  const byModes = new Map<string, VolumeObject[]>();
  for (const pv of [...volumes].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))) {
    const key = accessModesKey(pv.spec?.accessModes);
    byModes.set(key, [...(byModes.get(key) ?? []), pv]);
  }
  const wanted = accessModesKey(claim.spec?.accessModes).split(',').filter(Boolean);
  // Sets that hold every requested mode, the fewest modes first: the closest to what was asked.
  const candidates = [...byModes.keys()]
    .filter((key) => { const modes = key.split(',').filter(Boolean); return wanted.every((m) => modes.includes(m)); })
    .sort((a, b) => (a.split(',').filter(Boolean).length - b.split(',').filter(Boolean).length) || (a < b ? -1 : a > b ? 1 : 0));
  for (const key of candidates) {
    const found = findMatchingVolume(claim, byModes.get(key)!, delayBinding, betaClassAnnotation);
    if (found) return found;
  }
  return undefined;
}

/** Why a volume the claim names in volumeName cannot be bound to it (upstream's checkVolumeSatisfyClaim), or undefined. */
export function volumeUnsatisfied(pv: VolumeObject, claim: ClaimObject, betaClassAnnotation: string): string | undefined {
  if (pv.metadata.deletionTimestamp) return `the volume is marked for deletion ${JSON.stringify(pv.metadata.name ?? '')}`;
  if (quantityValue(volumeCapacity(pv)) < quantityValue(claimRequest(claim))) return 'requested PV is too small';
  if (classOf(pv, betaClassAnnotation) !== classOf(claim, betaClassAnnotation)) return 'storageClassName does not match';
  if (volumeModeMismatch(claim, pv)) return 'incompatible volumeMode';
  if (!offersAccessModes(pv, claim)) return 'incompatible accessMode';
  return undefined;
}
