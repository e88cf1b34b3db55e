// Events about objects (client-go's tools/record EventRecorder, core/v1 Events): what an operator reads with
// `kubectl describe`. Recording is best effort: a failure is logged and never fails a sync. As
// client-go's EventCorrelator, an event repeating one already recorded (same source, object, type,
// reason and message) bumps that event's count and lastTimestamp instead of making another object,
// so a controller that says the same thing on every sync leaves one event with a count.
import type { Logger } from '../log/logger.js';
import type { Client } from './client.js';
import { isNotFound } from './errors.js';

/** What an event is about (the involvedObject). */
export interface EventSubject {
  apiVersion: string;
  kind: string;
  /** '' for a cluster-scoped object. */
  namespace: string;
  name: string;
  uid: string;
}

interface Recorded {
  name: string;
  count: number;
}

/** How many distinct events are remembered for correlation (client-go's maxLruCacheEntries). */
const maxRemembered = 4096;

/** The last event name suffix handed out: names stay unique when several events fall in one millisecond. */
let lastNanos = 0n;

/** Upstream's `<name>.<unix nanoseconds in hex>`, strictly increasing within this process. */
function nameSuffix(now: Date): string {
  const ns = BigInt(now.getTime()) * 1_000_000n;
  lastNanos = ns > lastNanos ? ns : lastNanos + 1n;
  return lastNanos.toString(16);
}

export class EventRecorder {
  /** Events recorded, by what makes them the same event; oldest first, for eviction. */
  private readonly recorded = new Map<string, Recorded>();

  constructor(private readonly client: Client, private readonly component: string, private readonly logger: Logger) {}

  /** Records `reason`/`message` of `type` about the object; a cluster-scoped object's event goes to `default`, as upstream. */
  async event(about: EventSubject, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const now = new Date();
    const namespace = about.namespace || 'default';
    const stamp = new Date(now.getTime() - (now.getTime() % 1000)).toISOString().replace(/\.\d+Z$/, 'Z');
    const key = JSON.stringify([this.component, about.kind, about.namespace, about.name, about.uid, about.apiVersion, type, reason, message]);
    const events = this.client.resource('', 'v1', 'events').namespace(namespace);
    try {
      const seen = this.recorded.get(key);
      if (seen) {
        try {
          await events.patch(seen.name, 'merge', { count: seen.count + 1, lastTimestamp: stamp });
          seen.count++;
          return;
        } catch (e) {
          // Expired (--event-ttl) or deleted: record it afresh.
          if (!isNotFound(e)) throw e;
          this.recorded.delete(key);
        }
      }
      const name = `${about.name}.${nameSuffix(now)}`;
      await events.create({
        metadata: { name, namespace },
        involvedObject: { apiVersion: about.apiVersion, kind: about.kind, namespace: about.namespace || undefined, name: about.name, uid: about.uid },
        reason,
        message,
        type,
        source: { component: this.component },
        firstTimestamp: stamp,
        lastTimestamp: stamp,
        count: 1,
        reportingComponent: this.component,
        reportingInstance: '',
      });
      this.recorded.set(key, { name, count: 1 });
      if (this.recorded.size > maxRemembered) this.recorded.delete(this.recorded.keys().next().value!);
    } catch (e) {
      this.logger.warn('Could not record event', { reason, object: `${namespace}/${about.name}`, err: e instanceof Error ? e.message : String(e) });
    }
  }
}
