// The audit context of one request: its audit ID (always, so the Audit-ID header can be sent),
// and once the policy has been evaluated, the event being built up by the layers the request
// passes (the real and the impersonated user, the request and response objects, annotations),
// written at each stage the policy does not omit.
import { eventUser, levelAtLeast, microTime, nowMs, type AuditedUser, type Event, type Level, type ObjectReference, type ResponseStatus, type Stage } from './types.js';
import type { RequestAuditConfig } from './policy.js';

/** What the request handling reports an event to: the backend, counting what it writes. */
export interface EventSink {
  /** Writes `ev` (a snapshot); false when it could not be recorded. */
  process(ev: Event): boolean;
}

/** The request facts the event's metadata is read from. */
export interface RequestMetadata {
  requestURI: string;
  verb: string;
  user: AuditedUser | undefined;
  sourceIPs: string[];
  userAgent: string;
  /** Present for resource requests. */
  objectRef?: ObjectReference;
}

/** Annotations of a layer that only knows them at the end of the request (admission), at the event's level. */
export type AnnotationSource = (level: Exclude<Level, 'None'>) => Record<string, string>;

const maxUserAgentLength = 1024;

/** Warned about instead of overwritten, as upstream does. */
export type AnnotationConflict = (key: string, kept: string, refused: string) => void;

export class AuditContext {
  private config: RequestAuditConfig | undefined;
  private event: Event | undefined;
  private readonly sources: AnnotationSource[] = [];
  /** Whether the answer's head has gone out (its code is then in responseStatus). */
  private headSent = false;
  private completed = false;

  constructor(readonly auditID: string, readonly receivedMs: number = nowMs(), private readonly conflict: AnnotationConflict = () => undefined) {}

  /** Whether an event is being recorded (a policy matched the request at a level above None). */
  enabled(): boolean {
    return this.event !== undefined;
  }

  get level(): Level {
    return this.config?.level ?? 'None';
  }

  /** Starts the event with the policy's decision and the request's metadata (nothing is recorded at None). */
  begin(config: RequestAuditConfig, meta: RequestMetadata, apiVersion: string): void {
    this.config = config;
    if (config.level === 'None') return;
    const ua = meta.userAgent.length > maxUserAgentLength ? `${meta.userAgent.slice(0, maxUserAgentLength)}...TRUNCATED` : meta.userAgent;
    this.event = {
      kind: 'Event',
      apiVersion,
      level: config.level,
      auditID: this.auditID,
      stage: 'RequestReceived',
      requestURI: meta.requestURI,
      verb: meta.verb,
      user: eventUser(meta.user),
      ...(meta.sourceIPs.length > 0 ? { sourceIPs: meta.sourceIPs } : {}),
      ...(ua ? { userAgent: ua } : {}),
      ...(meta.objectRef ? { objectRef: meta.objectRef } : {}),
      requestReceivedTimestamp: microTime(this.receivedMs),
      stageTimestamp: '',
    };
  }

  /** The user the request runs as, when it impersonates one. */
  setImpersonatedUser(user: AuditedUser): void {
    if (!this.event) return;
    // Upstream always names the impersonated user, even an empty name.
    this.event.impersonatedUser = { username: user.name, ...eventUser(user) };
  }

  /**
   * The decoded request body: completes objectRef from the object's metadata, and at Request
   * level and above records the object itself (a copy: later layers change the original).
   */
  logRequestObject(obj: unknown, ref: ObjectReference = {}): void {
    const ev = this.event;
    if (!ev) return;
    const r = (ev.objectRef ??= {});
    const meta = (obj as { metadata?: Record<string, unknown> } | null)?.metadata;
    if (meta && typeof meta === 'object') {
      for (const k of ['namespace', 'name', 'uid', 'resourceVersion'] as const) {
        const v = meta[k];
        if (!r[k] && typeof v === 'string' && v) r[k] = v;
      }
    }
    if (!r.apiVersion) {
      if (ref.apiGroup) r.apiGroup = ref.apiGroup;
      if (ref.apiVersion) r.apiVersion = ref.apiVersion;
    }
    if (!r.resource && ref.resource) r.resource = ref.resource;
    if (!r.subresource && ref.subresource) r.subresource = ref.subresource;
    if (!levelAtLeast(ev.level, 'Request')) return;
    ev.requestObject = this.withoutManagedFields(structuredClone(obj));
  }

  /** A patch body, recorded as sent at Request level and above. */
  logRequestPatch(patch: unknown): void {
    const ev = this.event;
    if (!ev || !levelAtLeast(ev.level, 'Request')) return;
    ev.requestObject = structuredClone(patch);
  }

  /**
   * What the request answers with (an object, list, Table or Status): a Status's bounded fields
   * become responseStatus; at RequestResponse the document is recorded too.
   */
  logResponseObject(doc: unknown): void {
    const ev = this.event;
    if (!ev) return;
    const d = doc as { kind?: unknown; apiVersion?: unknown } | null;
    if (d && d.kind === 'Status' && d.apiVersion === 'v1') {
      const s = doc as { status?: string; message?: string; reason?: string; details?: unknown; code?: number };
      ev.responseStatus = {
        metadata: {},
        ...(s.status ? { status: s.status } : {}),
        ...(s.message ? { message: s.message } : {}),
        ...(s.reason ? { reason: s.reason } : {}),
        ...(s.details !== undefined ? { details: structuredClone(s.details) } : {}),
        ...(s.code ? { code: s.code } : {}),
      };
    }
    if (!levelAtLeast(ev.level, 'RequestResponse')) return;
    ev.responseObject = this.withoutManagedFields(structuredClone(doc));
  }

  /** The code the answer starts with; the first one counts. */
  responseCode(code: number): void {
    const ev = this.event;
    if (!ev || this.headSent) return;
    this.headSent = true;
    ev.responseStatus = { ...(ev.responseStatus ?? { metadata: {} }), code };
    // Go's JSON puts code last.
    const { code: c, ...rest } = ev.responseStatus;
    ev.responseStatus = { ...rest, code: c! };
  }

  /** Whether the answer's head has gone out. */
  get responseStarted(): boolean {
    return this.headSent;
  }

  /** Sets the Status a refused authentication answers with before it is written. */
  setResponseStatus(status: ResponseStatus): void {
    if (this.event) this.event.responseStatus = status;
  }

  /** Adds annotations; a key already set to another value keeps it. */
  addAnnotations(annotations: Record<string, string>): void {
    const ev = this.event;
    if (!ev) return;
    for (const [k, v] of Object.entries(annotations)) {
      const have = ev.annotations?.[k];
      if (have !== undefined && have !== v) {
        this.conflict(k, have, v);
        continue;
      }
      (ev.annotations ??= {})[k] = v;
    }
  }

  /** Registers annotations read at the end of the request (admission's). */
  addAnnotationSource(source: AnnotationSource): void {
    this.sources.push(source);
  }

  /**
   * Writes the event at `stage` unless the policy omits it; true when written or omitted. At the
   * final stages the late annotations are gathered first.
   */
  emit(stage: Stage, sink: EventSink, timestampMs: number = nowMs()): boolean {
    const ev = this.event;
    if (!ev || !this.config) return true;
    if (stage === 'ResponseComplete' || stage === 'Panic') {
      if (this.completed) return true;
      this.completed = true;
      const level = ev.level as Exclude<Level, 'None'>;
      for (const s of this.sources) {
        try {
          this.addAnnotations(s(level));
        } catch {
          // A source that cannot say costs its annotations, not the event.
        }
      }
    }
    ev.stage = stage;
    if (this.config.omitStages.includes(stage)) return true;
    ev.stageTimestamp = stage === 'RequestReceived' ? ev.requestReceivedTimestamp : microTime(timestampMs);
    return sink.process(snapshot(ev));
  }

  /** Set when the request failed with a bug (an error that is not a Status): its final stage is Panic. */
  panicMessage: string | undefined;

  /** Marks the request as failed with a bug. */
  panic(message: string): void {
    this.panicMessage ??= message;
  }

  /** Whether the final event (ResponseComplete or Panic) has been written. */
  get done(): boolean {
    return this.completed;
  }

  /** The object with managedFields dropped, when the policy says so (objects, lists, Tables). */
  private withoutManagedFields<T>(doc: T): T {
    if (!this.config?.omitManagedFields || typeof doc !== 'object' || doc === null) return doc;
    const strip = (o: unknown) => {
      const meta = (o as { metadata?: Record<string, unknown> } | null)?.metadata;
      if (meta && typeof meta === 'object') delete meta['managedFields'];
    };
    strip(doc);
    const d = doc as { items?: unknown; rows?: unknown };
    if (Array.isArray(d.items)) d.items.forEach(strip);
    if (Array.isArray(d.rows)) for (const row of d.rows) strip((row as { object?: unknown }).object);
    return doc;
  }
}

/** The event as it stands, in upstream's field order, for a backend that may write it later. */
function snapshot(ev: Event): Event {
  const out: Event = {
    kind: ev.kind,
    apiVersion: ev.apiVersion,
    level: ev.level,
    auditID: ev.auditID,
    stage: ev.stage,
    requestURI: ev.requestURI,
    verb: ev.verb,
    user: ev.user,
    ...(ev.impersonatedUser ? { impersonatedUser: ev.impersonatedUser } : {}),
    ...(ev.sourceIPs ? { sourceIPs: ev.sourceIPs } : {}),
    ...(ev.userAgent ? { userAgent: ev.userAgent } : {}),
    ...(ev.objectRef ? { objectRef: orderedRef(ev.objectRef) } : {}),
    ...(ev.responseStatus ? { responseStatus: { ...ev.responseStatus } } : {}),
    ...(ev.requestObject !== undefined ? { requestObject: ev.requestObject } : {}),
    ...(ev.responseObject !== undefined ? { responseObject: ev.responseObject } : {}),
    requestReceivedTimestamp: ev.requestReceivedTimestamp,
    stageTimestamp: ev.stageTimestamp,
    ...(ev.annotations ? { annotations: { ...ev.annotations } } : {}),
  };
  return out;
}

function orderedRef(r: ObjectReference): ObjectReference {
  const out: ObjectReference = {};
  for (const k of ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'] as const) {
    if (r[k]) out[k] = r[k];
  }
  return out;
}
