// Go duration strings as upstream flags take them: "5m", "1h30m", "250ms", "0".

const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds in a Go duration string; throws on anything else. */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let pos = 0;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    pos = 1;
  }
  if (pos >= s.length) throw new Error(`invalid duration ${JSON.stringify(text)}`);
  re.lastIndex = pos;
  while (pos < s.length) {
    const m = re.exec(s);
    if (!m || m.index !== pos) throw new Error(`invalid duration ${JSON.stringify(text)}`);
    total += Number(m[1]) * units[m[2]!]!;
    pos = re.lastIndex;
  }
  return sign * total;
}

/** Digits of `rem` below `div` (a power of ten) after a point, trailing zeros dropped: Go's fmtFrac. */
function fraction(whole: bigint, rem: bigint, div: bigint): string {
  const digits = rem.toString().padStart(div.toString().length - 1, '0').replace(/0+$/, '');
  return digits ? `${whole}.${digits}` : `${whole}`;
}

/** A duration of `ns` nanoseconds as Go's Duration.String prints it: "1h0m0s", "1.5s", "500ms", "0s". */
export function formatDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  const u = ns < 0n ? -ns : ns;
  if (u < 1000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) return `${sign}${fraction(u / 1000n, u % 1000n, 1000n)}µs`;
  if (u < 1_000_000_000n) return `${sign}${fraction(u / 1_000_000n, u % 1_000_000n, 1_000_000n)}ms`;
  const s = u / 1_000_000_000n;
  let out = `${fraction(s % 60n, u % 1_000_000_000n, 1_000_000_000n)}s`;
  if (s >= 60n) out = `${(s / 60n) % 60n}m${out}`;
  if (s >= 3600n) out = `${s / 3600n}h${out}`;
  return sign + out;
}
