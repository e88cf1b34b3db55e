// A small leveled logger writing klog's text lines to stderr, so operators read our logs the way
// they read upstream's. The header is klog's to the byte: `Lmmdd hh:mm:ss.uuuuuu threadid file:line] `
// (severity, month and day, local time to the microsecond, the process id right-aligned in seven
// columns, the caller's source file and line). Structured lines then carry the quoted message and
// key="value" pairs as klog's InfoS/ErrorS print them; text lines (klog's Infof, Warningf) carry
// upstream's wording as it is. `--v` gates the chattier info lines exactly as klog's verbosity does.
import { goQuote } from '../util/go-quote.js';
import { callSite } from './call-site.js';
import { nowMicros } from './micro-clock.js';

export type Level = 'I' | 'W' | 'E';

/** klog pads the thread id (the process id, in practice) to seven columns. */
const pid = String(process.pid).padStart(7);

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** klog's header for a line logged now from `site`. */
function header(level: Level, site: string): string {
  const micros = nowMicros();
  const d = new Date(Math.floor(micros / 1000));
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${level}${two(d.getMonth() + 1)}${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${fraction} ${pid} ${site}] `;
}

/** A string value as klog writes it: quoted, or a multi-line value indented between `<` and ` >`. */
function stringValue(s: string): string {
  if (!s.includes('\n')) return `=${goQuote(s)}`;
  const lines = s.split('\n');
  const last = lines.pop()!;
  return `=<\n${lines.map((l) => `\t${l}\n`).join('')}${last === '' ? ' >' : `\t${last}\n >`}`;
}

function value(v: unknown): string {
  if (typeof v === 'string') return stringValue(v);
  if (v instanceof Error) return stringValue(v.message);
  if (typeof v === 'bigint') return `=${v}`;
  return `=${JSON.stringify(v) ?? 'null'}`;
}

function pairs(kv: Record<string, unknown>): string {
  let out = '';
  for (const k in kv) {
    const v = kv[k];
    if (v !== undefined) out += ` ${k}${value(v)}`;
  }
  return out;
}

/** What `v(level)` hands out: the info lines, written only at that verbosity. */
export type VerboseLogger = Pick<Logger, 'info' | 'infoText'>;

const silent: VerboseLogger = { info: () => undefined, infoText: () => undefined };

export class Logger {
  /** Pairs every line ends with (a worker thread's `worker=2`), formatted once. */
  private readonly suffix: string;

  /**
   * `depth` is how many frames lie between the log call and the place its `file:line` should name,
   * for a helper that logs on its callers' behalf (klog's WithCallDepth).
   */
  constructor(
    private readonly verbosity = 0,
    private readonly out: (line: string) => void = (l) => process.stderr.write(l),
    private readonly fields: Record<string, unknown> = {},
    private readonly depth = 0,
  ) {
    this.suffix = pairs(fields);
  }

  /** This logger, naming the caller `depth` frames further up in each line's `file:line`. */
  withCallDepth(depth: number): Logger {
    return new Logger(this.verbosity, this.out, this.fields, this.depth + depth);
  }

  private write(level: Level, text: string, below: (...args: never[]) => unknown): void {
    this.out(`${header(level, callSite(below, this.depth))}${text.endsWith('\n') ? text : `${text}\n`}`);
  }

  /** klog's InfoS: `"message" key="value" ...`. */
  info(msg: string, kv: Record<string, unknown> = {}): void {
    this.write('I', `${goQuote(msg)}${pairs(kv)}${this.suffix}`, this.info);
  }
  warn(msg: string, kv: Record<string, unknown> = {}): void {
    this.write('W', `${goQuote(msg)}${pairs(kv)}${this.suffix}`, this.warn);
  }
  error(msg: string, kv: Record<string, unknown> = {}): void {
    this.write('E', `${goQuote(msg)}${pairs(kv)}${this.suffix}`, this.error);
  }

  /** klog's Infof: the text as it is, for a line worded as upstream words it (and the logger's pairs). */
  infoText(text: string): void {
    this.write('I', this.withFields(text), this.infoText);
  }
  warnText(text: string): void {
    this.write('W', this.withFields(text), this.warnText);
  }
  errorText(text: string): void {
    this.write('E', this.withFields(text), this.errorText);
  }

  private withFields(text: string): string {
    return this.suffix === '' ? text : `${text.endsWith('\n') ? text.slice(0, -1) : text}${this.suffix}`;
  }

  /** Logs only when the process runs with --v at or above `level`. */
  v(level: number): VerboseLogger {
    return this.verbosity >= level ? this : silent;
  }
}
