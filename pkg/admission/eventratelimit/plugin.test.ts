import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiDomain } from '../../../api/domain.js';
import { isStatusError } from '../../runtime/errors.js';
import { AttributesRecord } from '../attributes.js';
import { builtinPlugins } from '../builtin.js';
import type { Operation } from '../interfaces.js';
import { staticDeps } from '../testing/deps.js';
import { loadConfiguration, type Limit } from './config.js';
import { EventRateLimit } from './plugin.js';

interface Request {
  namespace?: string;
  user?: string;
  event?: Record<string, unknown>;
  kind?: { group: string; kind: string };
  operation?: Operation;
}

const attrs = (r: Request) => new AttributesRecord({
  kind: { group: r.kind?.group ?? '', version: 'v1', kind: r.kind?.kind ?? 'Event' },
  resource: { group: r.kind?.group ?? '', version: 'v1', resource: 'events' },
  operation: r.operation ?? 'CREATE',
  namespace: r.namespace ?? 'ns',
  name: 'e',
  object: r.event ?? {},
  userInfo: { name: r.user ?? 'alice', groups: [], extra: {} },
});

/** The plug-in with `limits` (qps 1) on a clock the test moves. */
function limiter(limits: Array<Partial<Limit> & Pick<Limit, 'type' | 'burst'>>) {
  const clock = { now: 1_000_000 };
  const p = new EventRateLimit(limits.map((l) => ({ qps: 1, cacheSize: 0, ...l })), () => clock.now);
  const admitted = (r: Request = {}): boolean => {
    try {
      p.validate(attrs(r));
      return true;
    } catch (e) {
      assert.ok(isStatusError(e));
      assert.equal(e.code, 429);
      return false;
    }
  };
  return { p, clock, admitted };
}

describe('EventRateLimit', () => {
  test('registered; validating only, on creates and updates', () => {
    assert.ok(builtinPlugins().has('EventRateLimit'));
    const { p } = limiter([{ type: 'Server', burst: 1 }]);
    assert.equal(p.name, 'EventRateLimit');
    assert.equal('admit' in p, false);
    assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as Operation[]).map((o) => p.handles(o)), [true, true, false, false]);
  });

  test('the server bucket lets the burst through, then refuses with upstream\'s 429, and refills at qps', () => {
    const { p, clock, admitted } = limiter([{ type: 'Server', burst: 3 }]);
    assert.deepEqual([admitted(), admitted(), admitted()], [true, true, true]);
    try {
      p.validate(attrs({ operation: 'UPDATE' }));
      assert.fail('the fourth event was admitted');
    } catch (e) {
      assert.ok(isStatusError(e));
      assert.deepEqual(e.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Too many requests: limit reached on type Server for key ', reason: 'TooManyRequests', code: 429 });
    }
    clock.now += 999;
    assert.equal(admitted(), false, 'not a whole token yet');
    clock.now += 1;
    assert.equal(admitted(), true);
    clock.now += 60_000;
    assert.deepEqual([admitted(), admitted(), admitted(), admitted()], [true, true, true, false], 'refilled up to the burst, no further');
  });

  test('only core Events count', () => {
    const { admitted } = limiter([{ type: 'Server', burst: 1 }]);
    assert.equal(admitted({ kind: { group: '', kind: 'ConfigMap' } }), true);
    assert.equal(admitted({ kind: { group: 'events.orch.io', kind: 'Event' } }), true);
    assert.equal(admitted(), true);
    assert.equal(admitted(), false);
    assert.equal(admitted({ kind: { group: '', kind: 'Pod' } }), true, 'other kinds pass once the events are limited');
  });

  test('per-namespace and per-user buckets, each its own; the message names the key', () => {
    const { p, admitted } = limiter([{ type: 'Namespace', burst: 2 }, { type: 'User', burst: 3 }]);
    assert.deepEqual([admitted({ namespace: 'a' }), admitted({ namespace: 'a' }), admitted({ namespace: 'a' })], [true, true, false]);
    assert.equal(admitted({ namespace: 'b', user: 'bob' }), true, 'another namespace (and user) is not limited by a');
    // Each of alice's three requests took one of her three tokens, the one refused for its namespace too.
    try {
      p.validate(attrs({ namespace: 'c' }));
      assert.fail('alice\'s fourth event was admitted');
    } catch (e) {
      assert.ok(isStatusError(e));
      assert.equal(e.message, 'Too many requests: limit reached on type User for key alice');
    }
  });

  test('source and object: every field of the key counts', () => {
    const base = { source: { component: 'kubelet', host: 'n1' }, involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u1', apiVersion: 'v1' } };
    const { p, admitted } = limiter([{ type: 'SourceAndObject', burst: 1 }]);
    assert.equal(admitted({ event: base }), true);
    assert.equal(admitted({ event: base }), false);
    for (const change of [{ source: { ...base.source, component: 'other' } }, { source: { ...base.source, host: 'n2' } },
      ...(['kind', 'namespace', 'name', 'uid', 'apiVersion'] as const).map((f) => ({ involvedObject: { ...base.involvedObject, [f]: 'x' } }))]) {
      assert.equal(admitted({ event: { ...base, ...change } }), true, JSON.stringify(change));
    }
    try {
      p.validate(attrs({ event: base }));
    } catch (e) {
      assert.ok(isStatusError(e));
      assert.equal(e.message, 'Too many requests: limit reached on type SourceAndObject for key kubeletn1Podnspu1v1');
    }
  });

  test('a full cache forgets its least recently used bucket, which starts full again', () => {
    const { admitted } = limiter([{ type: 'Namespace', burst: 3, cacheSize: 2 }]);
    const seq = (ns: string, n: number) => Array.from({ length: n }, () => admitted({ namespace: ns }));
    assert.deepEqual([...seq('A', 2), ...seq('B', 3), ...seq('A', 1)], [true, true, true, true, true, true]);
    assert.deepEqual([...seq('B', 1), ...seq('A', 1)], [false, false]);
    assert.equal(admitted({ namespace: 'C' }), true, 'C pushes out B, the least recently used');
    assert.equal(admitted({ namespace: 'A' }), false);
    assert.equal(admitted({ namespace: 'B' }), true, 'B was forgotten and starts over');
  });
});

describe('EventRateLimit configuration', () => {
  const d = apiDomain('orch.io');
  const config = (limits: unknown, apiVersion = 'eventratelimit.admission.orch.io/v1alpha1') => ({ apiVersion, kind: 'Configuration', limits });

  test('both groups; the fields as given', () => {
    const limits = [{ type: 'Server', qps: 5, burst: 10 }, { type: 'SourceAndObject', qps: 1, burst: 2, cacheSize: 100 }];
    const want = [{ type: 'Server', qps: 5, burst: 10, cacheSize: 0 }, { type: 'SourceAndObject', qps: 1, burst: 2, cacheSize: 100 }];
    assert.deepEqual(loadConfiguration(config(limits), d), want);
    assert.deepEqual(loadConfiguration(config(limits, 'eventratelimit.admission.k8s.io/v1alpha1'), d), want);
  });

  test('upstream\'s refusals, each a start-up failure', () => {
    const refuse = (c: unknown, message: string) => assert.throws(() => loadConfiguration(c, d), (e: Error) => {
      assert.equal(e.message, message);
      return true;
    });
    refuse(undefined, 'limits: Invalid value: []eventratelimit.Limit(nil): must not be empty');
    refuse(config([]), 'limits: Invalid value: []eventratelimit.Limit{}: must not be empty');
    refuse(config([{ type: 'Cluster', qps: 1, burst: 1 }]), 'limits[0].type: Unsupported value: "Cluster": supported values: "Server", "Namespace", "User", "SourceAndObject"');
    refuse(config([{ type: 'Namespace', burst: 1, cacheSize: -1 }, { type: 'Server', qps: 1, cacheSize: -1 }]),
      '[limits[0].qps: Invalid value: 0: must be positive, limits[0].cacheSize: Invalid value: -1: must not be negative, limits[1].burst: Invalid value: 0: must be positive]');
    refuse(config([{ type: 'Server', qps: 1.5, burst: 1 }]), 'json: cannot unmarshal number 1.5 into Go struct field Limit.limits.qps of type int32');
    refuse(config({ type: 'Server' }), 'json: cannot unmarshal object into Go struct field Configuration.limits of type []v1alpha1.Limit');
    refuse({ kind: 'Configuration', limits: [] }, 'Object \'apiVersion\' is missing in \'{"kind":"Configuration","limits":[]}\'');
    refuse(config([], 'eventratelimit.admission.orch.io/v1'), 'no kind "Configuration" is registered for version "eventratelimit.admission.orch.io/v1"');
    assert.throws(() => builtinPlugins().newChain(['EventRateLimit'], () => undefined, staticDeps()),
      /^Error: couldn't init admission plugin "EventRateLimit": limits: Invalid value/);
  });
});
