// apps/v1: workload controllers.
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { StatefulSet, defaultStatefulSet } from './stateful-set.js';

export const appsV1: GroupVersionRegistration = {
  group: 'apps',
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'StatefulSet', resource: 'statefulsets', singular: 'statefulset', namespaced: true,
      shortNames: ['sts'], categories: ['all'], subresources: ['status'], schema: StatefulSet, defaulter: defaultStatefulSet,
    }),
  ],
};
