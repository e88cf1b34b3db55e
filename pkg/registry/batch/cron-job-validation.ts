// Rules of CronJob (upstream ValidateCronJobCreate, ValidateCronJobUpdate and
// ValidateJobTemplateSpec): a schedule that parses, an IANA time zone, the job template's rules.
import type { CronJob, CronJobSpec } from '../../../api/batch/v1/cron-job.js';
import type { JobSpec } from '../../../api/batch/v1/job.js';
import { invalid, notSupported, Path, required, type FieldError } from '../../runtime/field-errors.js';
import type { PodSpecPolicy } from '../core/pod-template-validation.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateLabelSelector } from '../validation/label-selector.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { validateNonnegativeField } from '../validation/numeric.js';
import { cronScheduleError } from '../../util/cron/parse.js';
import { knownTimeZone } from '../../util/cron/zone.js';
import { validateJobSpecCommon } from './job-validation.js';

const specPath = Path.root('spec');
/** A job's name gets an 11-character suffix, and must stay a valid label value. */
const maxCronJobNameLength = 52;
const timeZoneCharacters = /^[A-Za-z.\-_0-9+]{1,14}$/;

function validateSchedule(schedule: string, allowTZ: boolean, timeZone: string | undefined): FieldError[] {
  const p = specPath.child('schedule');
  const errs: FieldError[] = [];
  const parseError = cronScheduleError(schedule);
  if (parseError) errs.push(invalid(p, schedule, parseError));
  if (schedule.includes('TZ')) {
    if (!allowTZ) errs.push(invalid(p, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
    else if (timeZone !== undefined) errs.push(invalid(p, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  }
  return errs;
}

function validateTimeZone(timeZone: string | undefined): FieldError[] {
  if (timeZone === undefined || timeZone === null) return [];
  const p = specPath.child('timeZone');
  if (timeZone.length === 0) return [invalid(p, timeZone, 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !timeZoneCharacters.test(part)) {
      return [invalid(p, timeZone, `unknown time zone ${timeZone}`)];
    }
  }
  if (timeZone.toLowerCase() === 'local') {
    return [invalid(p, timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  }
  return knownTimeZone(timeZone) ? [] : [invalid(p, timeZone, `unknown time zone ${timeZone}`)];
}

/** Upstream ValidateJobTemplateSpec: the job spec rules, an optional valid selector, no manualSelector. */
function validateJobTemplate(spec: CronJobSpec, policy: PodSpecPolicy): FieldError[] {
  const path = specPath.child('jobTemplate', 'spec');
  const jobSpec = spec.jobTemplate?.spec ?? ({} as JobSpec);
  const errs = validateJobSpecCommon(jobSpec, path, policy);
  if (jobSpec.selector) errs.push(...validateLabelSelector(jobSpec.selector, path.child('selector')));
  if (jobSpec.manualSelector === true) errs.push(notSupported(path.child('manualSelector'), true, ['nil', 'false']));
  return errs;
}

function validateSpec(cj: CronJob, old: CronJob | undefined, policy: PodSpecPolicy): FieldError[] {
  const spec = cj.spec;
  if (!spec) return [];
  const errs: FieldError[] = [];
  if (!spec.schedule) errs.push(required(specPath.child('schedule'), ''));
  else errs.push(...validateSchedule(spec.schedule, (old?.spec?.schedule ?? '').includes('TZ'), spec.timeZone));
  errs.push(...validateNonnegativeField(spec.startingDeadlineSeconds, specPath.child('startingDeadlineSeconds')));
  if (!old || old.spec?.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone));
  errs.push(...validateJobTemplate(spec, policy));
  errs.push(...validateNonnegativeField(spec.successfulJobsHistoryLimit, specPath.child('successfulJobsHistoryLimit')));
  errs.push(...validateNonnegativeField(spec.failedJobsHistoryLimit, specPath.child('failedJobsHistoryLimit')));
  return errs;
}

function validateCreate(cj: CronJob, policy: PodSpecPolicy): FieldError[] {
  const errs: FieldError[] = [];
  const name = cj.metadata?.name ?? '';
  if (name.length > maxCronJobNameLength) {
    errs.push(invalid(Path.root('metadata').child('name'), name, `must be no more than ${maxCronJobNameLength} characters`));
  }
  errs.push(...validateSpec(cj, undefined, policy));
  return errs;
}

/** CronJob rules. */
export const cronJobValidation = (policy: PodSpecPolicy): KindValidation<CronJob> => ({
  name: nameIsDNSSubdomain,
  validate: (cj) => validateCreate(cj, policy),
  validateUpdate: (cj, old) => validateSpec(cj, old, policy),
});
