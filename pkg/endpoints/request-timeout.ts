// The deadline of a request that is not long-running, as upstream's WithRequestDeadline and
// timeout filters give it: `?timeout=` (a Go duration) shortens the server's maximum
// (--request-timeout), and a write is held at most 34 s, as upstream's write handlers hold it. A
// request still running at its deadline is answered 504 Timeout, and its work is told to stop:
// the write it has out at etcd is given up, and what it would still write to the answered
// response is dropped.
import type { Response } from 'express';
import { newBadRequest, StatusError } from '../runtime/errors.js';
import type { RequestInfo } from './request-info.js';

/** Upstream's default --request-timeout. */
export const REQUEST_TIMEOUT_MAXIMUM_MS = 60_000;

/**
 * Upstream's requestTimeoutUpperBound (k8s.io/apiserver endpoints/handlers/rest.go): create, update,
 * patch and delete handlers run under a deadline of at most 34 s, whatever the request timeout.
 */
export const WRITE_TIMEOUT_UPPER_BOUND_MS = 34_000;

const writeVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

const NS_PER: Record<string, bigint> = {
  ns: 1n, us: 1_000n, 'µs': 1_000n, 'μs': 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n,
};
const MAX_NS = (1n << 63n) - 1n;

/** time's own quoting in its errors: printable ASCII as is, everything else as \x bytes. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c >= 0x80) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

/** Nanoseconds in a Go duration string, as time.ParseDuration reads it; throws with Go's error text. */
export function parseGoDuration(orig: string): bigint {
  const invalid = () => new Error(`time: invalid duration ${timeQuote(orig)}`);
  let s = orig;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || (s[0]! >= '0' && s[0]! <= '9'))) throw invalid();
    const int = /^[0-9]*/.exec(s)![0];
    s = s.slice(int.length);
    let frac = '';
    if (s[0] === '.') {
      frac = /^[0-9]*/.exec(s.slice(1))![0];
      s = s.slice(1 + frac.length);
      if (int === '' && frac === '') throw invalid();
    } else if (int === '') throw invalid();
    const unit = /^[^0-9.]*/.exec(s)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${timeQuote(orig)}`);
    s = s.slice(unit.length);
    const per = NS_PER[unit];
    if (per === undefined) throw new Error(`time: unknown unit ${timeQuote(unit)} in duration ${timeQuote(orig)}`);
    const whole = BigInt(int || '0');
    if (whole > (1n << 63n) / per) throw invalid();
    let v = whole * per;
    if (frac !== '') v += BigInt(Math.floor(Number(`0.${frac}`) * Number(per)));
    total += v;
    if (total > 1n << 63n) throw invalid();
  }
  if (!neg && total > MAX_NS) throw invalid();
  return neg ? -total : total;
}

/**
 * Milliseconds a request may run: the `timeout` parameter when it is positive and below the
 * maximum, else the maximum. A malformed one is a 400 worded as upstream's.
 */
export function requestTimeoutMs(timeout: string | undefined, maximumMs = REQUEST_TIMEOUT_MAXIMUM_MS): number {
  if (timeout === undefined || timeout === '') return maximumMs;
  let ns: bigint;
  try {
    ns = parseGoDuration(timeout);
  } catch (e) {
    throw newBadRequest(`invalid timeout specified in the request URL - ${(e as Error).message}`);
  }
  const ms = Number(ns) / 1e6;
  return ms > 0 && ms < maximumMs ? ms : maximumMs;
}

/** A request's deadline and the 504 it is answered with when it passes. */
export interface RequestDeadline {
  ms: number;
  timeout: () => StatusError;
}

/**
 * The deadline of a request that is not long-running: a write's is bounded by upstream's write
 * handlers' 34 s and answered as they answer it (their context's deadline passed); any other's by
 * the timeout filter, with its words.
 */
export function requestDeadline(info: RequestInfo, maximumMs = REQUEST_TIMEOUT_MAXIMUM_MS): RequestDeadline {
  const ms = requestTimeoutMs(info.query.get('timeout') ?? undefined, maximumMs);
  if (writeVerbs.has(info.verb)) {
    return { ms: Math.min(ms, WRITE_TIMEOUT_UPPER_BOUND_MS), timeout: () => new StatusError(504, 'Timeout', 'Timeout: request did not complete within requested timeout - context deadline exceeded', {}) };
  }
  return { ms, timeout: () => new StatusError(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout', {}) };
}

/** The signal a request's work runs under: aborted, with the 504 it was answered, when its deadline passed. */
export function requestSignal(res: Response): AbortSignal | undefined {
  return res.locals.requestSignal as AbortSignal | undefined;
}

/** What happened to a request's work after its client was told it timed out. */
export interface PostTimeout {
  elapsedMs: number;
  /** The work stopped because it was told the request timed out. */
  cancelled?: boolean;
  error?: unknown;
}

/** Who hears of a request that timed out: at the deadline, and when its work has finished. */
export interface TimeoutHooks {
  timedOut(): void;
  late(p: PostTimeout): void;
}

/**
 * Runs `work` (which writes the response) with a deadline. At the deadline this throws the
 * deadline's 504 Timeout Status for the caller to write, and aborts the request's signal (see
 * requestSignal) with it, so the work stops at its next write to etcd and gives up the one it has
 * out; how the work ended is reported to `hooks.late` (never thrown, never unhandled), and any
 * response it still tries to write is dropped.
 */
export async function runWithDeadline(deadline: RequestDeadline, res: Response, work: () => Promise<void>, hooks: TimeoutHooks): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const aborter = new AbortController();
  res.locals.requestSignal = aborter.signal;
  const running = work();
  const passed = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), deadline.ms);
  });
  try {
    if ((await Promise.race([running.then(() => 'done' as const), passed])) === 'done') return;
  } finally {
    clearTimeout(timer);
  }
  const timedOutAt = Date.now();
  const answer = deadline.timeout();
  aborter.abort(answer);
  hooks.timedOut();
  // A late write after the 504 was sent must not become an unhandled 'error' event.
  res.on('error', () => undefined);
  running.then(
    () => hooks.late({ elapsedMs: Date.now() - timedOutAt }),
    (error: unknown) => hooks.late({ elapsedMs: Date.now() - timedOutAt, ...(error === answer ? { cancelled: true } : { error }) }),
  );
  throw answer;
}
