// Events about objects (client-go's tools/record EventRecorder, core/v1 Events): what an operator reads with
// `kubectl describe`. Recording is best effort: a failure is logged and never fails a sync.
import type { Logger } from '../log/logger.js';
import type { Client } from './client.js';

/** What an event is about (the involvedObject). */
export interface EventSubject {
  apiVersion: string;
  kind: string;
  /** '' for a cluster-scoped object. */
  namespace: string;
  name: string;
  uid: string;
}

/** The last event name suffix handed out: names stay unique when several events fall in one millisecond. */
let lastNanos = 0n;

/** Upstream's `<name>.<unix nanoseconds in hex>`, strictly increasing within this process. */
function nameSuffix(now: Date): string {
  const ns = BigInt(now.getTime()) * 1_000_000n;
  lastNanos = ns > lastNanos ? ns : lastNanos + 1n;
  return lastNanos.toString(16);
}

export class EventRecorder {
  constructor(private readonly client: Client, private readonly component: string, private readonly logger: Logger) {}

  /** Records `reason`/`message` of `type` about the object; a cluster-scoped object's event goes to `default`, as upstream. */
  async event(about: EventSubject, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const now = new Date();
    const namespace = about.namespace || 'default';
    const stamp = new Date(now.getTime() - (now.getTime() % 1000)).toISOString().replace(/\.\d+Z$/, 'Z');
    try {
      await this.client.resource('', 'v1', 'events').namespace(namespace).create({
        metadata: { name: `${about.name}.${nameSuffix(now)}`, namespace },
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
    } catch (e) {
      this.logger.warn('Could not record event', { reason, object: `${namespace}/${about.name}`, err: e instanceof Error ? e.message : String(e) });
    }
  }
}
