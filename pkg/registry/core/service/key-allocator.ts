// Race-safe allocation of named items (IPs, ports) across every API server process sharing an
// etcd: each allocated item is one storage key, written with create-if-absent, recording which
// object holds it. A key is removed when its holder lets go of the item. A key whose holder is
// gone (a server died between deleting a Service and releasing its items) is reclaimed by the
// next allocation that meets it, once it is older than a grace period.
import { randomInt } from 'node:crypto';
import { formatTime } from '../../../../api/meta/v1/primitives.js';
import { isStorageError } from '../../../storage/errors.js';
import type { Storage, StoredObject } from '../../../storage/interface.js';

/** The object an item is allocated to. */
export interface Holder {
  namespace: string;
  name: string;
  uid: string;
}

/** Whether `holder` still exists and uses `item`; consulted before reclaiming a key. */
export type StillHeld = (holder: Holder, item: string) => Promise<boolean>;

interface AllocationRecord extends StoredObject {
  holder: Holder;
}

/** How old an allocation must be before it may be reclaimed from a holder that no longer uses it. */
const RECLAIM_GRACE_MS = 60_000;

export class KeyAllocator {
  constructor(
    private readonly storage: Storage,
    /** Storage key prefix, e.g. /ranges/serviceips/ */
    private readonly prefix: string,
    private readonly stillHeld: StillHeld,
    private readonly graceMs = RECLAIM_GRACE_MS,
  ) {}

  private key(item: string): string {
    return this.prefix + item;
  }

  /** Allocates `item` to `holder`; false when another holder has it. Allocating an item one already holds succeeds. */
  async allocate(item: string, holder: Holder): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const record: AllocationRecord = { metadata: { name: item, creationTimestamp: formatTime(new Date()) }, holder };
      try {
        await this.storage.create(this.key(item), record);
        return true;
      } catch (e) {
        if (!isStorageError(e, 'KeyExists')) throw e;
      }
      let current: AllocationRecord;
      try {
        current = (await this.storage.get(this.key(item))) as AllocationRecord;
      } catch (e) {
        if (isStorageError(e, 'KeyNotFound')) continue; // released meanwhile
        throw e;
      }
      if (current.holder?.uid === holder.uid) return true;
      if (!(await this.reclaimable(current, item))) return false;
      try {
        await this.storage.delete(this.key(item), { preconditions: { resourceVersion: current.metadata.resourceVersion! } });
      } catch (e) {
        if (!isStorageError(e, 'KeyNotFound') && !isStorageError(e, 'ResourceVersionConflicts')) throw e;
      }
    }
    return false;
  }

  private async reclaimable(record: AllocationRecord, item: string): Promise<boolean> {
    const created = Date.parse(record.metadata.creationTimestamp ?? '');
    if (Number.isFinite(created) && Date.now() - created < this.graceMs) return false;
    return !(record.holder && (await this.stillHeld(record.holder, item)));
  }

  /** Whether `item` could be allocated to `holder` now (for dry runs); writes nothing. */
  async available(item: string, holder: Holder): Promise<boolean> {
    try {
      const current = (await this.storage.get(this.key(item))) as AllocationRecord;
      return current.holder?.uid === holder.uid || (await this.reclaimable(current, item));
    } catch (e) {
      if (isStorageError(e, 'KeyNotFound')) return true;
      throw e;
    }
  }

  /** The items allocated now, from one read. */
  async allocated(): Promise<Set<string>> {
    const res = await this.storage.list(this.prefix);
    return new Set(res.items.map((o) => o.metadata.name ?? ''));
  }

  /**
   * Allocates some free item, trying each band in turn (a random order within a band); null
   * when every item is taken. With `dryRun` it only picks one that looks free.
   */
  async allocateAny(bands: readonly (readonly string[])[], holder: Holder, dryRun = false): Promise<string | null> {
    const taken = await this.allocated();
    for (const band of bands) {
      const free = band.filter((i) => !taken.has(i));
      // Fisher-Yates: concurrent allocators start from different items, so they rarely collide.
      for (let i = free.length - 1; i > 0; i--) {
        const j = randomInt(i + 1);
        [free[i], free[j]] = [free[j]!, free[i]!];
      }
      for (const item of free) {
        if (dryRun) return item;
        if (await this.allocate(item, holder)) return item;
      }
    }
    return null;
  }

  /** Lets go of `item` if `holder` holds it; a key held by another is left alone. */
  async release(item: string, holder: Holder): Promise<void> {
    try {
      await this.storage.delete(this.key(item), {
        validateDeletion: async (current) => {
          if ((current as AllocationRecord).holder?.uid !== holder.uid) throw new NotHolder();
        },
      });
    } catch (e) {
      if (e instanceof NotHolder || isStorageError(e, 'KeyNotFound')) return;
      throw e;
    }
  }
}

class NotHolder extends Error {}
