import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultApiDomain } from '../../../api/domain.js';
import { Job, defaultJob } from '../../../api/batch/v1/job.js';
import { CronJob, defaultCronJob } from '../../../api/batch/v1/cron-job.js';
import { createErrors, defaulted, has, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { podSpecPolicy } from '../testing/pod-spec-policy.js';
import { cronJobValidation } from './cron-job-validation.js';
import { jobValidation } from './job-validation.js';

const policy = podSpecPolicy();
const job: KindUnderTest<Job> = { schema: Job, validation: jobValidation(defaultApiDomain, policy), defaulter: defaultJob };
const cron: KindUnderTest<CronJob> = { schema: CronJob, validation: cronJobValidation(policy), defaulter: defaultCronJob };

const uid = '0b7c';
const generated = { 'batch.orch.io/controller-uid': uid, 'batch.orch.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' };

function j(spec: Record<string, unknown> = {}, labels: Record<string, string> = generated) {
  return {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', namespace: 'default', uid },
    spec: {
      selector: { matchLabels: { 'batch.orch.io/controller-uid': uid } },
      template: { metadata: { labels }, spec: { containers: [{ name: 'pi', image: 'perl' }], restartPolicy: 'Never' } },
      ...spec,
    },
  };
}

test('job defaults', () => {
  const s = defaulted(job, j()).spec!;
  assert.deepEqual([s.parallelism, s.completions, s.backoffLimit, s.completionMode, s.suspend, s.podReplacementPolicy], [1, 1, 6, 'NonIndexed', false, 'TerminatingOrFailed']);
  const perIndex = defaulted(job, j({ completionMode: 'Indexed', completions: 3, backoffLimitPerIndex: 1, podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } })).spec!;
  assert.deepEqual([perIndex.parallelism, perIndex.backoffLimit, perIndex.podReplacementPolicy], [1, 2147483647, 'Failed']);
  assert.equal(perIndex.podFailurePolicy!.rules[0]!.onPodConditions![0]!.status, 'True');
  assert.equal(defaulted(job, j({ parallelism: 3 })).spec!.completions, undefined);
  assert.deepEqual(createErrors(job, j()), []);
});

test('the selector must be the generated one unless manualSelector', () => {
  const errs = createErrors(job, j({ selector: { matchLabels: { 'batch.orch.io/controller-uid': uid, extra: 'x' } } }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.selector', 'FieldValueInvalid spec.template.metadata.labels']);
  assert.equal(errs[0]!.detail, '`selector` not auto-generated');
  const { 'job-name': _drop, ...withoutName } = generated;
  assert.deepEqual(summary(createErrors(job, j({}, withoutName))), ['FieldValueRequired spec.template.metadata.labels[job-name]']);
  assert.deepEqual(createErrors(job, j({ manualSelector: true, selector: { matchLabels: { app: 'pi' } } }, { app: 'pi' })), []);
  assert.deepEqual(summary(createErrors(job, j({ manualSelector: true, selector: undefined }, { app: 'pi' }))), ['FieldValueRequired spec.selector']);
});

test('job spec rules', () => {
  const restart = createErrors(job, j({ template: { metadata: { labels: generated }, spec: { containers: [{ name: 'c', image: 'i' }] } } }));
  assert.deepEqual(summary(restart), ['FieldValueNotSupported spec.template.spec.restartPolicy']);
  assert.deepEqual(summary(createErrors(job, j({ completionMode: 'Indexed', parallelism: 1, completions: undefined }))).filter((s) => s.includes('completions')),
    ['FieldValueRequired spec.completions']);
  assert.ok(has(createErrors(job, j({ backoffLimitPerIndex: 1 })), 'FieldValueForbidden', 'spec.backoffLimitPerIndex'));
  assert.ok(has(createErrors(job, j({ completionMode: 'Indexed', completions: 2, maxFailedIndexes: 1 })), 'FieldValueRequired', 'spec.backoffLimitPerIndex'));
  assert.deepEqual(summary(createErrors(job, j({ parallelism: -1, backoffLimit: -1 }))), ['FieldValueInvalid spec.parallelism', 'FieldValueInvalid spec.backoffLimit']);
  const both = createErrors(job, j({ podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'In', values: [0, 2, 1] } }] } }));
  assert.deepEqual(summary(both), ['FieldValueInvalid spec.podFailurePolicy.rules[0].onExitCodes.values[0]', 'FieldValueInvalid spec.podFailurePolicy.rules[0].onExitCodes.values[2]']);
  assert.deepEqual(summary(createErrors(job, j({ managedBy: 'kueue' }))), ['FieldValueInvalid spec.managedBy']);
  assert.deepEqual(createErrors(job, j({ managedBy: 'kueue.x-k8s.io/multikueue' })), []);
  assert.deepEqual(summary(createErrors(job, j({ successPolicy: { rules: [{ succeededCount: 1 }] } }))), ['FieldValueInvalid spec.completionMode']);
});

test('selector, template and completion mode are immutable', () => {
  const old = j();
  const sel = updateErrors(job, j({ selector: { matchLabels: { 'batch.orch.io/controller-uid': uid, 'job-name': 'pi' } } }), old);
  assert.deepEqual(summary(sel), ['FieldValueInvalid spec.selector']);
  assert.equal(sel[0]!.detail, 'field is immutable');
  assert.deepEqual(updateErrors(job, j({ parallelism: 4, completions: 1 }), old), []);
  const image = j();
  image.spec.template.spec.containers[0]!.image = 'perl:2';
  assert.deepEqual(summary(updateErrors(job, image, old)), ['FieldValueInvalid spec.template']);
  assert.deepEqual(summary(updateErrors(job, j({ completions: 3 }), old)), ['FieldValueInvalid spec.completions']);
  // A suspended job that never started may move its pods to other nodes.
  const suspended = j({ suspend: true });
  const moved = j({ suspend: true });
  (moved.spec.template.spec as Record<string, unknown>).nodeSelector = { zone: 'b' };
  assert.deepEqual(updateErrors(job, moved, suspended), []);
});

function cj(spec: Record<string, unknown> = {}, name = 'nightly') {
  return {
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name, namespace: 'default' },
    spec: {
      schedule: '0 3 * * *',
      jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'OnFailure' } } } },
      ...spec,
    },
  };
}

test('cron job defaults and rules', () => {
  const s = defaulted(cron, cj()).spec!;
  assert.deepEqual([s.concurrencyPolicy, s.suspend, s.successfulJobsHistoryLimit, s.failedJobsHistoryLimit], ['Allow', false, 3, 1]);
  assert.equal(s.jobTemplate.spec!.backoffLimit, undefined);
  assert.deepEqual(createErrors(cron, cj()), []);
  assert.deepEqual(summary(createErrors(cron, cj({}, 'n'.repeat(53)))), ['FieldValueInvalid metadata.name']);
  assert.deepEqual(summary(createErrors(cron, cj({ timeZone: 'Mars/Olympus' }))), ['FieldValueInvalid spec.timeZone']);
  assert.deepEqual(createErrors(cron, cj({ timeZone: 'Europe/Paris' })), []);
  assert.deepEqual(summary(createErrors(cron, cj({ timeZone: 'Local' }))), ['FieldValueInvalid spec.timeZone']);
  const tmpl = { spec: { manualSelector: true, template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Always' } } } };
  assert.deepEqual(summary(createErrors(cron, cj({ jobTemplate: tmpl }))),
    ['FieldValueNotSupported spec.jobTemplate.spec.template.spec.restartPolicy', 'FieldValueNotSupported spec.jobTemplate.spec.manualSelector']);
});

test('a schedule that does not parse is refused with the parser\'s error; TZ in the schedule is refused', () => {
  const bad = createErrors(cron, cj({ schedule: 'often' }));
  assert.deepEqual(summary(bad), ['FieldValueInvalid spec.schedule']);
  assert.equal(bad[0]!.detail, 'expected exactly 5 fields, found 1: [often]');
  const tz = createErrors(cron, cj({ schedule: 'TZ=UTC 0 3 * * *' }));
  assert.deepEqual(summary(tz), ['FieldValueInvalid spec.schedule']);
  assert.equal(tz[0]!.detail, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead');
  // An object stored with TZ keeps it through updates, but not beside timeZone.
  assert.deepEqual(updateErrors(cron, cj({ schedule: 'TZ=UTC 0 4 * * *' }), cj({ schedule: 'TZ=UTC 0 3 * * *' })), []);
  assert.equal(updateErrors(cron, cj({ schedule: 'TZ=UTC 0 4 * * *', timeZone: 'UTC' }), cj({ schedule: 'TZ=UTC 0 3 * * *' }))[0]!.detail,
    'cannot use both timeZone field and TZ or CRON_TZ in schedule');
});

test('a privileged container in a cron job\'s pod template is disallowed by cluster policy unless --allow-privileged', () => {
  const privileged = cj({ jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }], restartPolicy: 'OnFailure' } } } } });
  const errs = createErrors(cron, privileged);
  assert.deepEqual(summary(errs), ['FieldValueForbidden spec.jobTemplate.spec.template.spec.containers[0].securityContext.privileged']);
  assert.equal(errs[0]!.detail, 'disallowed by cluster policy');
  assert.deepEqual(createErrors({ ...cron, validation: cronJobValidation(podSpecPolicy({ allowPrivileged: true })) }, privileged), []);
});
