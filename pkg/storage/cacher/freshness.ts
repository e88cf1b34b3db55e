// When a watch cache may answer a consistent read. Upstream asks etcd for a watch progress
// notification and waits until the cache has seen it; the etcd3 npm client cannot send a progress
// request, so the cache asks etcd one cheap question about the listed prefix instead (a keys-only
// range cut to the key changed last, Etcd3Storage.probe):
//
//   R = etcd's revision when it answered (after the read began),
//   M = the highest mod_revision of any key under the prefix at R,
//   C = how many keys the prefix holds at R.
//
// Claim: a cache that has applied exactly the events up to revision r (the state S(r) of etcd at r)
// may answer the read with that state, reported at revision max(r, R), when r >= R, or when
// r >= M and the cache holds exactly C keys under the prefix.
//
// Proof. If r >= R, S(r) is a state of etcd at a revision no older than R, itself no older than the
// read's start: a linearizable answer, at revision r. Otherwise M <= r < R. Every key under the
// prefix at R has its mod_revision <= M <= r, so it was last written at or before r and not deleted
// since: it is in S(r) with the same value. So S(R) is a subset of S(r) on the prefix. (A key put
// after r and deleted again before R is in neither; one put after r and still there at R would
// have a mod_revision above r.) A subset of a finite set with as many elements as the set is the
// set itself: |S(R)| = C = |S(r)| gives S(R) = S(r) on the prefix, so the cache's state is etcd's
// state at R, and the answer is reported at R. A deletion after r that the cache has not applied
// leaves the counts apart (S(r) holds the key, S(R) does not, and nothing after r can add a key that
// is still there at R), which is why the count is needed beside M.
//
// The check runs after each change of the cache until it holds; a cache that cannot confirm within
// the timeout (events delayed, or a delete it has not seen yet on a resource etcd reports no
// progress for) leaves the read to etcd.
import type { PrefixProbe } from '../interface.js';
import type { CacheStore } from './cache-store.js';

/**
 * `read(revision)` of the store's state once it is confirmed current, called in the same turn as
 * the confirmation (so on exactly the state confirmed), with the revision to report it at;
 * undefined if the store could not be confirmed within `timeoutMs`.
 */
export function answerWhenFresh<T>(store: CacheStore, prefix: string, probe: PrefixProbe, timeoutMs: number, read: (revision: number) => T): Promise<T | undefined> {
  return store.when(() => {
    const revision = freshAt(store, prefix, probe);
    return revision === undefined ? undefined : read(revision);
  }, timeoutMs);
}

/** The revision the store's current state of `prefix` is etcd's state at, if the probe proves one (see above). */
export function freshAt(store: CacheStore, prefix: string, probe: PrefixProbe): number | undefined {
  const r = store.revision;
  if (r >= probe.revision) return r;
  if (r >= probe.newestModRevision && store.count(prefix) === probe.count) return probe.revision;
  return undefined;
}
