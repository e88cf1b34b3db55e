// A small leveled logger writing klog's structured text lines to stderr, so operators read our
// logs the way they read upstream's: `I1121 21:50:00.123456 4242] "message" key="value"` (level,
// month and day, time, process id, the quoted message, then key/value pairs). `--v` gates the
// chattier info lines exactly as klog's verbosity does.

export type Level = 'I' | 'W' | 'E';

function stamp(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}000`;
}

function value(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Error) return JSON.stringify(v.message);
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v) ?? 'null';
}

function fmt(kv: Record<string, unknown>): string {
  return Object.entries(kv)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}=${value(v)}`)
    .join('');
}

export class Logger {
  /** Pairs every line ends with (a worker process's `worker="2"`), formatted once. */
  private readonly suffix: string;

  constructor(private readonly verbosity = 0, private readonly out: (line: string) => void = (l) => process.stderr.write(l), fields: Record<string, unknown> = {}) {
    this.suffix = fmt(fields);
  }

  private write(level: Level, msg: string, kv: Record<string, unknown>): void {
    this.out(`${level}${stamp(new Date())} ${process.pid}] ${JSON.stringify(msg)}${fmt(kv)}${this.suffix}\n`);
  }

  info(msg: string, kv: Record<string, unknown> = {}): void {
    this.write('I', msg, kv);
  }
  warn(msg: string, kv: Record<string, unknown> = {}): void {
    this.write('W', msg, kv);
  }
  error(msg: string, kv: Record<string, unknown> = {}): void {
    this.write('E', msg, kv);
  }
  /** Logs only when the process runs with --v at or above `level`. */
  v(level: number): { info: (msg: string, kv?: Record<string, unknown>) => void } {
    return { info: (msg, kv = {}) => (this.verbosity >= level ? this.write('I', msg, kv) : undefined) };
  }
}
