// Periodic compaction of etcd history, as upstream's API server does it: at each tick the current
// revision is recorded, and history is compacted up to the revision recorded one tick earlier, so
// at least one interval of history stays available to watches and paged lists. Several API
// servers share the work through a version-checked key, so each interval compacts once.
import type { Etcd3 } from 'etcd3';

const compactRevKey = Buffer.from('compact_rev_key');

export interface CompactorEvents {
  compacted(revision: number): void;
  failed(err: unknown): void;
}

/** Starts compacting every `intervalMs`; returns a function that stops it. */
export function startCompactor(client: Etcd3, intervalMs: number, events: CompactorEvents): () => void {
  let lastVersion = 0;
  let lastRevision = 0;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      // Claim this interval: only the server that saw the key's current version wins.
      const res = await client.kv.txn({
        compare: [{ key: compactRevKey, target: 'Version', result: 'Equal', version: lastVersion }],
        success: [{ request_put: { key: compactRevKey, value: Buffer.from(String(lastRevision)) } }],
        failure: [{ request_range: { key: compactRevKey } }],
      });
      const revision = Number(res.header.revision);
      if (!res.succeeded) {
        lastVersion = Number(res.responses[0]?.response_range.kvs[0]?.version ?? 0);
        lastRevision = revision;
        return;
      }
      lastVersion++;
      const target = lastRevision;
      lastRevision = revision;
      if (target > 0) {
        await client.kv.compact({ revision: target, physical: false });
        events.compacted(target);
      }
    } catch (e) {
      if (!String((e as Error).message).includes('compacted')) events.failed(e);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
