// The core group (served at /api/v1): the kinds of this group and version.
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { ConfigMap } from './config-map.js';
import { LimitRange, defaultLimitRange } from './limit-range.js';
import { Namespace, defaultNamespace } from './namespace.js';
import { ResourceQuota } from './resource-quota.js';
import { Secret, defaultSecret } from './secret.js';
import { ServiceAccount } from './service-account.js';

export const coreV1: GroupVersionRegistration = {
  group: '',
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'Namespace', resource: 'namespaces', singular: 'namespace', namespaced: false,
      shortNames: ['ns'], subresources: ['status', 'finalize'], unservedVerbs: ['deletecollection'], schema: Namespace, defaulter: defaultNamespace,
    }),
    defineKind({
      kind: 'ConfigMap', resource: 'configmaps', singular: 'configmap', namespaced: true,
      shortNames: ['cm'], schema: ConfigMap,
    }),
    defineKind({
      kind: 'Secret', resource: 'secrets', singular: 'secret', namespaced: true,
      schema: Secret, defaulter: defaultSecret,
    }),
    defineKind({
      kind: 'ServiceAccount', resource: 'serviceaccounts', singular: 'serviceaccount', namespaced: true,
      shortNames: ['sa'], schema: ServiceAccount,
    }),
    defineKind({
      kind: 'LimitRange', resource: 'limitranges', singular: 'limitrange', namespaced: true,
      shortNames: ['limits'], schema: LimitRange, defaulter: defaultLimitRange,
    }),
    defineKind({
      kind: 'ResourceQuota', resource: 'resourcequotas', singular: 'resourcequota', namespaced: true,
      shortNames: ['quota'], subresources: ['status'], schema: ResourceQuota,
    }),
  ],
};
