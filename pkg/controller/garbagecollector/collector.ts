// What the garbage collector does to one node (upstream's attemptToDeleteItem, attemptToOrphan and
// processDeletingDependentsItem). Every decision re-reads the objects live by uid: the graph may
// lag the server, and acting on a stale cache would delete objects that still have owners.
import { isConflict, isNotFound, type Client, type EventRecorder, type KubeObject, type ResourceClient } from '../../client/index.js';
import type { Logger } from '../../log/logger.js';
import { foregroundFinalizer, orphanFinalizer, type Graph, type GraphNode, type Identity, type OwnerReference } from './graph.js';
import type { RestMapper } from './rest-mapper.js';

/** The node was found absent; a virtual deletion went through the graph instead. */
export class VirtualDeleteEnqueued extends Error {}
/** A cluster-scoped object names a namespaced owner: retrying will never resolve it. */
export class NamespacedOwnerOfClusterScopedObject extends Error {}
/** The kind of a reference is not served (yet): retried after discovery may know it. */
export class RestMappingError extends Error {}

type Policy = 'Orphan' | 'Foreground' | 'Background';

export class Collector {
  /** Invalid references already reported, so a retry does not repeat the event. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly client: Client,
    private readonly mapper: RestMapper,
    private readonly graph: Graph,
    private readonly recorder: EventRecorder,
    private readonly logger: Logger,
    private readonly enqueueDelete: (n: GraphNode) => void,
  ) {}

  private async resourceFor(apiVersion: string, kind: string, namespace: string): Promise<{ rc: ResourceClient; namespaced: boolean }> {
    const m = await this.mapper.mapping(apiVersion, kind);
    if (!m) throw new RestMappingError(`no resource serves ${kind} in ${apiVersion}`);
    const rc = this.client.resource(m.group, m.version, m.resource);
    return { rc: m.namespaced && namespace ? rc.namespace(namespace) : rc, namespaced: m.namespaced };
  }

  /** The live object of `id`'s coordinates, or undefined when absent (a namespaced kind without a namespace cannot exist). */
  private async getObject(id: Identity): Promise<KubeObject | undefined> {
    const { rc, namespaced } = await this.resourceFor(id.apiVersion, id.kind, id.namespace);
    if (namespaced && !id.namespace) return undefined;
    try {
      return await rc.get(id.name);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  private async patchMetadata(id: Identity, metadata: Record<string, unknown>): Promise<void> {
    const { rc } = await this.resourceFor(id.apiVersion, id.kind, id.namespace);
    await rc.patch(id.name, 'merge', { metadata: { uid: id.uid, ...metadata } });
  }

  private async deleteObject(id: Identity, policy: Policy): Promise<void> {
    const { rc } = await this.resourceFor(id.apiVersion, id.kind, id.namespace);
    this.logger.info('Deleting item', { item: describe(id), propagationPolicy: policy });
    try {
      await rc.delete(id.name, { propagationPolicy: policy, preconditions: { uid: id.uid } });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  private virtualDelete(id: Identity): never {
    this.graph.process('delete', { apiVersion: id.apiVersion, kind: id.kind, metadata: { namespace: id.namespace || undefined, name: id.name, uid: id.uid } }, undefined, true);
    throw new VirtualDeleteEnqueued();
  }

  /** Decides whether `item` goes, loses some owner references, or stays (upstream attemptToDeleteItem). */
  async attemptToDelete(item: GraphNode): Promise<void> {
    if (item.beingDeleted && !item.deletingDependents) return;
    const latest = await this.getObject(item.identity);
    if (!latest || latest.metadata.uid !== item.identity.uid) this.virtualDelete(item.identity);
    if (item.deletingDependents) return this.processDeletingDependents(item);
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return;
    const { solid, dangling, waiting } = await this.classify(item, refs);
    this.logger.v(5).info('Classified references', { item: describe(item.identity), solid: solid.length, dangling: dangling.length, waitingForDependentsDeletion: waiting.length });
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      // Owners that are gone, or that wait for their dependents, lose this dependent; the solid owners keep it alive.
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      this.logger.info('Removing owner references of item', { item: describe(item.identity), owners: [...drop] });
      await this.patchMetadata(item.identity, {
        resourceVersion: latest.metadata.resourceVersion,
        ownerReferences: refs.filter((r) => !drop.has(r.uid)),
      });
      return;
    }
    if (waiting.length > 0 && item.dependents.size > 0) {
      if ([...item.dependents].some((d) => d.deletingDependents)) {
        // A dependent of ours also waits for its dependents: unblock our owners, or the two could wait on each other forever.
        this.logger.info('Unblocking owner references of item to prevent a cycle', { item: describe(item.identity) });
        await this.patchMetadata(item.identity, {
          resourceVersion: latest.metadata.resourceVersion,
          ownerReferences: refs.map((r) => (r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r)),
        });
      }
      // It has dependents of its own: it goes in the foreground too, and is processed again as deleting-dependents.
      return this.deleteObject(item.identity, 'Foreground');
    }
    const finalizers = latest.metadata.finalizers ?? [];
    const policy: Policy = finalizers.includes(orphanFinalizer) ? 'Orphan' : finalizers.includes(foregroundFinalizer) ? 'Foreground' : 'Background';
    return this.deleteObject(item.identity, policy);
  }

  /** Sorts references into owners that exist, are gone (or have another uid), and wait for their dependents. */
  private async classify(item: GraphNode, refs: OwnerReference[]): Promise<{ solid: OwnerReference[]; dangling: OwnerReference[]; waiting: OwnerReference[] }> {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const { namespaced } = await this.resourceFor(ref.apiVersion, ref.kind, item.identity.namespace);
      if (namespaced && !item.identity.namespace) {
        this.reportInvalidNamespace(item, ref);
        throw new NamespacedOwnerOfClusterScopedObject(`${describe(item.identity)} is cluster-scoped but names a namespaced owner ${ref.kind} ${ref.name}`);
      }
      const owner = await this.getObject({ apiVersion: ref.apiVersion, kind: ref.kind, namespace: namespaced ? item.identity.namespace : '', name: ref.name, uid: ref.uid });
      if (!owner || owner.metadata.uid !== ref.uid) {
        dangling.push(ref);
      } else if (owner.metadata.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(foregroundFinalizer)) {
        waiting.push(ref);
      } else {
        solid.push(ref);
      }
    }
    return { solid, dangling, waiting };
  }

  /** Upstream's reportInvalidNamespaceOwnerRef, once per dependent and owner. */
  reportInvalidNamespace(dependent: GraphNode, ref: OwnerReference | { uid: string }): void {
    const key = `${dependent.identity.uid}/${ref.uid}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const owner = 'name' in ref ? ref : dependent.owners.find((o) => o.uid === ref.uid);
    const coords = owner
      ? `[${owner.apiVersion}/${owner.kind}, namespace: ${dependent.identity.namespace}, name: ${owner.name}, uid: ${owner.uid}]`
      : `[uid: ${ref.uid}]`;
    this.logger.info('Item references an owner but does not match namespaces', { item: describe(dependent.identity), owner: coords });
    void this.recorder.event(dependent.identity, 'Warning', 'OwnerRefInvalidNamespace', `ownerRef ${coords} does not exist in namespace "${dependent.identity.namespace}"`);
  }

  /** A foreground deletion: its finalizer goes once no blocking dependent is left; until then they are pushed along. */
  private async processDeletingDependents(item: GraphNode): Promise<void> {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      this.logger.info('Removing finalizer of item', { item: describe(item.identity), finalizer: foregroundFinalizer });
      return this.removeFinalizer(item.identity, foregroundFinalizer);
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.enqueueDelete(dep);
  }

  /** Orphans the dependents of `owner` (their references to it go), then removes its `orphan` finalizer. */
  async attemptToOrphan(owner: GraphNode): Promise<void> {
    for (const dep of [...owner.dependents]) {
      let attempts = 0;
      for (;;) {
        const latest = await this.getObject(dep.identity);
        if (!latest || latest.metadata.uid !== dep.identity.uid) break;
        const refs = latest.metadata.ownerReferences ?? [];
        if (!refs.some((r) => r.uid === owner.identity.uid)) break;
        try {
          await this.patchMetadata(dep.identity, {
            resourceVersion: latest.metadata.resourceVersion,
            ownerReferences: refs.filter((r) => r.uid !== owner.identity.uid),
          });
          break;
        } catch (e) {
          if (isNotFound(e)) break;
          if (!isConflict(e) || ++attempts >= 5) throw e;
        }
      }
    }
    this.logger.info('Orphaned dependents, removing finalizer', { owner: describe(owner.identity), dependents: owner.dependents.size, finalizer: orphanFinalizer });
    await this.removeFinalizer(owner.identity, orphanFinalizer);
  }

  /** Removes one finalizer, retrying on conflicts; nothing to do once the object or the finalizer is gone. */
  private async removeFinalizer(id: Identity, finalizer: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const latest = await this.getObject(id);
      if (!latest || latest.metadata.uid !== id.uid) return;
      const finalizers = latest.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) return;
      try {
        await this.patchMetadata(id, { resourceVersion: latest.metadata.resourceVersion, finalizers: finalizers.filter((f) => f !== finalizer) });
        return;
      } catch (e) {
        if (isNotFound(e)) return;
        if (!isConflict(e) || attempt >= 5) throw e;
      }
    }
  }
}

export function describe(id: Identity): string {
  return `${id.apiVersion}/${id.kind}, namespace: ${id.namespace}, name: ${id.name}, uid: ${id.uid}`;
}
