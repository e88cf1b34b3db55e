// The EventRateLimit configuration (upstream's eventratelimit.admission.k8s.io/v1alpha1
// Configuration, here also eventratelimit.admission.<domain>): a list of limits, each a token
// bucket of `burst` events refilled at `qps` a second, kept for the whole server, per namespace,
// per user, or per event source and involved object. Decoded and validated as upstream does it;
// upstream refuses to start without a configuration (no limits), and so do we.
import type { ApiDomain } from '../../../api/domain.js';
import { errorMessage, GoLiteral, invalid, notSupported, Path, type FieldError } from '../../runtime/field-errors.js';
import { configObject } from '../config-kind.js';

export type LimitType = 'Server' | 'Namespace' | 'User' | 'SourceAndObject';

/** Upstream's declaration order, used for the list of supported values. */
export const limitTypes: readonly LimitType[] = ['Server', 'Namespace', 'User', 'SourceAndObject'];

export interface Limit {
  type: LimitType;
  qps: number;
  burst: number;
  /** Buckets kept for a keyed limit type (the least recently used are forgotten); 0 means upstream's 4096. */
  cacheSize: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What Go's JSON decoder calls a value it cannot put into a field. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'number') return `number ${v}`;
  return typeof v === 'object' ? 'object' : typeof v;
}

function unmarshalError(value: unknown, field: string, goType: string): Error {
  const owner = field.includes('.') ? 'Limit' : 'Configuration';
  return new Error(`json: cannot unmarshal ${jsonKind(value)} into Go struct field ${owner}.${field} of type ${goType}`);
}

/** An int32 field; absent (or null) is 0, as Go decodes it. */
function int32(v: unknown, field: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) throw unmarshalError(v, field, 'int32');
  return v;
}

/** The limits as decoded, before validation; throws Go's decoding errors. */
function decodeLimits(raw: unknown): { limits: Limit[]; absent: boolean } {
  if (raw === undefined || raw === null) return { limits: [], absent: true };
  if (!Array.isArray(raw)) throw unmarshalError(raw, 'limits', '[]v1alpha1.Limit');
  const limits = raw.map((item: unknown): Limit => {
    if (item === null) return { type: '' as LimitType, qps: 0, burst: 0, cacheSize: 0 };
    if (!isObject(item)) throw unmarshalError(item, 'limits', 'v1alpha1.Limit');
    const type = item['type'] ?? '';
    if (typeof type !== 'string') throw unmarshalError(type, 'limits.type', 'v1alpha1.LimitType');
    return { type: type as LimitType, qps: int32(item['qps'], 'limits.qps'), burst: int32(item['burst'], 'limits.burst'), cacheSize: int32(item['cacheSize'], 'limits.cacheSize') };
  });
  return { limits, absent: false };
}

/** Upstream's ValidateConfiguration. */
function validate(limits: readonly Limit[], absent: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const path = Path.root('limits');
  if (limits.length === 0) errs.push(invalid(path, new GoLiteral(absent ? '[]eventratelimit.Limit(nil)' : '[]eventratelimit.Limit{}'), 'must not be empty'));
  limits.forEach((l, i) => {
    const at = path.index(i);
    if (!limitTypes.includes(l.type)) errs.push(notSupported(at.child('type'), l.type, limitTypes));
    if (l.burst <= 0) errs.push(invalid(at.child('burst'), l.burst, 'must be positive'));
    if (l.qps <= 0) errs.push(invalid(at.child('qps'), l.qps, 'must be positive'));
    if (l.type !== 'Server' && l.cacheSize < 0) errs.push(invalid(at.child('cacheSize'), l.cacheSize, 'must not be negative'));
  });
  return errs;
}

/**
 * The limits of the configuration in the admission configuration file (undefined: none given,
 * which upstream refuses as an empty list). Throws on a malformed or invalid configuration, with
 * upstream's messages.
 */
export function loadConfiguration(configuration: unknown, domain: ApiDomain): Limit[] {
  const c = configuration === undefined || configuration === null
    ? {}
    : configObject(configuration, { prefix: 'eventratelimit.admission', versions: ['v1alpha1'], kinds: ['Configuration'] }, domain);
  const { limits, absent } = decodeLimits(c['limits']);
  const errs = validate(limits, absent);
  if (errs.length === 1) throw new Error(errorMessage(errs[0]!));
  if (errs.length > 1) throw new Error(`[${errs.map(errorMessage).join(', ')}]`);
  return limits;
}
