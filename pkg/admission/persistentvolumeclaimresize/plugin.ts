// PersistentVolumeClaimResize (upstream plugin/pkg/admission/storage/persistentvolume/resize, 1.30):
// a claim's storage request may grow only once it is Bound, and only when the StorageClass it was
// provisioned from (unchanged by the update) says allowVolumeExpansion: true. Shrinking and other
// changes are left to validation.
import { compareQuantity, parseExact, zeroQuantity, type ExactQuantity } from '../../runtime/quantity-exact.js';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type AdmissionObject, type Attributes, type ObjectLister, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'PersistentVolumeClaimResize';

interface ClaimLike {
  metadata?: { annotations?: Record<string, string> };
  spec?: { storageClassName?: string | null; resources?: { requests?: Record<string, string | number> } };
  status?: { phase?: string };
}

const requestedStorage = (c: ClaimLike): ExactQuantity => {
  const v = c.spec?.resources?.requests?.['storage'];
  return (v === undefined ? undefined : parseExact(v)) ?? zeroQuantity;
};

export class PersistentVolumeClaimResize implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('UPDATE');
  /** The class annotation claims used before spec.storageClassName; when present it names the class. */
  private readonly betaClassAnnotation: string;

  constructor(private readonly classes: ObjectLister, deps: PluginDeps) {
    this.betaClassAnnotation = deps.domain.key('storage-class', 'volume.beta');
  }

  validate(attrs: Attributes): void {
    if (attrs.resource.group !== '' || attrs.resource.resource !== 'persistentvolumeclaims' || attrs.subresource !== '') return;
    const claim = attrs.object as ClaimLike | undefined;
    const old = attrs.oldObject as ClaimLike | undefined;
    if (typeof claim !== 'object' || claim === null || typeof old !== 'object' || old === null) return;
    if (compareQuantity(requestedStorage(claim), requestedStorage(old)) <= 0) return;
    if (old.status?.phase !== 'Bound') throw newAdmissionForbidden(attrs, 'Only bound persistent volume claims can be expanded');
    if (!this.allowsResize(claim, old)) {
      throw newAdmissionForbidden(attrs, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    }
  }

  /** Upstream's GetPersistentVolumeClaimClass: the beta annotation when present, else storageClassName. */
  private classOf(c: ClaimLike): string {
    const ann = c.metadata?.annotations;
    if (ann && Object.hasOwn(ann, this.betaClassAnnotation)) return ann[this.betaClassAnnotation] ?? '';
    return c.spec?.storageClassName ?? '';
  }

  private allowsResize(claim: ClaimLike, old: ClaimLike): boolean {
    const name = this.classOf(claim);
    if (name === '' || name !== this.classOf(old)) return false;
    const sc: AdmissionObject | undefined = this.classes.get('', name);
    return sc?.['allowVolumeExpansion'] === true;
  }
}

/** Makes the plug-in over the server's StorageClass cache; it takes no configuration. */
export const persistentVolumeClaimResizeFactory: PluginFactory = (_configuration, deps) => {
  const classes = deps.lister(deps.domain.group('storage'), 'storageclasses');
  if (!classes) throw new Error('missing storageclass lister');
  return new PersistentVolumeClaimResize(classes, deps);
};
