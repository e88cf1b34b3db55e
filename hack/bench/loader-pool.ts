// The main thread's handle on the loader threads: one request/response channel per thread, and
// spreading a number of clients or watches over them.
import { Worker } from 'node:worker_threads';
import type { Cleanup } from './cleanup.js';
import type { LoaderInit, Reply, Task } from './protocol.js';

class Loader {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(init: LoaderInit) {
    this.worker = new Worker(new URL('./loader.js', import.meta.url), { workerData: init });
    this.worker.on('message', (r: Reply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.ok) p.resolve(r.result);
      else p.reject(new Error(`loader ${init.index}: ${r.error}`));
    });
    const failAll = (e: Error) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    this.worker.on('error', (e) => failAll(new Error(`loader ${init.index} crashed: ${e.message}`)));
    this.worker.on('exit', (code) => failAll(new Error(`loader ${init.index} exited (${code})`)));
  }

  run<T>(task: Task): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, task });
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

export class LoaderPool {
  readonly loaders: Loader[];

  constructor(size: number, init: Omit<LoaderInit, 'index'>, cleanup: Cleanup) {
    this.loaders = Array.from({ length: size }, (_, index) => new Loader({ ...init, index }));
    cleanup.add('loader threads', async () => void (await Promise.all(this.loaders.map((l) => l.stop()))));
  }

  /** Resolves once every thread has started and loaded its modules. */
  async ready(): Promise<void> {
    await Promise.all(this.loaders.map((l) => l.run<number>({ kind: 'ping' })));
  }

  /** `total` split as evenly as can be over the threads, leaving out threads that get none. */
  split(total: number): { loader: Loader; share: number }[] {
    const n = this.loaders.length;
    return this.loaders
      .map((loader, i) => ({ loader, share: Math.floor(total / n) + (i < total % n ? 1 : 0) }))
      .filter((s) => s.share > 0);
  }

  get first(): Loader {
    return this.loaders[0]!;
  }
}

export type { Loader };
