// The labels, annotations and finalizer upstream's batch/v1 spells with batch.kubernetes.io,
// spelled in the platform's domain: what the API server's job strategy puts on a job's pods and
// what the job and cronjob controllers write and read.
import type { ApiDomain } from '../../domain.js';

export interface BatchKeys {
  /** batch.<keyDomain>/controller-uid: the label the generated selector selects. */
  controllerUid: string;
  /** batch.<keyDomain>/job-name. */
  jobName: string;
  legacyControllerUid: 'controller-uid';
  legacyJobName: 'job-name';
  /** batch.<keyDomain>/job-completion-index: an Indexed job's pod's index (annotation and label). */
  completionIndex: string;
  /** batch.<keyDomain>/job-index-failure-count: failures of the index before this pod (backoffLimitPerIndex). */
  indexFailureCount: string;
  /** batch.<keyDomain>/job-index-ignored-failure-count: failures an Ignore rule did not count. */
  indexIgnoredFailureCount: string;
  /** batch.<keyDomain>/job-tracking: the finalizer that keeps a pod until the job controller counted it. */
  trackingFinalizer: string;
  /** batch.<keyDomain>/cronjob-scheduled-timestamp: the time a CronJob's job was scheduled for. */
  cronJobScheduledTimestamp: string;
}

export const batchKeys = (d: ApiDomain): BatchKeys => ({
  controllerUid: d.key('controller-uid', 'batch'),
  jobName: d.key('job-name', 'batch'),
  legacyControllerUid: 'controller-uid',
  legacyJobName: 'job-name',
  completionIndex: d.key('job-completion-index', 'batch'),
  indexFailureCount: d.key('job-index-failure-count', 'batch'),
  indexIgnoredFailureCount: d.key('job-index-ignored-failure-count', 'batch'),
  trackingFinalizer: d.key('job-tracking', 'batch'),
  cronJobScheduledTimestamp: d.key('cronjob-scheduled-timestamp', 'batch'),
});
