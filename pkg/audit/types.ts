// The audit.<domain>/v1 kinds as they are written: the Event of one request at one stage, and the
// levels and stages a Policy speaks of. Field names and order follow upstream's audit.k8s.io/v1,
// so tools reading kube-apiserver's audit log read ours.
import type { ApiDomain } from '../../api/domain.js';

/** How much of a request is recorded, least first. */
export const Levels = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof Levels)[number];

/** The points in a request's life at which an event is written. */
export const Stages = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof Stages)[number];

/** Whether `level` records at least what `min` records. */
export function levelAtLeast(level: Level, min: Level): boolean {
  return Levels.indexOf(level) >= Levels.indexOf(min);
}

/** `audit.<domain>/v1`: the apiVersion of Events and of the Policy file. */
export function auditAPIVersion(domain: Pick<ApiDomain, 'group'>): string {
  return `${domain.group('audit')}/v1`;
}

/** Upstream's group, whose Policy files are accepted whatever our domain. */
export const upstreamAuditAPIVersion = 'audit.k8s.io/v1';

/** authentication/v1 UserInfo as an event carries it (empty fields left out). */
export interface EventUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** What a resource request addressed. */
export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded fields of the answer's Status (upstream copies only these). */
export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

/** One audit.<domain>/v1 Event, in upstream's field order. */
export interface Event {
  kind: 'Event';
  apiVersion: string;
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: EventUser;
  impersonatedUser?: EventUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** The user fields an event records (pkg/runtime's UserInfo has the same shape under other names). */
export interface AuditedUser {
  name: string;
  uid?: string;
  groups: string[];
  extra: Record<string, string[]>;
}

/** A user as authentication/v1 UserInfo, empty fields left out as Go's omitempty does. */
export function eventUser(u: AuditedUser | undefined): EventUser {
  if (!u) return {};
  const extra = Object.keys(u.extra).length > 0 ? { extra: u.extra } : {};
  return {
    ...(u.name ? { username: u.name } : {}),
    ...(u.uid ? { uid: u.uid } : {}),
    ...(u.groups.length > 0 ? { groups: [...u.groups] } : {}),
    ...extra,
  };
}

/**
 * A time as metav1.MicroTime marshals it: RFC 3339 in UTC with six fractional digits. `ms` may
 * carry a fraction of a millisecond (performance.timeOrigin + performance.now()).
 */
export function microTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.min(999, Math.floor((ms - whole) * 1000));
  const iso = new Date(whole).toISOString(); // 2024-01-02T03:04:05.678Z
  return `${iso.slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
}

/** Now, with the sub-millisecond part the clock offers. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}
