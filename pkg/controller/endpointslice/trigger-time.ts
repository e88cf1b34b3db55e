// Upstream's TriggerTimeTracker: the time exported as the last-change-trigger-time annotation, so
// consumers can measure how long a change took to reach them. A pod's trigger is its Ready
// condition's last transition, a service's its creation; a sync exports the earliest trigger that
// changed since the service's previous sync (its creation time on the first), or nothing.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';

interface ServiceState {
  podTriggers: Map<string, number>;
  serviceTrigger: number;
}

const time = (s: string | undefined): number => {
  const t = s ? Date.parse(s) : Number.NaN;
  return Number.isNaN(t) ? 0 : t;
};

export class TriggerTimeTracker {
  private readonly states = new Map<string, ServiceState>();

  /** The trigger time (ms since the epoch) to export for this sync of `svc`, 0 for none; remembers what it saw. */
  compute(svc: Service, pods: readonly Pod[]): number {
    const key = `${svc.metadata?.namespace ?? ''}/${svc.metadata?.name ?? ''}`;
    const before = this.states.get(key);
    let earliest = 0;
    const changed = (t: number) => { if (earliest === 0 || t < earliest) earliest = t; };
    const podTriggers = new Map<string, number>();
    for (const pod of pods) {
      const t = time((pod.status?.conditions ?? []).find((c) => c.type === 'Ready')?.lastTransitionTime);
      if (t === 0) continue;
      const name = pod.metadata?.name ?? '';
      podTriggers.set(name, t);
      if (t > (before?.podTriggers.get(name) ?? 0)) changed(t);
    }
    const serviceTrigger = time(svc.metadata?.creationTimestamp);
    if (serviceTrigger > (before?.serviceTrigger ?? 0)) changed(serviceTrigger);
    this.states.set(key, { podTriggers, serviceTrigger });
    return before ? earliest : serviceTrigger;
  }

  deleteService(namespace: string, name: string): void {
    this.states.delete(`${namespace}/${name}`);
  }
}

/** Go's RFC3339Nano in UTC: fractional seconds without trailing zeros. */
export function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}
