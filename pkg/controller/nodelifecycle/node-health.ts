// How the node lifecycle controller judges one node's health (upstream's tryUpdateNodeHealth):
// the node is heard from when its Ready condition's heartbeat moves or its Lease is renewed, at
// the controller's own clock (never the node's, which may be skewed). Silent for longer than its
// grace period (--node-monitor-grace-period, or --node-startup-grace-period for a node that never
// reported Ready), its Ready and pressure conditions become Unknown: what the controller writes.
import type { Lease } from '../../../api/coordination/v1/lease.js';
import type { Node, NodeCondition } from '../../../api/core/v1/node.js';
import { formatTime } from '../../../api/meta/v1/primitives.js';
import { nodeCondition } from '../node-conditions.js';

type NodeStatus = NonNullable<Node['status']>;

/** What the controller last saw of a node, with its own times. */
export interface NodeHealth {
  /** When the node was last heard from (ms, controller's clock). */
  probeTimestamp: number;
  /** When its Ready condition last changed, as the controller saw it. */
  readyTransitionTimestamp: number;
  status: NodeStatus;
  lease?: Lease;
}

export interface GracePeriods {
  monitorGracePeriodMs: number;
  startupGracePeriodMs: number;
}

export interface HealthAssessment {
  health: NodeHealth;
  /** The Ready condition as the node had it (a made-up Unknown one when it never reported). */
  observedReady: NodeCondition;
  /** The node's conditions with the silent ones made Unknown, when they need writing. */
  unknownConditions?: NodeCondition[];
}

/** The conditions a silent node loses (NetworkUnavailable belongs to the network plug-in). */
const conditionsMadeUnknown = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/** A MicroTime (RFC 3339 with up to nanoseconds) in fractional milliseconds; NaN when unreadable. */
export function microTime(s: string | undefined): number {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(s ?? '');
  if (!m) return NaN;
  return Date.parse(`${m[1]}${m[3]}`) + (m[2] ? Number(`0.${m[2]}`) * 1000 : 0);
}

/** Upstream's MicroTime.Before: false when either is unset. */
function renewedAfter(saved: Lease | undefined, observed: Lease): boolean {
  if (!saved) return true;
  return microTime(saved.spec?.renewTime) < microTime(observed.spec?.renewTime);
}

/** Weighs what the node reported against what was saved; `now` is the controller's clock. */
export function assessNodeHealth(node: Pick<Node, 'metadata' | 'status'>, saved: NodeHealth | undefined, lease: Lease | undefined, now: number, grace: GracePeriods): HealthAssessment {
  const status: NodeStatus = node.status ?? {};
  const created = Date.parse(node.metadata?.creationTimestamp ?? '') || now;
  const currentReady = nodeCondition(node, 'Ready');
  let health = saved;
  let observedReady: NodeCondition;
  let gracePeriod: number;
  if (!currentReady) {
    // Never reported: judged from its creation, with the longer startup grace.
    const createdAt = node.metadata?.creationTimestamp;
    observedReady = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: createdAt, lastTransitionTime: createdAt };
    gracePeriod = grace.startupGracePeriodMs;
    health = health ? { ...health, status } : { status, probeTimestamp: created, readyTransitionTimestamp: created };
  } else {
    observedReady = { ...currentReady };
    gracePeriod = grace.monitorGracePeriodMs;
  }
  const savedReady = health ? nodeCondition(health, 'Ready') : undefined;
  if (!health || (!savedReady && currentReady) || (savedReady && !currentReady)) {
    health = { status, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (savedReady && currentReady && savedReady.lastHeartbeatTime !== currentReady.lastHeartbeatTime) {
    const transitioned = savedReady.lastTransitionTime !== currentReady.lastTransitionTime;
    health = { status, probeTimestamp: now, readyTransitionTimestamp: transitioned ? now : health.readyTransitionTimestamp, ...(health.lease ? { lease: health.lease } : {}) };
  }
  // A renewed Lease is a heartbeat too (a node agent reports status rarely, renews often).
  if (lease && renewedAfter(health.lease, lease)) health = { ...health, lease, probeTimestamp: now };
  if (now <= health.probeTimestamp + gracePeriod) return { health, observedReady };

  const stamp = formatTime(new Date(now));
  const conditions = (status.conditions ?? []).map((c) => ({ ...c }));
  for (const type of conditionsMadeUnknown) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      conditions.push({
        type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.',
        lastHeartbeatTime: node.metadata?.creationTimestamp, lastTransitionTime: stamp,
      });
    } else if (c.status !== 'Unknown') {
      Object.assign(c, { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: stamp });
    }
  }
  const ready = conditions.find((c) => c.type === 'Ready')!;
  const unchanged = ready.status === observedReady.status && ready.reason === observedReady.reason && ready.message === observedReady.message &&
    ready.lastTransitionTime === observedReady.lastTransitionTime && ready.lastHeartbeatTime === observedReady.lastHeartbeatTime;
  return unchanged ? { health, observedReady } : { health, observedReady, unknownConditions: conditions };
}
