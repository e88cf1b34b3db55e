// admissionregistration.<domain>/v1: the configurations of the admission webhooks.
import { ageColumn, nameColumn, type PrinterColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from './webhook-configuration.js';

/** The group of the webhook configurations, e.g. admissionregistration.orch.io. */
export const admissionRegistrationGroup = (d: ApiDomain): string => d.group('admissionregistration');

// Upstream's printer shows how many webhooks a configuration holds.
const webhooksColumn: PrinterColumn<{ webhooks?: unknown[] }> = {
  name: 'Webhooks', type: 'integer', description: 'How many webhooks the configuration holds.', priority: 0,
  cell: (c) => (c.webhooks ?? []).length,
};

export const admissionRegistrationV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: admissionRegistrationGroup(d),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'MutatingWebhookConfiguration', resource: 'mutatingwebhookconfigurations', singular: 'mutatingwebhookconfiguration',
      namespaced: false, categories: ['api-extensions'], schema: MutatingWebhookConfiguration,
      printerColumns: [nameColumn, webhooksColumn, ageColumn],
    }),
    defineKind({
      kind: 'ValidatingWebhookConfiguration', resource: 'validatingwebhookconfigurations', singular: 'validatingwebhookconfiguration',
      namespaced: false, categories: ['api-extensions'], schema: ValidatingWebhookConfiguration,
      printerColumns: [nameColumn, webhooksColumn, ageColumn],
    }),
  ],
});
