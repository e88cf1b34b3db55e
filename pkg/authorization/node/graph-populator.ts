// Keeps the graph current from the change events of the in-process pod and PersistentVolume
// caches, as upstream's graph_populator does from informers: a pod enters the graph once it is
// bound to a node and leaves it when deleted; a PV is recorded again on every change.
import type { ApiDomain } from '../../../api/domain.js';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Graph } from './graph.js';
import { persistentVolumeReferences, podReferences } from './references.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export class GraphPopulator {
  constructor(private readonly graph: Graph, private readonly domain: ApiDomain) {}

  /** Applies one change of a pod. */
  pod(type: ChangeType, pod: Pod, old: Pod | undefined): void {
    const nodeName = pod.spec?.nodeName ?? '';
    if (!nodeName) return; // not bound: no node reaches anything through it yet
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    if (type === 'DELETED') {
      this.graph.deletePod(namespace, name);
      return;
    }
    // Once bound, what a pod refers to does not change: only a new binding or a new pod of the
    // same name (another uid) is recorded again, not every status write.
    if (old && (old.spec?.nodeName ?? '') === nodeName && old.metadata?.uid === pod.metadata?.uid) return;
    this.graph.addPod(podReferences(pod, this.domain));
  }

  /** Applies one change of a PersistentVolume. */
  persistentVolume(type: ChangeType, pv: PersistentVolume): void {
    const name = pv.metadata?.name ?? '';
    if (type === 'DELETED') this.graph.deletePersistentVolume(name);
    else this.graph.addPersistentVolume(name, persistentVolumeReferences(pv));
  }
}
