// The persistentvolume-binder's two syncs, as upstream's PV controller (pv_controller.go) runs them
// without any provisioner or volume plugin of its own: syncClaim binds a Pending claim to the volume
// it names or to the best Available match, marks it Pending with upstream's events when none fits,
// and Lost when its volume goes; syncVolume keeps each volume's phase (Available, Bound, Released,
// Failed), undoes the controller's half-made bindings, and reclaims released volumes (Retain keeps
// them, Delete deletes what no plugin is needed for and fails the rest with upstream's message,
// Recycle fails for want of a recycler).
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import { isNotFound, objectKey, type EventRecorder, type Indexer, type KubeObject, type ResourceClient } from '../../client/index.js';
import type { Logger } from '../../log/logger.js';
import { podPVCIndex, type PodObject } from '../pod-pvc-index.js';
import type { BinderKeys } from './annotations.js';
import { deleteDecision } from './deleter.js';
import type { FreshCache } from './fresh-cache.js';
import { claimHasClass, classOf, findBestMatchForClaim, isVolumeBoundToClaim, volumeModeMismatch, volumeUnsatisfied, type ClaimObject, type VolumeObject } from './volume-matching.js';

type ClassObject = StorageClass & KubeObject;
type EventType = 'Normal' | 'Warning';

export interface BinderDeps {
  claims: FreshCache<ClaimObject>;
  volumes: FreshCache<VolumeObject>;
  classes: Indexer<ClassObject>;
  pods: Indexer<PodObject>;
  claimsClient: ResourceClient<ClaimObject>;
  volumesClient: ResourceClient<VolumeObject>;
  recorder: EventRecorder;
  logger: Logger;
  keys: BinderKeys;
  /** Asks for a claim to be synced soon (a volume sync found it half bound). */
  enqueueClaim(key: string): void;
}

const claimRefKey = (v: VolumeObject) => `${v.spec?.claimRef?.namespace ?? ''}/${v.spec?.claimRef?.name ?? ''}`;
const annotated = (o: KubeObject, key: string) => o.metadata.annotations !== undefined && Object.hasOwn(o.metadata.annotations, key);
const withAnnotation = <T extends KubeObject>(o: T, key: string, value: string): T =>
  ({ ...o, metadata: { ...o.metadata, annotations: { ...(o.metadata.annotations ?? {}), [key]: value } } });

export class Binder {
  constructor(private readonly d: BinderDeps) {}

  private event(obj: ClaimObject | VolumeObject, kind: 'PersistentVolumeClaim' | 'PersistentVolume', type: EventType, reason: string, message: string): void {
    void this.d.recorder.event({ apiVersion: 'v1', kind, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', uid: obj.metadata.uid ?? '' }, type, reason, message);
  }

  private claimEvent(c: ClaimObject, type: EventType, reason: string, message: string): void {
    this.event(c, 'PersistentVolumeClaim', type, reason, message);
  }

  private volumeEvent(v: VolumeObject, type: EventType, reason: string, message: string): void {
    this.event(v, 'PersistentVolume', type, reason, message);
  }

  // --- claims --------------------------------------------------------------------------------

  /** Upstream's syncClaim. */
  async syncClaim(key: string): Promise<void> {
    const claim = this.d.claims.get(key);
    if (!claim) return;
    if (annotated(claim, this.d.keys.bindCompleted)) await this.syncBoundClaim(claim);
    else await this.syncUnboundClaim(claim);
  }

  private async syncUnboundClaim(claim: ClaimObject): Promise<void> {
    const { logger, keys } = this.d;
    const key = objectKey(claim);
    const volumeName = claim.spec?.volumeName;
    if (!volumeName) {
      const delayBinding = this.isDelayBinding(claim);
      const volume = findBestMatchForClaim(claim, this.d.volumes.list(), delayBinding, keys.betaStorageClass);
      if (volume) {
        logger.v(4).info('Synchronizing unbound PersistentVolumeClaim, volume found', { PVC: key, volumeName: volume.metadata.name });
        await this.bind(volume, claim);
        return;
      }
      logger.v(4).info('Synchronizing unbound PersistentVolumeClaim, no volume found', { PVC: key });
      if (await this.assignDefaultStorageClass(claim)) return;
      if (delayBinding && !annotated(claim, keys.selectedNode)) {
        this.emitWaitingForConsumer(claim);
      } else if (classOf(claim, keys.betaStorageClass) !== '') {
        await this.provisionClaim(claim);
        return;
      } else {
        this.claimEvent(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
      }
      await this.updateClaimStatus(claim, 'Pending');
      return;
    }
    const volume = this.d.volumes.get(volumeName);
    if (!volume) {
      logger.v(4).info('Synchronizing unbound PersistentVolumeClaim, volume requested and not found, will try again next time', { PVC: key, volumeName });
      await this.updateClaimStatus(claim, 'Pending');
      return;
    }
    if (!volume.spec?.claimRef) {
      const why = volumeUnsatisfied(volume, claim, keys.betaStorageClass);
      if (why) {
        logger.v(4).info('Can\'t bind the claim to volume', { volumeName, err: why });
        this.claimEvent(claim, 'Warning', 'VolumeMismatch', `Cannot bind to requested volume ${JSON.stringify(volumeName)}: ${why}`);
        await this.updateClaimStatus(claim, 'Pending');
        return;
      }
      await this.bind(volume, claim);
      return;
    }
    if (isVolumeBoundToClaim(volume, claim)) {
      logger.v(4).info('Synchronizing unbound PersistentVolumeClaim, volume already bound, finishing the binding', { PVC: key, volumeName });
      await this.bind(volume, claim);
      return;
    }
    this.claimEvent(claim, 'Warning', 'FailedBinding', `volume ${JSON.stringify(volumeName)} already bound to a different claim.`);
    if (annotated(claim, keys.boundByController)) {
      // Someone removed bind-completed from a claim the controller bound: upstream treats it as an error.
      throw new Error(`invalid binding of claim ${JSON.stringify(key)} to volume ${JSON.stringify(volumeName)}: volume already claimed by ${JSON.stringify(claimRefKey(volume))}`);
    }
    logger.v(4).info('Synchronizing unbound PersistentVolumeClaim, volume already bound to different claim by user, will retry later', { PVC: key, volumeName });
    await this.updateClaimStatus(claim, 'Pending');
  }

  private async syncBoundClaim(claim: ClaimObject): Promise<void> {
    const volumeName = claim.spec?.volumeName;
    if (!volumeName) {
      await this.updateClaimStatus(claim, 'Lost', undefined, ['Warning', 'ClaimLost', 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!']);
      return;
    }
    const volume = this.d.volumes.get(volumeName);
    if (!volume) {
      await this.updateClaimStatus(claim, 'Lost', undefined, ['Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!']);
      return;
    }
    const ref = volume.spec?.claimRef;
    if (!ref || ref.uid === claim.metadata.uid) {
      // Unbound since (or bound all along): bind (again), which writes only what differs.
      await this.bind(volume, claim);
      return;
    }
    await this.updateClaimStatus(claim, 'Lost', undefined, ['Warning', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly']);
  }

  /** Upstream's IsDelayBindingMode: the claim's class binds WaitForFirstConsumer. */
  private isDelayBinding(claim: ClaimObject): boolean {
    const name = classOf(claim, this.d.keys.betaStorageClass);
    if (!name) return false;
    const cls = this.d.classes.getByKey(name);
    return cls?.volumeBindingMode === 'WaitForFirstConsumer';
  }

  /** Upstream's emitEventForUnboundDelayBindingClaim: which pods, if any, wait for the scheduler. */
  private emitWaitingForConsumer(claim: ClaimObject): void {
    const waiting = this.d.pods.byIndex(podPVCIndex, objectKey(claim))
      .filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.spec?.nodeName)
      .map((p) => p.metadata.name ?? '');
    if (waiting.length === 0) {
      this.claimEvent(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
    } else {
      this.claimEvent(claim, 'Normal', 'WaitForPodScheduled',
        waiting.length > 1 ? `waiting for pods ${waiting.join(',')} to be scheduled` : `waiting for pod ${waiting[0]} to be scheduled`);
    }
  }

  /** Upstream's assignDefaultStorageClass (retroactive default class): true when the claim was updated. */
  private async assignDefaultStorageClass(claim: ClaimObject): Promise<boolean> {
    const { keys } = this.d;
    if (claimHasClass(claim, keys.betaStorageClass)) return false;
    const defaults = this.d.classes.list().filter((c) => keys.defaultClass.some((k) => c.metadata.annotations?.[k] === 'true'));
    const created = (c: ClassObject) => Date.parse(c.metadata.creationTimestamp ?? '') || 0;
    defaults.sort((a, b) => created(b) - created(a) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    const cls = defaults[0];
    if (!cls) return false;
    this.d.logger.v(4).info('Assigning StorageClass to PersistentVolumeClaim', { PVC: objectKey(claim), storageClassName: cls.metadata.name });
    this.d.claims.wrote(await this.d.claimsClient.namespace(claim.metadata.namespace ?? '').update({ ...claim, spec: { ...claim.spec, storageClassName: cls.metadata.name! } }));
    return true;
  }

  /**
   * Upstream's provisionClaim with no provisioner plugin: a class that is missing, or names an
   * in-tree plugin, fails with an event; any other provisioner is external, asked for through the
   * claim's storage-provisioner annotations.
   */
  private async provisionClaim(claim: ClaimObject): Promise<void> {
    const { keys } = this.d;
    const name = classOf(claim, keys.betaStorageClass);
    const cls = this.d.classes.getByKey(name);
    if (!cls) {
      this.claimEvent(claim, 'Warning', 'ProvisioningFailed', `storageclass.${keys.storageGroup} ${JSON.stringify(name)} not found`);
      return;
    }
    const provisioner = cls.provisioner;
    if (provisioner.startsWith(keys.inTreePrefix)) {
      this.claimEvent(claim, 'Warning', 'ProvisioningFailed', `no volume plugin matched name: ${provisioner}`);
      return;
    }
    let current = claim;
    if (claim.metadata.annotations?.[keys.storageProvisioner] !== provisioner) {
      const asked = withAnnotation(withAnnotation(claim, keys.betaStorageProvisioner, provisioner), keys.storageProvisioner, provisioner);
      try {
        current = this.d.claims.wrote(await this.d.claimsClient.namespace(claim.metadata.namespace ?? '').update(asked));
      } catch (e) {
        this.claimEvent(claim, 'Warning', 'ProvisioningFailed', `Error saving claim: ${e instanceof Error ? e.message : String(e)}`);
        throw e;
      }
    }
    this.claimEvent(current, 'Normal', 'ExternalProvisioning', `Waiting for a volume to be created either by the external provisioner '${provisioner}' ` +
      'or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.');
  }

  /**
   * Upstream's updateClaimStatus(WithEvent): the phase, and the bound volume's access modes and (on
   * becoming Bound) capacity; the event only when the phase changes.
   */
  private async updateClaimStatus(claim: ClaimObject, phase: string, volume?: VolumeObject, event?: [EventType, string, string]): Promise<ClaimObject> {
    // With an event the phase change is the point: nothing is written (or said) when it holds already.
    if (event && claim.status?.phase === phase) return claim;
    const status = { ...(claim.status ?? {}) };
    let dirty = false;
    if (status.phase !== phase) {
      status.phase = phase;
      dirty = true;
    }
    if (!volume) {
      if (status.accessModes !== undefined) { delete status.accessModes; dirty = true; }
      if (status.capacity !== undefined) { delete status.capacity; dirty = true; }
    } else {
      if (JSON.stringify(status.accessModes ?? null) !== JSON.stringify(volume.spec?.accessModes ?? null)) {
        if (volume.spec?.accessModes) status.accessModes = volume.spec.accessModes;
        else delete status.accessModes;
        dirty = true;
      }
      // A capacity set while bound may differ on purpose (a filesystem smaller than its device).
      if (claim.status?.phase !== phase) {
        const capacity = volume.spec?.capacity?.storage;
        if (capacity === undefined) throw new Error(`PersistentVolume ${JSON.stringify(volume.metadata.name)} is without a storage capacity`);
        if (String(claim.status?.capacity?.storage ?? '') !== String(capacity)) {
          status.capacity = volume.spec!.capacity!;
          dirty = true;
        }
      }
    }
    if (!dirty) return claim;
    const updated = this.d.claims.wrote(await this.d.claimsClient.namespace(claim.metadata.namespace ?? '').updateStatus({ ...claim, status }));
    this.d.logger.v(2).info('claim entered phase', { PVC: objectKey(claim), phase });
    if (event) this.claimEvent(updated, ...event);
    return updated;
  }

  // --- binding -------------------------------------------------------------------------------

  /** Upstream's bind: the volume's claimRef, its phase, the claim's volumeName and annotations, its phase; each written only when it differs. */
  private async bind(volume: VolumeObject, claim: ClaimObject): Promise<void> {
    const { keys, logger } = this.d;
    logger.v(4).info('Binding volume to claim', { PVC: objectKey(claim), volumeName: volume.metadata.name });
    let pv = volume;
    const ref = pv.spec?.claimRef;
    const setByController = !isVolumeBoundToClaim(pv, claim);
    if (!ref || ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace || ref.uid !== claim.metadata.uid ||
      (setByController && !annotated(pv, keys.boundByController))) {
      let next: VolumeObject = {
        ...pv,
        spec: {
          ...pv.spec,
          claimRef: {
            kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace ?? '', name: claim.metadata.name ?? '',
            uid: claim.metadata.uid ?? '', apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion ?? '',
          },
        },
      };
      if (setByController && !annotated(next, keys.boundByController)) next = withAnnotation(next, keys.boundByController, 'yes');
      pv = this.d.volumes.wrote(await this.d.volumesClient.update(next));
    }
    pv = await this.updateVolumePhase(pv, 'Bound', '');
    let c = claim;
    const bindByController = c.spec?.volumeName !== pv.metadata.name;
    if (bindByController || !annotated(c, keys.bindCompleted)) {
      let next: ClaimObject = { ...c, spec: { ...c.spec, volumeName: pv.metadata.name! } };
      if (bindByController && !annotated(next, keys.boundByController)) next = withAnnotation(next, keys.boundByController, 'yes');
      if (!annotated(next, keys.bindCompleted)) next = withAnnotation(next, keys.bindCompleted, 'yes');
      c = this.d.claims.wrote(await this.d.claimsClient.namespace(c.metadata.namespace ?? '').update(next));
    }
    await this.updateClaimStatus(c, 'Bound', pv);
    logger.v(2).info('Volume bound to claim', { PVC: objectKey(claim), volumeName: pv.metadata.name });
  }

  // --- volumes -------------------------------------------------------------------------------

  /** Upstream's updateVolumePhase(WithEvent): the phase and its message, written when the phase changes. */
  private async updateVolumePhase(pv: VolumeObject, phase: string, message: string, event?: [EventType, string]): Promise<VolumeObject> {
    if (pv.status?.phase === phase) return pv;
    const status = { ...(pv.status ?? {}), phase };
    if (message) status.message = message;
    else delete status.message;
    const updated = this.d.volumes.wrote(await this.d.volumesClient.updateStatus({ ...pv, status }));
    this.d.logger.v(2).info('volume entered phase', { volumeName: pv.metadata.name, phase });
    if (event) this.volumeEvent(updated, event[0], event[1], message);
    return updated;
  }

  /** Upstream's syncVolume. */
  async syncVolume(name: string): Promise<void> {
    const { keys, logger } = this.d;
    const pv = this.d.volumes.get(name);
    if (!pv) return;
    const ref = pv.spec?.claimRef;
    if (!ref || !ref.uid) {
      // Unused, or reserved for a claim that has not bound yet (its sync does that).
      await this.updateVolumePhase(pv, 'Available', '');
      return;
    }
    const claimKey = claimRefKey(pv);
    let claim = this.d.claims.get(claimKey);
    if (!claim && pv.status?.phase !== 'Released' && pv.status?.phase !== 'Failed') {
      // The cache may not have the claim yet: never release a volume on its word alone.
      claim = await this.liveClaim(ref.namespace ?? '', ref.name ?? '');
    } else if (claim && claim.metadata.uid !== ref.uid) {
      claim = await this.liveClaim(ref.namespace ?? '', ref.name ?? '');
    }
    if (claim && claim.metadata.uid !== ref.uid) claim = undefined;
    if (!claim) {
      let current = pv;
      if (pv.status?.phase !== 'Released' && pv.status?.phase !== 'Failed') {
        logger.v(2).info('Volume is released and reclaim policy will be executed', { volumeName: name, reclaimPolicy: pv.spec?.persistentVolumeReclaimPolicy });
        current = await this.updateVolumePhase(pv, 'Released', '');
      }
      await this.reclaimVolume(current);
      return;
    }
    if (!claim.spec?.volumeName) {
      if (volumeModeMismatch(claim, pv)) {
        this.volumeEvent(pv, 'Warning', 'VolumeMismatch', `Cannot bind PersistentVolume to requested PersistentVolumeClaim ${JSON.stringify(claim.metadata.name)} due to incompatible volumeMode.`);
        this.claimEvent(claim, 'Warning', 'VolumeMismatch', `Cannot bind PersistentVolume ${JSON.stringify(name)} to requested PersistentVolumeClaim due to incompatible volumeMode.`);
        return;
      }
      // Bound on the volume's side, not yet on the claim's: the claim's sync finishes it.
      this.d.enqueueClaim(claimKey);
      return;
    }
    if (claim.spec.volumeName === name) {
      await this.updateVolumePhase(pv, 'Bound', '');
      return;
    }
    // The claim went to another volume.
    if (annotated(pv, keys.provisionedBy) && pv.spec?.persistentVolumeReclaimPolicy === 'Delete') {
      let current = pv;
      if (pv.status?.phase !== 'Released' && pv.status?.phase !== 'Failed') current = await this.updateVolumePhase(pv, 'Released', '');
      await this.reclaimVolume(current);
      return;
    }
    await this.unbindVolume(pv);
  }

  private async liveClaim(namespace: string, name: string): Promise<ClaimObject | undefined> {
    try {
      return await this.d.claimsClient.namespace(namespace).get(name);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  /** Upstream's unbindVolume: a binding the controller made is undone, a user's pre-binding loses only its uid. */
  private async unbindVolume(pv: VolumeObject): Promise<void> {
    const { keys } = this.d;
    let next: VolumeObject;
    if (annotated(pv, keys.boundByController)) {
      const { [keys.boundByController]: _dropped, ...annotations } = pv.metadata.annotations ?? {};
      const { claimRef: _ref, ...spec } = pv.spec ?? {};
      next = { ...pv, metadata: { ...pv.metadata, annotations }, spec };
    } else {
      next = { ...pv, spec: { ...pv.spec, claimRef: { ...pv.spec!.claimRef!, uid: '' } } };
    }
    const updated = this.d.volumes.wrote(await this.d.volumesClient.update(next));
    await this.updateVolumePhase(updated, 'Available', '');
  }

  /** Upstream's reclaimVolume, every reclaim done at once (there is no plugin operation to wait for). */
  private async reclaimVolume(pv: VolumeObject): Promise<void> {
    const { keys, logger } = this.d;
    const policy = pv.spec?.persistentVolumeReclaimPolicy;
    switch (policy) {
      case 'Retain':
        logger.v(4).info('ReclaimVolume: policy is Retain, nothing to do', { volumeName: pv.metadata.name });
        return;
      case 'Recycle':
        await this.updateVolumePhase(pv, 'Failed', 'No recycler plugin found for the volume!', ['Warning', 'VolumeFailedRecycle']);
        return;
      case 'Delete': {
        const decision = deleteDecision(pv, keys.provisionedBy, keys.inTreePrefix);
        if (decision.kind === 'external') {
          logger.v(3).info('External deleter for volume requested, ignoring', { volumeName: pv.metadata.name });
          return;
        }
        if (decision.kind === 'failed') {
          await this.updateVolumePhase(pv, 'Failed', decision.message, ['Warning', 'VolumeFailedDelete']);
          return;
        }
        try {
          await this.d.volumesClient.delete(pv.metadata.name ?? '');
          logger.v(4).info('DeleteVolumeOperation: success', { volumeName: pv.metadata.name });
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        return;
      }
      default:
        await this.updateVolumePhase(pv, 'Failed', 'Volume has unrecognized PersistentVolumeReclaimPolicy', ['Warning', 'VolumeUnknownReclaimPolicy']);
    }
  }
}
