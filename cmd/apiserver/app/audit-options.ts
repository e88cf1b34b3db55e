// The audit flags of the API server, named, defaulted and checked as kube-apiserver's are
// (--audit-policy-file and the --audit-log-* flags of the log backend).
import type { Argv } from 'yargs';
import { apiDomain, invalidApiDomain } from '../../../api/domain.js';
import { BackendModes, LogFormats } from '../../../pkg/audit/backend.js';
import { loadPolicyFile } from '../../../pkg/audit/policy.js';
import { auditAPIVersion } from '../../../pkg/audit/types.js';
import { parseDuration } from '../../../pkg/util/duration.js';

const group = 'Auditing:';

export interface AuditOptions {
  /** --audit-policy-file; '' audits nothing. */
  policyFile: string;
  /** --audit-log-path; '' writes no log, '-' writes to standard output. */
  logPath: string;
  /** Days a rotated file is kept (0: no limit). */
  logMaxAge: number;
  /** Rotated files kept (0: no limit). */
  logMaxBackups: number;
  /** Megabytes the file may grow to before it is rotated (0: lumberjack's 100). */
  logMaxSize: number;
  logFormat: string;
  logCompress: boolean;
  logMode: string;
  /** --audit-log-version; '' is `audit.<domain>/v1`. */
  logVersion: string;
  logBatchBufferSize: number;
  logBatchMaxSize: number;
  logBatchMaxWaitMs: number;
}

export function defaultAuditOptions(): AuditOptions {
  return {
    policyFile: '', logPath: '', logMaxAge: 0, logMaxBackups: 0, logMaxSize: 0, logFormat: 'json', logCompress: false,
    logMode: 'blocking', logVersion: '', logBatchBufferSize: 10000, logBatchMaxSize: 1, logBatchMaxWaitMs: 0,
  };
}

/** Declares the flags on a yargs parser. */
export function auditFlags<T>(y: Argv<T>) {
  const d = defaultAuditOptions();
  return y
    .option('audit-policy-file', { type: 'string', default: d.policyFile, describe: 'Path to the file that defines the audit policy configuration.', group })
    .option('audit-log-path', { type: 'string', default: d.logPath, describe: "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.", group })
    .option('audit-log-maxage', { type: 'number', default: d.logMaxAge, describe: 'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.', group })
    .option('audit-log-maxbackup', { type: 'number', default: d.logMaxBackups, describe: "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files.", group })
    .option('audit-log-maxsize', { type: 'number', default: d.logMaxSize, describe: 'The maximum size in megabytes of the audit log file before it gets rotated.', group })
    .option('audit-log-format', { type: 'string', default: d.logFormat, describe: `Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured json format. Known formats are ${LogFormats.join(',')}.`, group })
    .option('audit-log-compress', { type: 'boolean', default: d.logCompress, describe: 'If set, the rotated log files will be compressed using gzip.', group })
    .option('audit-log-mode', { type: 'string', default: d.logMode, describe: `Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are ${BackendModes.join(',')}.`, group })
    .option('audit-log-version', { type: 'string', default: d.logVersion, describe: 'API group and version used for serializing audit events written to log (default audit.<api-domain>/v1).', group })
    .option('audit-log-batch-buffer-size', { type: 'number', default: d.logBatchBufferSize, describe: 'The size of the buffer to store events before batching and writing. Only used in batch mode.', group })
    .option('audit-log-batch-max-size', { type: 'number', default: d.logBatchMaxSize, describe: 'The maximum size of a batch. Only used in batch mode.', group })
    .option('audit-log-batch-max-wait', { type: 'string', default: '0s', describe: "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.", group });
}

/** The options from parsed flags; throws with the flag's name on a malformed value. */
export function auditOptionsFrom(p: Record<string, unknown>): AuditOptions {
  const d = defaultAuditOptions();
  let wait: number;
  try {
    wait = parseDuration(String(p['audit-log-batch-max-wait'] ?? '0s'));
  } catch (e) {
    throw new Error(`--audit-log-batch-max-wait: ${(e as Error).message}`);
  }
  const num = (flag: string, dflt: number) => (p[flag] === undefined ? dflt : Number(p[flag]));
  return {
    policyFile: String(p['audit-policy-file'] ?? ''),
    logPath: String(p['audit-log-path'] ?? ''),
    logMaxAge: num('audit-log-maxage', d.logMaxAge),
    logMaxBackups: num('audit-log-maxbackup', d.logMaxBackups),
    logMaxSize: num('audit-log-maxsize', d.logMaxSize),
    logFormat: String(p['audit-log-format'] ?? d.logFormat),
    logCompress: Boolean(p['audit-log-compress'] ?? false),
    logMode: String(p['audit-log-mode'] ?? d.logMode),
    logVersion: String(p['audit-log-version'] ?? ''),
    logBatchBufferSize: num('audit-log-batch-buffer-size', d.logBatchBufferSize),
    logBatchMaxSize: num('audit-log-batch-max-size', d.logBatchMaxSize),
    logBatchMaxWaitMs: wait,
  };
}

/** The event version the log writes: --audit-log-version, or `audit.<domain>/v1`. */
export function auditLogVersion(o: AuditOptions, domain: string): string {
  return o.logVersion || auditAPIVersion(apiDomain(domain));
}

/** Problems with the audit flags and the policy file, worded as kube-apiserver words them. */
export function validateAuditOptions(o: AuditOptions, domain: string): string[] {
  if (invalidApiDomain(domain)) return [];
  const errs: string[] = [];
  if (o.logPath !== '') {
    if (!(BackendModes as readonly string[]).includes(o.logMode)) {
      errs.push(`invalid audit log mode ${o.logMode}, allowed modes are ${JSON.stringify(BackendModes.join(','))}`);
    } else if (o.logMode === 'batch') {
      if (!(o.logBatchBufferSize > 0)) errs.push(`invalid audit batch log buffer size ${o.logBatchBufferSize}, must be a positive number`);
      else if (!(o.logBatchMaxSize > 0)) errs.push(`invalid audit batch log max batch size ${o.logBatchMaxSize}, must be a positive number`);
    }
    const version = auditLogVersion(o, domain);
    const known = auditAPIVersion(apiDomain(domain));
    if (version.split('/').length > 2) errs.push(`unexpected GroupVersion string: ${version}`);
    else if (version !== known) errs.push(`invalid group version, allowed versions are [${JSON.stringify(known)}]`);
    if (!(LogFormats as readonly string[]).includes(o.logFormat)) {
      errs.push(`invalid audit log format ${o.logFormat}, allowed formats are ${JSON.stringify(LogFormats.join(','))}`);
    }
    if (o.logMaxAge < 0) errs.push(`--audit-log-maxage ${o.logMaxAge} can't be a negative number`);
    if (o.logMaxBackups < 0) errs.push(`--audit-log-maxbackup ${o.logMaxBackups} can't be a negative number`);
    if (o.logMaxSize < 0) errs.push(`--audit-log-maxsize ${o.logMaxSize} can't be a negative number`);
    for (const [flag, v] of [['--audit-log-maxage', o.logMaxAge], ['--audit-log-maxbackup', o.logMaxBackups], ['--audit-log-maxsize', o.logMaxSize]] as const) {
      if (v >= 0 && !Number.isInteger(v)) errs.push(`${flag} ${v} must be an integer`);
    }
  }
  // The policy is read again when the server is built; a broken one stops the binary before anything starts.
  if (o.policyFile !== '') {
    try {
      loadPolicyFile(o.policyFile, apiDomain(domain));
    } catch (e) {
      errs.push((e as Error).message);
    }
  }
  return errs;
}
