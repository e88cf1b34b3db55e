// The deadline of a request that is not long-running, as upstream's WithRequestDeadline and
// timeout filters give it: `?timeout=` (a Go duration) shortens the server's maximum; a request
// still running at its deadline is answered 504 Timeout while its work finishes unobserved.
import type { Response } from 'express';
import { newBadRequest, StatusError } from '../runtime/errors.js';

/** Upstream's default --request-timeout. */
export const REQUEST_TIMEOUT_MAXIMUM_MS = 60_000;

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
export function requestTimeoutMs(timeout: string | undefined): number {
  if (timeout === undefined || timeout === '') return REQUEST_TIMEOUT_MAXIMUM_MS;
  let ns: bigint;
  try {
    ns = parseGoDuration(timeout);
  } catch (e) {
    throw newBadRequest(`invalid timeout specified in the request URL - ${(e as Error).message}`);
  }
  const ms = Number(ns) / 1e6;
  return ms > 0 && ms < REQUEST_TIMEOUT_MAXIMUM_MS ? ms : REQUEST_TIMEOUT_MAXIMUM_MS;
}

/** What happened to a request's work after its client was told it timed out. */
export interface PostTimeout {
  elapsedMs: number;
  error?: unknown;
}

/** Who hears of a request that timed out: at the deadline, and when its work has finished. */
export interface TimeoutHooks {
  timedOut(): void;
  late(p: PostTimeout): void;
}

/**
 * Runs `work` (which writes the response) with a deadline. At the deadline this throws upstream's
 * 504 Timeout Status for the caller to write; the work is left to finish, its outcome reported
 * to `hooks.late` (never thrown, never unhandled) and any response it still tries to write dropped.
 */
export async function runWithDeadline(ms: number, res: Response, work: () => Promise<void>, hooks: TimeoutHooks): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const running = work();
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    if ((await Promise.race([running.then(() => 'done' as const), deadline])) === 'done') return;
  } finally {
    clearTimeout(timer);
  }
  const timedOutAt = Date.now();
  hooks.timedOut();
  // A late write after the 504 was sent must not become an unhandled 'error' event.
  res.on('error', () => undefined);
  running.then(
    () => hooks.late({ elapsedMs: Date.now() - timedOutAt }),
    (error: unknown) => hooks.late({ elapsedMs: Date.now() - timedOutAt, error }),
  );
  throw new StatusError(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout', {});
}
