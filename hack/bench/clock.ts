// One clock for every thread of the bench: the monotonic clock behind process.hrtime is the same
// in the main thread and in worker threads (performance.now() is not: each worker has its own
// time origin), so a watcher's receive time can be set against the create's response time.

/** Milliseconds on the process-wide monotonic clock. */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
