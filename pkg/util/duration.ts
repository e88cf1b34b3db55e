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
