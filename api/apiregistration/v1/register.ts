// apiregistration.<domain>/v1: APIServices, the group versions this server serves itself or
// proxies to extension API servers.
import { ageColumn, nameColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { APIService } from './api-service.js';

/** The group of APIServices, e.g. apiregistration.orch.io. */
export const apiregistrationGroup = (d: ApiDomain): string => d.group('apiregistration');

/** The Available column as upstream prints it: the status, with the reason when it is not True. */
export function availableSummary(s: APIService): string {
  const c = (s.status?.conditions ?? []).find((x) => x.type === 'Available');
  if (!c) return 'Unknown';
  return c.status === 'True' ? 'True' : `${c.status} (${c.reason ?? ''})`;
}

export const apiregistrationV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: apiregistrationGroup(d),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'APIService', resource: 'apiservices', singular: 'apiservice', namespaced: false,
      categories: ['api-extensions'], subresources: ['status'], schema: APIService,
      defaulter: (s) => {
        const svc = s.spec?.service;
        if (svc && svc.port === undefined) svc.port = 443;
      },
      printerColumns: [
        nameColumn,
        { name: 'Service', type: 'string', description: 'The service the group version is proxied to, or Local.', priority: 0,
          cell: (s) => (s.spec?.service ? `${s.spec.service.namespace ?? ''}/${s.spec.service.name ?? ''}` : 'Local') },
        { name: 'Available', type: 'string', description: 'Whether the group version can be reached, with the reason when not.', priority: 0, cell: availableSummary },
        ageColumn,
      ],
    }),
  ],
});
