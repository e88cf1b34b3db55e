// authorization.<domain>/v1: the access reviews answered by the configured authorizers. None is
// stored; the server answers a create with the review's status filled in.
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview } from './types.js';

/** The authorization group of a platform domain: authorization.<domain>. */
export const authorizationGroup = (d: ApiDomain) => d.group('authorization');

export const authorizationV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: authorizationGroup(d),
  version: 'v1',
  stability: 'stable',
  // In discovery's (alphabetical) order, as upstream lists them.
  kinds: [
    defineKind({ kind: 'LocalSubjectAccessReview', resource: 'localsubjectaccessreviews', singular: 'localsubjectaccessreview', namespaced: true, schema: LocalSubjectAccessReview, virtual: true }),
    defineKind({ kind: 'SelfSubjectAccessReview', resource: 'selfsubjectaccessreviews', singular: 'selfsubjectaccessreview', namespaced: false, schema: SelfSubjectAccessReview, virtual: true }),
    defineKind({ kind: 'SelfSubjectRulesReview', resource: 'selfsubjectrulesreviews', singular: 'selfsubjectrulesreview', namespaced: false, schema: SelfSubjectRulesReview, virtual: true }),
    defineKind({ kind: 'SubjectAccessReview', resource: 'subjectaccessreviews', singular: 'subjectaccessreview', namespaced: false, schema: SubjectAccessReview, virtual: true }),
  ],
});
