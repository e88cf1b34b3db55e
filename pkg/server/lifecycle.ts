// Start-up and shutdown state the health checks report: post-start hooks that must finish before
// the server is ready, and the shutdown sequence during which readyz fails first.
import type { HealthCheck } from './healthz.js';

export interface PostStartHook {
  /** Reported as poststarthook/<name>. */
  name: string;
  /** Runs after the server listens; retried by the hook itself until it succeeds. */
  run(): Promise<void>;
}

export class Lifecycle {
  private readonly started = Date.now();
  private readonly done = new Set<string>();
  private readonly failed = new Map<string, string>();
  private shuttingDown = false;

  constructor(private readonly hooks: PostStartHook[], private readonly livezGracePeriodMs: number) {}

  /** Runs every post-start hook concurrently; resolves when all have finished. */
  async runPostStartHooks(onError: (name: string, err: unknown) => void): Promise<void> {
    await Promise.all(this.hooks.map(async (h) => {
      try {
        await h.run();
        this.done.add(h.name);
        this.failed.delete(h.name);
      } catch (e) {
        this.failed.set(h.name, e instanceof Error ? e.message : String(e));
        onError(h.name, e);
      }
    }));
  }

  /** One check per hook. In livez, an unfinished hook passes during the grace period after start. */
  hookChecks(forLivez: boolean): HealthCheck[] {
    return this.hooks.map((h) => ({
      name: `poststarthook/${h.name}`,
      check: async () => {
        if (this.done.has(h.name)) return undefined;
        if (forLivez && Date.now() - this.started < this.livezGracePeriodMs) return undefined;
        return this.failed.get(h.name) ?? 'not finished';
      },
    }));
  }

  /** readyz's `shutdown` check: fails from the moment shutdown begins. */
  shutdownCheck(): HealthCheck {
    return { name: 'shutdown', check: async () => (this.shuttingDown ? 'process is shutting down' : undefined) };
  }

  beginShutdown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }
}
