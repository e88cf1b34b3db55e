// EventRateLimit (upstream plugin/pkg/admission/eventratelimit, 1.30): creates and updates of core
// Events are counted against each configured limit's token bucket, one bucket for the server or one
// per namespace, user, or event source and involved object (kept in an LRU of `cacheSize` buckets;
// a bucket forgotten starts full again). Every limit takes its token, and an event that finds any
// bucket empty is refused with 429, as upstream's validating plug-in does.
import { StatusError } from '../../runtime/errors.js';
import { ExpiringLRU } from '../../util/expiring-lru.js';
import { TokenBucket } from '../../util/token-bucket.js';
import { handlesOperations, type Attributes, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';
import { loadConfiguration, type Limit, type LimitType } from './config.js';

export const PluginName = 'EventRateLimit';

/** Upstream's cache size for a keyed limit that sets none. */
const defaultCacheSize = 4096;

type EventLike = {
  source?: { component?: string; host?: string };
  involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string };
};

const keyOf: Record<LimitType, (attrs: Attributes) => string> = {
  Server: () => '',
  Namespace: (attrs) => attrs.namespace,
  User: (attrs) => attrs.userInfo.name,
  SourceAndObject: (attrs) => {
    const e = (attrs.object ?? {}) as EventLike;
    const o = e.involvedObject ?? {};
    return [e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion].map((s) => (typeof s === 'string' ? s : '')).join('');
  },
};

/** One limit: its buckets by key. */
class LimitEnforcer {
  private readonly single: TokenBucket | undefined;
  private readonly buckets: ExpiringLRU<TokenBucket> | undefined;

  constructor(private readonly limit: Limit, private readonly now: () => number) {
    if (limit.type === 'Server') this.single = this.bucket();
    else this.buckets = new ExpiringLRU(limit.cacheSize || defaultCacheSize);
  }

  private bucket(): TokenBucket {
    return new TokenBucket(this.limit.qps, this.limit.burst, this.now);
  }

  /** Takes a token for the request's key; the 429 upstream answers when there is none. */
  accept(attrs: Attributes): StatusError | undefined {
    const key = keyOf[this.limit.type](attrs);
    let bucket = this.single ?? this.buckets!.get(key);
    if (!bucket) {
      bucket = this.bucket();
      // A keyed bucket never expires; it is only forgotten when the LRU is full.
      this.buckets!.add(key, bucket, Infinity);
    }
    if (bucket.tryAccept()) return undefined;
    return new StatusError(429, 'TooManyRequests', `Too many requests: limit reached on type ${this.limit.type} for key ${key}`);
  }
}

export class EventRateLimit implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');
  private readonly enforcers: LimitEnforcer[];

  /** `now` is the clock of the buckets (milliseconds). */
  constructor(limits: readonly Limit[], now: () => number = Date.now) {
    this.enforcers = limits.map((l) => new LimitEnforcer(l, now));
  }

  validate(attrs: Attributes): void {
    if (attrs.kind.group !== '' || attrs.kind.kind !== 'Event') return;
    let rejection: StatusError | undefined;
    // Every limit counts the event, even once another has refused it (upstream's last refusal wins).
    for (const e of this.enforcers) rejection = e.accept(attrs) ?? rejection;
    if (rejection) throw rejection;
  }
}

/** Makes the plug-in from its configuration (see config.ts); refuses a missing or invalid one. */
export const eventRateLimitFactory: PluginFactory = (configuration, deps) => new EventRateLimit(loadConfiguration(configuration, deps.domain));
