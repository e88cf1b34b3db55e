// authentication.<domain>/v1 and v1beta1: the reviews answered by the configured authenticators.
// Neither kind is stored; the server answers a create with the review's status filled in.
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration, type SubresourceKind } from '../../registration.js';
import { SelfSubjectReview, TokenRequest, TokenReview, v1beta1 } from './types.js';

/** The authentication group of a platform domain: authentication.<domain>. */
export const authenticationGroup = (d: ApiDomain) => d.group('authentication');

const reviews = (types: { TokenReview: typeof TokenReview; SelfSubjectReview: typeof SelfSubjectReview }) => [
  defineKind({ kind: 'TokenReview', resource: 'tokenreviews', singular: 'tokenreview', namespaced: false, schema: types.TokenReview, virtual: true }),
  defineKind({ kind: 'SelfSubjectReview', resource: 'selfsubjectreviews', singular: 'selfsubjectreview', namespaced: false, schema: types.SelfSubjectReview, virtual: true }),
];

export const authenticationV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: authenticationGroup(d), version: 'v1', stability: 'stable', kinds: reviews({ TokenReview, SelfSubjectReview }),
});

/** Served by default, as upstream serves betas that predate 1.22 (TokenReview v1beta1 is from 1.3). */
export const authenticationV1beta1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: authenticationGroup(d), version: 'v1beta1', stability: 'beta', enabledByDefault: true, kinds: reviews(v1beta1),
});

/** The serviceaccounts/token sub-resource: a TokenRequest answered with a bound token. */
export const tokenRequestKind = (d: ApiDomain): SubresourceKind => ({
  group: authenticationGroup(d), version: 'v1', kind: 'TokenRequest', schema: TokenRequest, verbs: ['create'],
});
