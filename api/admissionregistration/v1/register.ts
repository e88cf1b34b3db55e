// admissionregistration.<domain>/v1: the configurations of the admission webhooks, and the
// validating admission policies with their bindings.
import { ageColumn, nameColumn, type PrinterColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { goLabelSelectorString } from './label-selector-string.js';
import { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './validating-admission-policy.js';
import { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from './webhook-configuration.js';

/** The group of the webhook configurations, e.g. admissionregistration.orch.io. */
export const admissionRegistrationGroup = (d: ApiDomain): string => d.group('admissionregistration');

// Upstream's printer shows how many webhooks a configuration holds.
const webhooksColumn: PrinterColumn<{ webhooks?: unknown[] }> = {
  name: 'Webhooks', type: 'integer', description: 'How many webhooks the configuration holds.', priority: 0,
  cell: (c) => (c.webhooks ?? []).length,
};

// Upstream's printers of policies and bindings.
const policyColumns: PrinterColumn<ValidatingAdmissionPolicy>[] = [
  nameColumn,
  { name: 'Validations', type: 'integer', description: 'How many validations the policy holds.', priority: 0, cell: (p) => (p.spec?.validations ?? []).length },
  {
    name: 'ParamKind', type: 'string', description: 'The kind of the resources that parameterize the policy.', priority: 0,
    cell: (p) => (p.spec?.paramKind ? `${p.spec.paramKind.apiVersion ?? ''}/${p.spec.paramKind.kind ?? ''}` : '<unset>'),
  },
  ageColumn,
];

const bindingColumns: PrinterColumn<ValidatingAdmissionPolicyBinding>[] = [
  nameColumn,
  { name: 'PolicyName', type: 'string', description: 'The policy the binding applies.', priority: 0, cell: (b) => b.spec?.policyName ?? '' },
  {
    name: 'ParamRef', type: 'string', description: 'The parameter resources the binding gives its policy.', priority: 0,
    cell: (b) => {
      const ref = b.spec?.paramRef;
      if (ref?.name) return ref.namespace ? `${ref.namespace}/${ref.name}` : `*/${ref.name}`;
      if (ref?.selector) return goLabelSelectorString(ref.selector);
      return '<unset>';
    },
  },
  ageColumn,
];

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
      kind: 'ValidatingAdmissionPolicy', resource: 'validatingadmissionpolicies', singular: 'validatingadmissionpolicy',
      namespaced: false, categories: ['api-extensions'], subresources: ['status'], schema: ValidatingAdmissionPolicy,
      printerColumns: policyColumns,
    }),
    defineKind({
      kind: 'ValidatingAdmissionPolicyBinding', resource: 'validatingadmissionpolicybindings', singular: 'validatingadmissionpolicybinding',
      namespaced: false, categories: ['api-extensions'], schema: ValidatingAdmissionPolicyBinding,
      printerColumns: bindingColumns,
    }),
    defineKind({
      kind: 'ValidatingWebhookConfiguration', resource: 'validatingwebhookconfigurations', singular: 'validatingwebhookconfiguration',
      namespaced: false, categories: ['api-extensions'], schema: ValidatingWebhookConfiguration,
      printerColumns: [nameColumn, webhooksColumn, ageColumn],
    }),
  ],
});
