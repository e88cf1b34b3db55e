// Starting a server leaves garbage behind that an idle server would keep for good: V8 collects
// old objects only as the heap grows, and an idle server allocates too little to grow it. What
// starting leaves is large: each kind's schemas built and checked, the bootstrap policy written,
// a young generation grown to its cap by that burst of allocation, and the bytecode of code that
// ran once. One collection of everything collectable, as V8 does under memory pressure, returns it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

interface GcOptions {
  type: 'major';
  execution: 'sync';
  /** 'last-resort': collect until nothing more is freed, shrink the young generation, flush old bytecode. */
  flavor: 'last-resort';
}

/** Collects all the garbage this thread's heap holds, once, now that the server has started. */
export function collectStartupGarbage(): void {
  // V8 offers this collection to scripts only through the gc() of a context made with
  // --expose-gc. The flag stays set: unsetting it could race a second thread reaching for its gc().
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('typeof gc === "function" ? gc : undefined') as ((o: GcOptions) => void) | undefined;
  gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
