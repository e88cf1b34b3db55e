// Whatever the bench starts (etcd, the API server, worker threads, temporary directories) is
// registered here and undone in reverse order: at the end of a run, when it fails, and on SIGINT or
// SIGTERM. A synchronous fallback per entry covers an exit that leaves no time for async work.

interface Entry {
  what: string;
  undo: () => Promise<void> | void;
  /** Best effort when the process is exiting and cannot wait (kill -9 a child, rm a directory). */
  atExit?: () => void;
  done: boolean;
}

export class Cleanup {
  private readonly entries: Entry[] = [];
  private running: Promise<void> | undefined;

  constructor() {
    process.on('exit', () => {
      for (const e of [...this.entries].reverse()) {
        if (e.done || !e.atExit) continue;
        try {
          e.atExit();
        } catch {
          // exiting anyway
        }
      }
    });
  }

  add(what: string, undo: () => Promise<void> | void, atExit?: () => void): void {
    this.entries.push({ what, undo, ...(atExit ? { atExit } : {}), done: false });
  }

  /** Undoes everything registered, newest first; a failing step is reported and the rest still run. */
  run(): Promise<void> {
    this.running ??= (async () => {
      for (const e of [...this.entries].reverse()) {
        if (e.done) continue;
        try {
          await e.undo();
        } catch (err) {
          process.stderr.write(`bench: cleanup of ${e.what} failed: ${err instanceof Error ? err.message : String(err)}\n`);
        }
        e.done = true;
      }
    })();
    return this.running;
  }

  /** On SIGINT/SIGTERM: undo everything, then exit with the signal's conventional status. */
  onSignals(): void {
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      process.once(signal, () => {
        process.stderr.write(`\nbench: ${signal}, stopping everything it started\n`);
        void this.run().finally(() => process.exit(code));
      });
    }
  }
}
