import type { Static } from '@sinclair/typebox';
import { bool, bytes, enumOf, field, int32, list, object, opt, str } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { time } from '../../meta/v1/primitives.js';

const P = 'io.orch.api.apiregistration.v1';

export const ServiceReference = object(`${P}.ServiceReference`, {
  namespace: opt(str(1, { description: 'Namespace of the service.' })),
  name: opt(str(2, { description: 'Name of the service.' })),
  port: opt(int32(3, { description: 'Port of the service that serves the API; 443 when unset. Must be a valid port number (1-65535).' })),
}, { description: 'The Service an extension API server runs behind.' });
export type ServiceReference = Static<typeof ServiceReference>;

export const APIServiceSpec = object(`${P}.APIServiceSpec`, {
  service: opt(field(1, ServiceReference, {
    description: 'The service the group version is proxied to, on its port (443 by default). Unset: the group version is served by this server itself (a local APIService).',
  })),
  group: opt(str(2, { description: 'The API group the server hosts.' })),
  version: opt(str(3, { description: 'The API version the server hosts, e.g. v1.' })),
  insecureSkipTLSVerify: opt(bool(4, { description: 'Do not verify the serving certificate of the extension server. Strongly discouraged: give caBundle instead.' })),
  caBundle: opt(bytes(5, { description: 'PEM certificate authorities that verify the serving certificate of the extension server; the system trust roots when unset.' })),
  groupPriorityMinimum: int32(7, {
    'x-orch-emit': 'always',
    description: 'The least priority the group has; the highest over its versions wins. Groups are sorted by it, highest first, then by name.',
  }),
  versionPriority: int32(8, {
    'x-orch-emit': 'always',
    description: 'Orders the versions within their group, highest first; equal priorities are ordered as Kubernetes versions (v1 before v1beta1).',
  }),
}, { required: ['groupPriorityMinimum', 'versionPriority'], description: 'Where a group version is served and how it is ordered in discovery.' });
export type APIServiceSpec = Static<typeof APIServiceSpec>;

export const APIServiceCondition = object(`${P}.APIServiceCondition`, {
  type: str(1, { description: 'Type of the condition; Available is the one kept.' }),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const, { description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time(3, { description: 'When the condition last changed from one status to another.' })),
  reason: opt(str(4, { description: "Machine-readable CamelCase reason for the condition's last transition." })),
  message: opt(str(5, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of an APIService.' });
export type APIServiceCondition = Static<typeof APIServiceCondition>;

export const APIServiceStatus = object(`${P}.APIServiceStatus`, {
  conditions: opt(list(1, APIServiceCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'The observed state of the APIService; Available says whether its API can be reached.',
  })),
}, { description: 'What the server observes of an APIService.' });
export type APIServiceStatus = Static<typeof APIServiceStatus>;

export const APIService = topLevel(`${P}.APIService`, {
  spec: opt(field(2, APIServiceSpec, { description: 'Where the group version is served and its priorities.' })),
  status: opt(field(3, APIServiceStatus, { description: 'Whether the group version is available.' })),
}, { description: 'A group version served by this server (local) or by an extension API server behind a Service, to which its requests are proxied. Its name is <version>.<group>.' });
export type APIService = Static<typeof APIService>;

/** The reasons of the Available condition, as upstream's availability controller writes them. */
export const AvailableReasons = {
  local: 'Local',
  serviceNotFound: 'ServiceNotFound',
  servicePortError: 'ServicePortError',
  missingEndpoints: 'MissingEndpoints',
  endpointsNotFound: 'EndpointsNotFound',
  failedDiscoveryCheck: 'FailedDiscoveryCheck',
  passed: 'Passed',
} as const;
