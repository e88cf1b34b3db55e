import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultScaleDownRules, defaultScaleUpRules } from '../../../api/autoscaling/v2/defaults.js';
import {
  ScalingHistory, convertDesiredReplicasWithBehaviorRate, convertDesiredReplicasWithRules, scaleDownLimitWithRules, scaleUpLimitWithRules,
  stabilizeRecommendation, stabilizeRecommendationWithBehaviors, type BehaviorArgs,
} from './normalize.js';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const s = (seconds: number) => t0 + seconds * 1000;

test('without a behavior: min and max clamp, and a scale-up is limited to twice the count (at least 4)', () => {
  assert.deepEqual(convertDesiredReplicasWithRules(3, 1, 2, 10), { replicas: 2, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' });
  assert.deepEqual(convertDesiredReplicasWithRules(8, 12, 1, 10), { replicas: 10, reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' });
  assert.deepEqual(convertDesiredReplicasWithRules(1, 9, 1, 20), { replicas: 4, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
  assert.deepEqual(convertDesiredReplicasWithRules(5, 9, 1, 20), { replicas: 9, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' });
});

test('without a behavior: the highest recommendation of the downscale window wins; older ones are replaced', () => {
  const h = new ScalingHistory();
  h.recordInitial('ns/a', 5, s(0));
  h.recordInitial('ns/a', 9, s(1));
  assert.deepEqual(h.recommendations.get('ns/a'), [{ replicas: 5, at: s(0) }], 'only the first look is recorded');
  const window = 300_000;
  assert.equal(stabilizeRecommendation(h, 'ns/a', 2, window, s(10)), 5, 'a scale-down waits for the window');
  assert.equal(stabilizeRecommendation(h, 'ns/a', 8, window, s(20)), 8, 'a scale-up is at once');
  assert.equal(stabilizeRecommendation(h, 'ns/a', 3, window, s(100)), 8);
  // 301 s after the first sample it has left the window; 8 (at 20 s) still counts until 320 s.
  assert.equal(stabilizeRecommendation(h, 'ns/a', 3, window, s(301)), 8);
  assert.equal(stabilizeRecommendation(h, 'ns/a', 3, window, s(330)), 3);
  assert.ok((h.recommendations.get('ns/a') ?? []).length <= 4, 'outdated samples are reused, not piled up');
});

const rules = (over: Partial<BehaviorArgs> = {}): BehaviorArgs => ({
  key: 'ns/a', scaleUp: defaultScaleUpRules(), scaleDown: { ...defaultScaleDownRules(), stabilizationWindowSeconds: 300 },
  minReplicas: 1, maxReplicas: 100, currentReplicas: 10, desiredReplicas: 10, ...over,
});

test('behavior policies: the default scale-up allows the larger of +4 pods and +100% per 15 s; Min picks the smaller; Disabled none', () => {
  const up = defaultScaleUpRules();
  assert.equal(scaleUpLimitWithRules(2, [], [], up, s(0)), 6, '+4 beats doubling at 2');
  assert.equal(scaleUpLimitWithRules(10, [], [], up, s(0)), 20, 'doubling beats +4 at 10');
  assert.equal(scaleUpLimitWithRules(10, [], [], { ...up, selectPolicy: 'Min' }, s(0)), 14);
  assert.equal(scaleUpLimitWithRules(10, [], [], { ...up, selectPolicy: 'Disabled' }, s(0)), 10);
  // Percent rounds up, so a small percentage still adds a pod.
  assert.equal(scaleUpLimitWithRules(3, [], [], { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] }, s(0)), 4);
  // Down: 100% per 15 s allows 0; Pods 2 per minute with Min (the smallest change) keeps 8.
  assert.equal(scaleDownLimitWithRules(10, [], [], defaultScaleDownRules(), s(0)), 0);
  assert.equal(scaleDownLimitWithRules(10, [], [], { selectPolicy: 'Min', policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }, { type: 'Percent', value: 50, periodSeconds: 60 }] }, s(0)), 8);
  assert.equal(scaleDownLimitWithRules(10, [], [], { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }, { type: 'Percent', value: 50, periodSeconds: 60 }] }, s(0)), 5);
});

test('behavior policies count what was already changed within each period', () => {
  const h = new ScalingHistory();
  const behavior = { scaleUp: { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 60 }] }, scaleDown: defaultScaleDownRules() };
  h.storeScaleEvent(behavior, 'ns/a', 2, 6, s(0));
  const args = rules({ scaleUp: behavior.scaleUp, currentReplicas: 6, desiredReplicas: 20 });
  // +4 were added 30 s ago: the period started at 2, so 6 is the most, and no scale-up happens yet.
  assert.deepEqual(convertDesiredReplicasWithBehaviorRate(h, args, s(30)),
    { replicas: 6, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
  // Once the event leaves the period, +4 again.
  assert.equal(convertDesiredReplicasWithBehaviorRate(h, args, s(61)).replicas, 10);
  assert.deepEqual(convertDesiredReplicasWithBehaviorRate(h, { ...args, maxReplicas: 8 }, s(61)),
    { replicas: 8, reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' });
  // Down to min, then held by a policy.
  assert.deepEqual(convertDesiredReplicasWithBehaviorRate(h, rules({ currentReplicas: 5, desiredReplicas: 0, minReplicas: 2 }), s(61)),
    { replicas: 2, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' });
  const slow = rules({ currentReplicas: 10, desiredReplicas: 1, scaleDown: { selectPolicy: 'Max', stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 3, periodSeconds: 60 }] } });
  assert.deepEqual(convertDesiredReplicasWithBehaviorRate(h, slow, s(61)),
    { replicas: 7, reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' });
  h.storeScaleEvent({ scaleUp: defaultScaleUpRules(), scaleDown: slow.scaleDown }, 'ns/a', 10, 7, s(62));
  assert.equal(convertDesiredReplicasWithBehaviorRate(h, { ...slow, currentReplicas: 7 }, s(70)).replicas, 7, 'the 3 pods of this minute are spent');
  assert.equal(convertDesiredReplicasWithBehaviorRate(h, rules({ desiredReplicas: 12 }), s(61)).reason, 'DesiredWithinRange');
});

test('behavior stabilization: the lowest recommendation of the scale-up window, the highest of the scale-down window', () => {
  const h = new ScalingHistory();
  const args = rules({ scaleUp: { ...defaultScaleUpRules(), stabilizationWindowSeconds: 60 }, scaleDown: { ...defaultScaleDownRules(), stabilizationWindowSeconds: 120 } });
  h.recordInitial('ns/a', 10, s(0));
  assert.deepEqual(stabilizeRecommendationWithBehaviors(h, { ...args, desiredReplicas: 15 }, s(10)),
    { replicas: 10, reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' });
  assert.equal(stabilizeRecommendationWithBehaviors(h, { ...args, desiredReplicas: 15 }, s(61)).replicas, 15, 'the 10 left the scale-up window');
  // The 15s of the scale-down window hold the count where it is.
  assert.deepEqual(stabilizeRecommendationWithBehaviors(h, { ...args, desiredReplicas: 4 }, s(70)),
    { replicas: 10, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' });
  assert.equal(stabilizeRecommendationWithBehaviors(h, { ...args, desiredReplicas: 4 }, s(190)).replicas, 4, 'every higher one left the scale-down window');
});
