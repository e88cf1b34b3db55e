// The audit metrics, named and labelled as upstream's (k8s.io/apiserver/pkg/audit/metrics.go),
// registered on the server's registry.
import { Counter, type Registry } from 'prom-client';

export class AuditMetrics {
  private readonly events: Counter;
  private readonly errors: Counter<'plugin'>;
  private readonly levels: Counter<'level'>;
  private readonly rejectedRequests: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    this.events = new Counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.', registers });
    this.errors = new Counter({
      name: 'apiserver_audit_error_total',
      help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
      labelNames: ['plugin'], registers,
    });
    this.levels = new Counter({ name: 'apiserver_audit_level_total', help: 'Counter of policy levels for audit events (1 per request).', labelNames: ['level'], registers });
    this.rejectedRequests = new Counter({ name: 'apiserver_audit_requests_rejected_total', help: 'Counter of apiserver requests rejected due to an error in audit logging backend.', registers });
  }

  event(): void {
    this.events.inc();
  }

  pluginError(plugin: string, events: number): void {
    this.errors.inc({ plugin }, events);
  }

  level(level: string): void {
    this.levels.inc({ level });
  }

  rejected(): void {
    this.rejectedRequests.inc();
  }
}
