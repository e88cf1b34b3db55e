// Parsing of a CronJob schedule as upstream's robfig/cron ParseStandard does: five fields
// (minute, hour, day of month, month, day of week) or a descriptor such as @hourly or
// @every 1h30m, optionally after TZ= or CRON_TZ=. Returns the parser's error text, or undefined.

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const months: Bounds = {
  min: 1, max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
};
const fields: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  months,
  { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } },
];

const descriptors = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's strconv.Atoi, with robfig's wording around it. */
function parseInt(expr: string): number | string {
  if (!/^[+-]?\d+$/.test(expr)) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`;
  const n = Number(expr);
  if (n < 0) return `negative number (${n}) not allowed: ${expr}`;
  return n;
}

function parseIntOrName(expr: string, b: Bounds): number | string {
  const named = b.names?.[expr.toLowerCase()];
  return named !== undefined ? named : parseInt(expr);
}

function checkRange(expr: string, b: Bounds): string | undefined {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    const s = parseIntOrName(lowAndHigh[0]!, b);
    if (typeof s === 'string') return s;
    start = s;
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) {
      const e = parseIntOrName(lowAndHigh[1]!, b);
      if (typeof e === 'string') return e;
      end = e;
    } else return `too many hyphens: ${expr}`;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const s = parseInt(rangeAndStep[1]!);
    if (typeof s === 'string') return s;
    step = s;
    if (lowAndHigh.length === 1) end = b.max; // "N/step" means "N-max/step"
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < b.min) return `beginning of range (${start}) below minimum (${b.min}): ${expr}`;
  if (end > b.max) return `end of range (${end}) above maximum (${b.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0) return `step of range should be a positive number: ${expr}`;
  return undefined;
}

/** Whether Go's time.ParseDuration accepts `s` (e.g. 1h30m, 90s, 1.5h). */
function isGoDuration(s: string): boolean {
  return /^[+-]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.test(s) || s === '0';
}

/** Whether the runtime knows the IANA time zone. */
export function knownTimeZone(name: string): boolean {
  if (name === 'UTC' || name === '') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The error robfig/cron's standard parser gives for `spec`, or undefined when it parses. */
export function cronScheduleError(spec: string): string | undefined {
  if (spec.length === 0) return 'empty spec string';
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const i = rest.indexOf(' ');
    const eq = rest.indexOf('=');
    const zone = i < 0 ? rest.slice(eq + 1) : rest.slice(eq + 1, i);
    if (!knownTimeZone(zone) || zone.toLowerCase() === 'local') return `provided bad location ${zone}: unknown time zone ${zone}`;
    rest = i < 0 ? '' : rest.slice(i).trim();
  }
  if (rest.startsWith('@')) {
    if (descriptors.has(rest)) return undefined;
    if (rest.startsWith('@every ')) {
      const d = rest.slice('@every '.length);
      return isGoDuration(d) ? undefined : `failed to parse duration ${rest}: time: invalid duration ${JSON.stringify(d)}`;
    }
    return `unrecognized descriptor: ${rest}`;
  }
  const parts = rest.split(/\s+/).filter((f) => f !== '');
  if (parts.length !== 5) return `expected exactly 5 fields, found ${parts.length}: [${parts.join(' ')}]`;
  for (let i = 0; i < 5; i++) {
    for (const expr of parts[i]!.split(',').filter((e) => e !== '')) {
      const err = checkRange(expr, fields[i]!);
      if (err) return err;
    }
  }
  return undefined;
}
