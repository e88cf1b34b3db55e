// Builds auditing from the flags: the policy evaluator and the log backend (a rotating file or
// standard output, written blocking or in batches). Either missing means nothing is audited, as
// kube-apiserver installs its audit filter only with both.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ApiDomain } from '../../../api/domain.js';
import { BatchBackend, fileSink, LogBackend, stdoutSink, type Backend, type BackendMode, type LogFormat } from '../../../pkg/audit/backend.js';
import { loadPolicyFile, PolicyRuleEvaluator } from '../../../pkg/audit/policy.js';
import { defaultMaxMegabytes, MEGABYTE, RotatingFile } from '../../../pkg/audit/rotating-file.js';
import type { Logger } from '../../../pkg/log/logger.js';
import type { AuditMetrics } from '../../../pkg/metrics/audit-metrics.js';
import type { AuditServerConfig } from '../../../pkg/server/audit-filter.js';
import { auditLogVersion, type AuditOptions } from './audit-options.js';

export interface BuiltAudit {
  /** What the server's audit filters need; undefined when nothing is audited. */
  server: AuditServerConfig | undefined;
  /** Writes what is queued and closes the log. */
  stop(): Promise<void>;
}

/** Creates the log file (and its directory) up front, so a path that cannot be written stops the start. */
function ensureLogFile(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600));
  } catch (e) {
    throw new Error(`ensureLogFile: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export interface AuditDeps {
  domain: ApiDomain;
  logger: Logger;
  metrics: AuditMetrics;
  /** With --workers: the memory every thread's writer of the one --audit-log-path file shares, and this thread's id. */
  sharedFile?: { memory: SharedArrayBuffer; owner: number };
}

export function buildAudit(o: AuditOptions, deps: AuditDeps): BuiltAudit {
  const { domain, logger, metrics } = deps;
  const none: BuiltAudit = { server: undefined, stop: async () => undefined };
  if (o.policyFile === '') {
    if (o.logPath !== '') logger.v(2).info('No audit policy file provided, no events will be recorded for log backend');
    return none;
  }
  const { policy, warnings } = loadPolicyFile(o.policyFile, domain);
  if (warnings.length > 0) logger.warn('Audit policy contains errors, falling back to lenient decoding', { err: warnings.join(', ') });
  if (o.logPath === '') return none;
  const apiVersion = auditLogVersion(o, domain.name);
  let sink;
  if (o.logPath === '-') {
    sink = stdoutSink();
  } else {
    ensureLogFile(o.logPath);
    sink = fileSink(new RotatingFile(o.logPath, {
      maxBytes: (o.logMaxSize || defaultMaxMegabytes) * MEGABYTE,
      maxAgeDays: o.logMaxAge,
      maxBackups: o.logMaxBackups,
      compress: o.logCompress,
      onBackgroundError: (err) => logger.error('audit log rotation failed', { err: err instanceof Error ? err.message : String(err) }),
      ...(deps.sharedFile ? { shared: deps.sharedFile } : {}),
    }));
  }
  const log = new LogBackend({ format: o.logFormat as LogFormat, apiVersion, sink, logger, observer: metrics });
  const mode = o.logMode as BackendMode;
  const backend: Backend = mode === 'batch'
    ? new BatchBackend(log, { bufferSize: o.logBatchBufferSize, maxBatchSize: o.logBatchMaxSize, maxBatchWaitMs: o.logBatchMaxWaitMs }, logger, metrics)
    : log;
  logger.info('auditing to the log backend', { path: o.logPath, mode, format: o.logFormat, rules: policy.rules.length });
  return {
    server: {
      evaluator: new PolicyRuleEvaluator(policy),
      sink: {
        process: (ev) => {
          metrics.event();
          const ok = backend.process(ev);
          // Only blocking-strict refuses a request whose event could not be written.
          return mode === 'blocking-strict' ? ok : true;
        },
      },
      apiVersion,
      authorizationAnnotations: { decision: `${domain.group('authorization')}/decision`, reason: `${domain.group('authorization')}/reason` },
      observe: { level: (l) => metrics.level(l), rejected: () => metrics.rejected() },
    },
    stop: () => backend.shutdown(),
  };
}
