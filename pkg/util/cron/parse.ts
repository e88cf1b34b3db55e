// Parsing of a CronJob schedule as upstream's robfig/cron ParseStandard does: five fields
// (minute, hour, day of month, month, day of week) or a descriptor such as @hourly or
// @every 1h30m, optionally after TZ= or CRON_TZ=. The parser's error texts are robfig's, since
// the API server's validation and the controller's events quote them.
import { parseDuration } from '../duration.js';
import { ConstantDelaySchedule, SpecSchedule, type CronSchedule, type Field } from './schedule.js';
import { knownTimeZone } from './zone.js';

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const months: Bounds = {
  min: 1, max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
};
const bounds: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  months,
  { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } },
];

const all = (b: Bounds, star = true): Field => ({ bits: Array.from({ length: b.max + 1 }, (_, i) => i >= b.min), star });
const only = (b: Bounds, v: number): Field => ({ bits: Array.from({ length: b.max + 1 }, (_, i) => i === v), star: false });

/** robfig's descriptors as their five fields (the seconds are always 0). */
const descriptors: Record<string, () => Field[]> = {
  '@yearly': () => [only(bounds[0]!, 0), only(bounds[1]!, 0), only(bounds[2]!, 1), only(months, 1), all(bounds[4]!)],
  '@monthly': () => [only(bounds[0]!, 0), only(bounds[1]!, 0), only(bounds[2]!, 1), all(months), all(bounds[4]!)],
  '@weekly': () => [only(bounds[0]!, 0), only(bounds[1]!, 0), all(bounds[2]!), all(months), only(bounds[4]!, 0)],
  '@daily': () => [only(bounds[0]!, 0), only(bounds[1]!, 0), all(bounds[2]!), all(months), all(bounds[4]!)],
  '@hourly': () => [only(bounds[0]!, 0), all(bounds[1]!), all(bounds[2]!), all(months), all(bounds[4]!)],
};
descriptors['@annually'] = descriptors['@yearly']!;
descriptors['@midnight'] = descriptors['@daily']!;

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

/** Sets the bits of one comma-separated part (robfig's getRange); returns its error, if any. */
function addRange(expr: string, b: Bounds, field: Field): string | undefined {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
    star = true;
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
    // A stepped star no longer means "any": day-of-month and day-of-week then combine with OR.
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < b.min) return `beginning of range (${start}) below minimum (${b.min}): ${expr}`;
  if (end > b.max) return `end of range (${end}) above maximum (${b.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0) return `step of range should be a positive number: ${expr}`;
  for (let i = start; i <= end; i += step) field.bits[i] = true;
  if (star) field.star = true;
  return undefined;
}

/** Whether Go's time.ParseDuration accepts `s` (e.g. 1h30m, 90s, 1.5h). */
function isGoDuration(s: string): boolean {
  return /^[+-]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.test(s) || s === '0';
}

export type ParsedSchedule = { schedule: CronSchedule; error?: undefined } | { error: string; schedule?: undefined };

/** robfig/cron's ParseStandard: the schedule of `spec`, or the parser's error text. */
export function parseCronSchedule(spec: string): ParsedSchedule {
  if (spec.length === 0) return { error: 'empty spec string' };
  let rest = spec;
  let zone: string | undefined;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const i = rest.indexOf(' ');
    const eq = rest.indexOf('=');
    zone = i < 0 ? rest.slice(eq + 1) : rest.slice(eq + 1, i);
    if (!knownTimeZone(zone) || zone.toLowerCase() === 'local') return { error: `provided bad location ${zone}: unknown time zone ${zone}` };
    rest = i < 0 ? '' : rest.slice(i).trim();
  }
  if (rest.startsWith('@')) {
    const fields = descriptors[rest];
    if (fields) return { schedule: new SpecSchedule(fields(), zone) };
    if (rest.startsWith('@every ')) {
      const d = rest.slice('@every '.length);
      if (!isGoDuration(d.replace('μs', 'µs'))) return { error: `failed to parse duration ${rest}: time: invalid duration ${JSON.stringify(d)}` };
      return { schedule: new ConstantDelaySchedule(parseDuration(d.replace('μs', 'µs'))) };
    }
    return { error: `unrecognized descriptor: ${rest}` };
  }
  const parts = rest.split(/\s+/).filter((f) => f !== '');
  if (parts.length !== 5) return { error: `expected exactly 5 fields, found ${parts.length}: [${parts.join(' ')}]` };
  const fields: Field[] = [];
  for (let i = 0; i < 5; i++) {
    const b = bounds[i]!;
    const field: Field = { bits: Array.from({ length: b.max + 1 }, () => false), star: false };
    for (const expr of parts[i]!.split(',').filter((e) => e !== '')) {
      const err = addRange(expr, b, field);
      if (err) return { error: err };
    }
    fields.push(field);
  }
  return { schedule: new SpecSchedule(fields, zone) };
}

/** The error robfig/cron's standard parser gives for `spec`, or undefined when it parses. */
export function cronScheduleError(spec: string): string | undefined {
  return parseCronSchedule(spec).error;
}
