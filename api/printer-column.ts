// Printer columns: what a kind shows in its Table representation (kubectl get), declared beside the
// kind in its register.ts. The shared columns (Name, Age, the default Name + Created At) and the cell
// formats several kinds use (human durations, label selectors) live here so every kind prints them
// the way upstream's printers do.
import { formatTime } from './meta/v1/primitives.js';
import type { LabelSelector } from './meta/v1/types.js';

/** OpenAPI type of a column's cells. */
export type PrinterColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date';

export interface PrinterColumn<O = Record<string, unknown>> {
  /** Title Case, as upstream names them ("Min Available"); kubectl upper-cases them. */
  name: string;
  type: PrinterColumnType;
  /** `name` on the column holding the object's name. */
  format?: string;
  description: string;
  /** 0: always shown; 1: shown with kubectl -o wide. */
  priority: number;
  /** The cell of one object; `now` is the moment ages are measured against. */
  cell: (obj: O, now: Date) => unknown;
}

function metadataOf(obj: Record<string, unknown>): Record<string, unknown> {
  const m = obj.metadata;
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
}

function creationTimestampOf(obj: Record<string, unknown>): string | undefined {
  const t = metadataOf(obj).creationTimestamp;
  return typeof t === 'string' && t !== '' ? t : undefined;
}

/** Go's zero time, which upstream treats as "unset". */
const zeroTime = Date.parse('0001-01-01T00:00:00Z');

export const nameColumn: PrinterColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name of the object, unique among objects of its kind in its namespace (or cluster-wide).',
  priority: 0,
  cell: (obj) => {
    const name = metadataOf(obj).name;
    return typeof name === 'string' ? name : '';
  },
};

export const ageColumn: PrinterColumn = {
  name: 'Age',
  type: 'string',
  description: 'How long ago the object was created (from metadata.creationTimestamp).',
  priority: 0,
  cell: (obj, now) => timestampSince(creationTimestampOf(obj), now),
};

/** What kinds without columns of their own print: the object's name and creation time. */
export const defaultPrinterColumns: readonly PrinterColumn[] = [
  nameColumn,
  {
    name: 'Created At',
    type: 'date',
    description: 'When the object was created (metadata.creationTimestamp).',
    priority: 0,
    cell: (obj) => rfc3339(creationTimestampOf(obj)),
  },
];

/** A timestamp as RFC 3339 in UTC with second precision; an unset time prints as Go's zero time. */
export function rfc3339(timestamp: string | undefined): string {
  const t = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  if (Number.isNaN(t)) return '0001-01-01T00:00:00Z';
  return formatTime(new Date(t));
}

/** The time elapsed from `timestamp` to `now` as a human duration; `<unknown>` when unset. */
export function timestampSince(timestamp: string | undefined, now: Date): string {
  const t = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  if (Number.isNaN(t) || t === zeroTime) return '<unknown>';
  return humanDuration(now.getTime() - t);
}

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/**
 * A duration (in milliseconds) with about two significant figures, by upstream's HumanDuration
 * rules: `45s`, `119s`, `2m`, `9m59s`, `10m`, `179m`, `3h`, `7h59m`, `8h`, `47h`, `2d`, `7d23h`,
 * `8d`, `729d`, `2y`, `7y364d`, `8y`; up to one second in the future reads `0s`, more is `<invalid>`.
 */
export function humanDuration(ms: number): string {
  // Truncation toward zero, as Go's integer conversion and division do.
  const seconds = Math.trunc(ms / second);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 2 * 60) return `${seconds}s`;
  const minutes = Math.trunc(ms / minute);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 3 * 60) return `${minutes}m`;
  const hours = Math.trunc(ms / hour);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/** A duration (in milliseconds) with one unit, by upstream's ShortHumanDuration rules: `59s`, `59m`, `23h`, `364d`, `1y`. */
export function shortHumanDuration(ms: number): string {
  const seconds = Math.trunc(ms / second);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.trunc(ms / minute);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.trunc(ms / hour);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${Math.trunc(hours / 24)}d`;
  return `${Math.trunc(ms / hour / 24 / 365)}y`;
}

/**
 * A label selector in selector syntax (`app=web,tier in (a,b),!legacy`), requirements sorted by
 * key; `<none>` for an absent or empty selector (which upstream prints the same way), `<error>` for
 * one that is not a valid selector.
 */
export function formatLabelSelector(selector: LabelSelector | undefined): string {
  if (!selector) return '<none>';
  const requirements: { key: string; text: string }[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) requirements.push({ key, text: `${key}=${value}` });
  for (const expr of selector.matchExpressions ?? []) {
    const values = [...(expr.values ?? [])].sort();
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) return '<error>';
        requirements.push({ key: expr.key, text: `${expr.key} ${expr.operator === 'In' ? 'in' : 'notin'} (${values.join(',')})` });
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) return '<error>';
        requirements.push({ key: expr.key, text: `${expr.operator === 'Exists' ? '' : '!'}${expr.key}` });
        break;
      default:
        return '<error>';
    }
  }
  if (requirements.length === 0) return '<none>';
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return requirements.map((r) => r.text).join(',');
}
