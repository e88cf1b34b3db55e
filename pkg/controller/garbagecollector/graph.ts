// The dependency graph of the garbage collector (upstream's GraphBuilder and node): one node per
// uid seen as an object or named as an owner, edges from owners to their dependents. Informer
// events change it in order; what they reveal (an owner gone, an owner starting a foreground or
// orphan deletion, a dependent naming an owner it cannot have) is handed to the collector's queues.
import type { ObjectMeta } from '../../../api/meta/v1/types.js';

export type OwnerReference = NonNullable<ObjectMeta['ownerReferences']>[number];

/** An object's coordinates: what a GET needs, and the uid that must still match. */
export interface Identity {
  apiVersion: string;
  kind: string;
  /** '' for a cluster-scoped object, or for an owner whose scope is not known yet. */
  namespace: string;
  name: string;
  uid: string;
}

export const orphanFinalizer = 'orphan';
export const foregroundFinalizer = 'foregroundDeletion';

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: OwnerReference[] = [];
  /** Seen through an informer (not only named in someone's ownerReferences). */
  observed = false;
  beingDeleted = false;
  /** Being deleted in the foreground: it waits for its blocking dependents. */
  deletingDependents = false;

  constructor(public identity: Identity, readonly virtual: boolean) {}

  /** Dependents whose reference to this node blocks its deletion. */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((d) => d.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true));
  }

  toString(): string {
    const i = this.identity;
    return `[${i.apiVersion}/${i.kind}, namespace: ${i.namespace}, name: ${i.name}, uid: ${i.uid}]`;
  }
}

/** The metadata the graph reads from any object. */
export interface ObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

export type GraphEventType = 'add' | 'update' | 'delete';

export interface GraphSinks {
  attemptToDelete(n: GraphNode): void;
  attemptToOrphan(n: GraphNode): void;
  /** A dependent names an owner by a uid that lives in another namespace (upstream's OwnerRefInvalidNamespace). */
  invalidNamespaceOwnerRef(dependent: GraphNode, ownerUID: string): void;
}

function identityOf(obj: ObjectLike): Identity {
  return {
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? '',
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
    uid: obj.metadata.uid ?? '',
  };
}

function sameIdentity(a: Identity, b: Identity): boolean {
  return a.apiVersion === b.apiVersion && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name && a.uid === b.uid;
}

/** Whether an owner reference names the coordinates of `id` (namespace aside). */
function refMatches(ref: OwnerReference, id: Identity): boolean {
  return ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && ref.apiVersion === id.apiVersion;
}

const beingDeleted = (obj: ObjectLike) => !!obj.metadata.deletionTimestamp;
const hasFinalizer = (obj: ObjectLike, f: string) => (obj.metadata.finalizers ?? []).includes(f);

/** The object has just entered deletion with `finalizer` (or is first seen so). */
function startsWaitingFor(oldObj: ObjectLike | undefined, obj: ObjectLike, finalizer: string): boolean {
  if (!beingDeleted(obj) || !hasFinalizer(obj, finalizer)) return false;
  return !oldObj || !beingDeleted(oldObj) || !hasFinalizer(oldObj, finalizer);
}

export class Graph {
  readonly uidToNode = new Map<string, GraphNode>();

  constructor(private readonly sinks: GraphSinks) {}

  /** Applies one change; `virtual` deletions are the collector's verdict that an object does not exist. */
  process(type: GraphEventType, obj: ObjectLike, oldObj?: ObjectLike, virtual = false): void {
    const uid = obj.metadata.uid ?? '';
    if (!uid) return;
    let existing = this.uidToNode.get(uid);
    if (existing && !virtual && !existing.observed) {
      // A node made from someone's owner reference is now seen for real: dependents that named it
      // by other coordinates may be wrong, and get checked.
      const observed = identityOf(obj);
      if (!sameIdentity(observed, existing.identity)) {
        for (const dep of existing.dependents) {
          const ref = dep.owners.find((o) => o.uid === uid);
          const matches = ref && refMatches(ref, observed) && (!observed.namespace || dep.identity.namespace === observed.namespace);
          if (matches) continue;
          if (observed.namespace && dep.identity.namespace !== observed.namespace) this.sinks.invalidNamespaceOwnerRef(dep, uid);
          this.sinks.attemptToDelete(dep);
        }
        existing.identity = observed;
      }
      existing.observed = true;
    }
    if (type !== 'delete') {
      if (!existing) {
        const n = new GraphNode(identityOf(obj), false);
        n.observed = !virtual;
        n.owners = obj.metadata.ownerReferences ?? [];
        n.beingDeleted = beingDeleted(obj);
        n.deletingDependents = n.beingDeleted && hasFinalizer(obj, foregroundFinalizer);
        this.uidToNode.set(uid, n);
        this.addDependentToOwners(n, n.owners);
        existing = n;
      } else {
        const { added, removed, changed } = referenceDiffs(existing.owners, obj.metadata.ownerReferences ?? []);
        if (added.length || removed.length || changed.length) {
          this.addUnblockedOwnersToDeleteQueue(removed, changed);
          existing.owners = obj.metadata.ownerReferences ?? [];
          this.addDependentToOwners(existing, added);
          this.removeDependentFromOwners(existing, removed);
        }
        if (beingDeleted(obj)) existing.beingDeleted = true;
      }
      this.processTransitions(oldObj, obj, existing);
      return;
    }
    if (!existing) return;
    if (virtual && !sameIdentity(existing.identity, identityOf(obj))) {
      // The verdict was about other coordinates than the ones we know this uid by: only the
      // dependents that named those coordinates are affected.
      for (const dep of existing.dependents) {
        const ref = dep.owners.find((o) => o.uid === uid);
        if (ref && refMatches(ref, identityOf(obj))) this.sinks.attemptToDelete(dep);
      }
      return;
    }
    this.uidToNode.delete(uid);
    for (const owner of existing.owners) this.uidToNode.get(owner.uid)?.dependents.delete(existing);
    for (const dep of existing.dependents) this.sinks.attemptToDelete(dep);
    for (const owner of existing.owners) {
      const ownerNode = this.uidToNode.get(owner.uid);
      // An owner deleting in the foreground may have been waiting for this one.
      if (ownerNode?.deletingDependents) this.sinks.attemptToDelete(ownerNode);
    }
  }

  private processTransitions(oldObj: ObjectLike | undefined, obj: ObjectLike, n: GraphNode): void {
    if (startsWaitingFor(oldObj, obj, orphanFinalizer)) {
      this.sinks.attemptToOrphan(n);
      return;
    }
    if (startsWaitingFor(oldObj, obj, foregroundFinalizer)) {
      n.deletingDependents = true;
      for (const dep of n.dependents) this.sinks.attemptToDelete(dep);
      this.sinks.attemptToDelete(n);
    }
  }

  /** Links `n` under each owner, making a virtual node for an owner not seen yet (it gets verified). */
  private addDependentToOwners(n: GraphNode, owners: OwnerReference[]): void {
    let suspicious = false;
    for (const owner of owners) {
      let ownerNode = this.uidToNode.get(owner.uid);
      const known = !!ownerNode;
      if (!ownerNode) {
        ownerNode = new GraphNode({ apiVersion: owner.apiVersion, kind: owner.kind, namespace: n.identity.namespace, name: owner.name, uid: owner.uid }, true);
        this.uidToNode.set(owner.uid, ownerNode);
      }
      ownerNode.dependents.add(n);
      if (!known) {
        this.sinks.attemptToDelete(ownerNode);
        continue;
      }
      const ownerNamespaced = ownerNode.identity.namespace !== '';
      if (ownerNamespaced && ownerNode.identity.namespace !== n.identity.namespace) {
        // A namespaced owner can only own objects of its own namespace.
        if (ownerNode.observed) this.sinks.invalidNamespaceOwnerRef(n, owner.uid);
        suspicious = true;
      } else if (!refMatches(owner, ownerNode.identity)) {
        suspicious = true;
      } else if (!ownerNamespaced && ownerNode.identity.namespace !== n.identity.namespace && !ownerNode.observed) {
        // A virtual owner we only guessed to be cluster-scoped: may be a namespaced kind wrongly referenced.
        suspicious = true;
      }
    }
    if (suspicious) this.sinks.attemptToDelete(n);
  }

  private removeDependentFromOwners(n: GraphNode, owners: OwnerReference[]): void {
    for (const owner of owners) this.uidToNode.get(owner.uid)?.dependents.delete(n);
  }

  /** An owner deleting in the foreground is re-checked when a dependent stops blocking it. */
  private addUnblockedOwnersToDeleteQueue(removed: OwnerReference[], changed: { oldRef: OwnerReference; newRef: OwnerReference }[]): void {
    for (const ref of removed) {
      if (ref.blockOwnerDeletion !== true) continue;
      const node = this.uidToNode.get(ref.uid);
      if (node?.deletingDependents) this.sinks.attemptToDelete(node);
    }
    for (const { oldRef, newRef } of changed) {
      if (oldRef.blockOwnerDeletion === true && newRef.blockOwnerDeletion !== true) {
        const node = this.uidToNode.get(newRef.uid);
        if (node?.deletingDependents) this.sinks.attemptToDelete(node);
      }
    }
  }
}

/** References added, removed, and changed (same uid, other fields), by uid. */
export function referenceDiffs(old: OwnerReference[], now: OwnerReference[]): { added: OwnerReference[]; removed: OwnerReference[]; changed: { oldRef: OwnerReference; newRef: OwnerReference }[] } {
  const oldByUID = new Map(old.map((r) => [r.uid, r]));
  const newByUID = new Map(now.map((r) => [r.uid, r]));
  const added = now.filter((r) => !oldByUID.has(r.uid));
  const removed = old.filter((r) => !newByUID.has(r.uid));
  const changed = now.filter((r) => oldByUID.has(r.uid) && JSON.stringify(oldByUID.get(r.uid)) !== JSON.stringify(r))
    .map((r) => ({ oldRef: oldByUID.get(r.uid)!, newRef: r }));
  return { added, removed, changed };
}
