// The log backend (--audit-log-path): every event one line, JSON (the Event itself) or upstream's
// legacy one-line text, written to a rotating file or standard output. In blocking modes the line
// is written before the request goes on; in batch mode it is queued and written off the request
// path. A write that fails (a full disk) is counted and logged, never thrown at the request.
import type { Logger } from '../log/logger.js';
import type { RotatingFile } from './rotating-file.js';
import type { Event } from './types.js';

export const LogFormats = ['legacy', 'json'] as const;
export type LogFormat = (typeof LogFormats)[number];

export const BackendModes = ['batch', 'blocking', 'blocking-strict'] as const;
export type BackendMode = (typeof BackendModes)[number];

/** Where events go. */
export interface Backend {
  /** Records the event; false when it could not be (blocking-strict refuses the request then). */
  process(ev: Event): boolean;
  /** Writes what is queued and releases the file. */
  shutdown(): Promise<void>;
}

/** What is counted about the backend (apiserver_audit_error_total). */
export interface BackendObserver {
  pluginError(plugin: string, events: number): void;
}

/** Upstream's EventString: the legacy format's line, also what an error report lists. */
export function eventString(ev: Event): string {
  const q = (s: string) => goQuote(s);
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username) {
    username = ev.user.username;
    if (ev.user.groups?.length) groups = ev.user.groups.map(q).join(',');
  }
  let asUser = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser) {
    asUser = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups) asGroups = ev.impersonatedUser.groups.map(q).join(',');
  }
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code ?? 0) : '<deferred>';
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  return `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} method=${q(ev.verb)} user=${q(username)} groups=${q(groups)} as=${q(asUser)} asgroups=${q(asGroups)} user-agent=${q(ev.userAgent ?? '')} namespace=${q(namespace)} uri=${q(ev.requestURI)} response="${response}"`;
}

/** Go's RFC3339Nano drops trailing zeros of the fraction. */
function rfc3339Nano(micro: string): string {
  return micro.replace(/\.(\d*?)0*Z$/, (_m, f: string) => (f ? `.${f}Z` : 'Z'));
}

/** Go's %q of a string (JSON's escaping is close enough for the printable text audit lines carry). */
function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u007f/g, '\\x7f');
}

/** Where lines are written: a rotating file, or standard output for `-`. */
export interface LineSink {
  write(line: string): void;
  close(): void;
}

export function fileSink(file: RotatingFile): LineSink {
  return { write: (line) => file.write(line), close: () => file.close() };
}

export function stdoutSink(): LineSink {
  return { write: (line) => void process.stdout.write(line), close: () => undefined };
}

export interface LogBackendOptions {
  format: LogFormat;
  apiVersion: string;
  sink: LineSink;
  logger: Logger;
  observer?: BackendObserver;
}

/** Formats and writes each event at once; reports (and returns false for) a failed write. */
export class LogBackend implements Backend {
  constructor(private readonly o: LogBackendOptions) {}

  line(ev: Event): string {
    return this.o.format === 'legacy' ? `${eventString(ev)}\n` : `${JSON.stringify({ ...ev, apiVersion: this.o.apiVersion })}\n`;
  }

  process(ev: Event): boolean {
    return this.writeLines([this.line(ev)], [ev]);
  }

  /** Writes pre-formatted lines of `events`; false (reported) when any failed. */
  writeLines(lines: string[], events: Event[]): boolean {
    try {
      for (const l of lines) this.o.sink.write(l);
      return true;
    } catch (e) {
      handlePluginError(this.o.logger, this.o.observer, 'log', e, events);
      return false;
    }
  }

  async shutdown(): Promise<void> {
    try {
      this.o.sink.close();
    } catch (e) {
      this.o.logger.error('closing the audit log failed', { err: e instanceof Error ? e.message : String(e) });
    }
  }
}

/** Counts the events a plug-in failed to record and logs them for the operator, as upstream's HandlePluginError. */
export function handlePluginError(logger: Logger, observer: BackendObserver | undefined, plugin: string, err: unknown, events: Event[]): void {
  observer?.pluginError(plugin, events.length);
  logger.error(`Error in audit plugin '${plugin}' affecting ${events.length} audit events`, {
    err: err instanceof Error ? err.message : String(err),
    impactedEvents: events.map(eventString).join('\n'),
  });
}

export interface BatchOptions {
  /** Events queued beyond this are dropped (and reported). */
  bufferSize: number;
  /** At most this many events are written at once. */
  maxBatchSize: number;
  /** How long a batch short of maxBatchSize waits before it is written, in ms. */
  maxBatchWaitMs: number;
}

/** Queues events and writes them off the request path (--audit-log-mode=batch). */
export class BatchBackend implements Backend {
  private readonly queue: { line: string; ev: Event }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private scheduled = false;
  private closed = false;

  constructor(private readonly delegate: LogBackend, private readonly o: BatchOptions, private readonly logger: Logger, private readonly observer?: BackendObserver) {}

  process(ev: Event): boolean {
    if (this.closed) return false;
    if (this.queue.length >= this.o.bufferSize) {
      handlePluginError(this.logger, this.observer, 'buffered', new Error('audit buffer queue blocked'), [ev]);
      return true;
    }
    // Formatted now: the request goes on changing its event for the next stage.
    this.queue.push({ line: this.delegate.line(ev), ev });
    if (this.queue.length >= this.o.maxBatchSize) this.schedule(0);
    else this.schedule(this.o.maxBatchWaitMs);
    return true;
  }

  private schedule(ms: number): void {
    if (ms === 0) {
      if (this.scheduled) return;
      this.scheduled = true;
      clearTimeout(this.timer);
      this.timer = undefined;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
      return;
    }
    if (this.timer || this.scheduled) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, ms);
    this.timer.unref();
  }

  private flush(): void {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, Math.max(1, this.o.maxBatchSize));
      this.delegate.writeLines(batch.map((b) => b.line), batch.map((b) => b.ev));
    }
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.flush();
    await this.delegate.shutdown();
  }
}
