// The clients of the HA test: writers that create ConfigMaps with unique names and record which
// creates were acknowledged, moving to another API server when theirs stops answering, and
// watchers that record every ConfigMap event and resume from their last resourceVersion, on
// another server when theirs is gone.
import type { Client } from '../integration/framework/client.js';

/** A create the server answered 201 to, and when. */
export interface Ack { name: string; at: number; server: number }

/** Whether a request failed for want of a server (killed, refused): the client should go elsewhere. */
function connectionLost(e: unknown): boolean {
  return /ECONNREFUSED|ECONNRESET|socket hang up|EPIPE/.test(String((e as Error)?.message ?? e));
}

export class Writer {
  readonly acked: Ack[] = [];
  /** Creates whose outcome the writer does not know (the connection broke, or a 5xx/504 answer). */
  readonly uncertain: string[] = [];
  readonly refused: string[] = [];
  /** When the writer moved to another server, and to which. */
  readonly moves: { at: number; to: number }[] = [];
  private stopped = false;
  private loop: Promise<void> | undefined;
  private seq = 0;

  constructor(readonly id: number, private readonly servers: Client[], private server: number, private readonly namespace: string, private readonly alive: (server: number) => boolean) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const name = `w${this.id}-${this.seq++}`;
      const server = this.server;
      try {
        const r = await this.servers[server]!.post(`/api/v1/namespaces/${this.namespace}/configmaps`, { metadata: { name }, data: { writer: String(this.id) } });
        if (r.status === 201) this.acked.push({ name, at: Date.now(), server });
        else if (r.status >= 500 || r.status === 429) this.uncertain.push(name);
        else this.refused.push(`${name}: ${r.status} ${r.text.slice(0, 200)}`);
        if (r.status !== 201) await pause(100);
      } catch (e) {
        this.uncertain.push(name);
        // A client that retries on the other replica: the first live server after this one.
        if (connectionLost(e)) {
          const next = [1, 2].map((d) => (server + d) % this.servers.length).find((s) => this.alive(s)) ?? server;
          if (next !== server) {
            this.server = next;
            this.moves.push({ at: Date.now(), to: next });
          }
        }
        await pause(100);
      }
    }
  }
}

export interface Seen { type: string; namespace: string; name: string; rv: number; server: number }

/** Records ConfigMap events of every namespace, resuming from its last resourceVersion. */
export class Watcher {
  readonly events: Seen[] = [];
  readonly errors: string[] = [];
  /** When the watch was opened again, on which server. */
  readonly resumes: { at: number; server: number }[] = [];
  private rv: string;
  private stopped = false;
  private current: { close(): void } | undefined;
  private loop: Promise<void> | undefined;

  constructor(readonly home: number, private readonly servers: Client[], fromRV: string, private readonly alive: (server: number) => boolean) {
    this.rv = fromRV;
  }

  get lastRV(): number {
    return Number(this.rv);
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.close();
    await this.loop;
  }

  private async run(): Promise<void> {
    let first = true;
    while (!this.stopped) {
      // Its own server when that one is up, else any other that is.
      const order = [this.home, ...this.servers.map((_, i) => i).filter((i) => i !== this.home)];
      const server = order.find((s) => this.alive(s)) ?? this.home;
      let stream;
      try {
        stream = await this.servers[server]!.watch(`/api/v1/configmaps?watch=true&resourceVersion=${this.rv}`);
      } catch {
        await pause(100);
        continue;
      }
      if (stream.status !== 200) {
        this.errors.push(`watch from ${this.rv} on server ${server}: ${stream.status}`);
        stream.close();
        await pause(200);
        continue;
      }
      if (!first) this.resumes.push({ at: Date.now(), server });
      first = false;
      this.current = stream;
      for (;;) {
        const ev = await stream.next(1000);
        if (!ev) {
          if (stream.ended() || this.stopped) break;
          continue;
        }
        if (ev.type === 'ERROR' || ev.type === 'HTTP') {
          this.errors.push(`server ${server}: ${JSON.stringify(ev.object).slice(0, 300)}`);
          break;
        }
        if (ev.type === 'BOOKMARK') continue;
        const meta = (ev.object as { metadata: { namespace: string; name: string; resourceVersion: string } }).metadata;
        this.events.push({ type: ev.type, namespace: meta.namespace, name: meta.name, rv: Number(meta.resourceVersion), server });
        this.rv = meta.resourceVersion;
      }
      stream.close();
    }
  }
}

export function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
