// authentication.<domain>/v1: TokenReview (spec 2.8), SelfSubjectReview and TokenRequest. None
// is stored: a review is answered by the configured authenticators, a TokenRequest (the
// serviceaccounts/token sub-resource) by the service account token issuer. Field numbers follow
// upstream's authentication/v1 generated.proto.
import { Type, type Static } from '@sinclair/typebox';
import { bool, field, int64, mapOf, object, opt, str, stringList } from '../../schema.js';
import { time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';

/** The review shapes of one version of the group (each version's are named apart, as upstream's are). */
function reviewTypes(P: string) {
  const UserInfo = object(`${P}.UserInfo`, {
    username: opt(str(1, { description: 'The name that uniquely identifies this user among all active users.' })),
    uid: opt(str(2, { description: 'A unique value that identifies this user across time; a user deleted and re-added with the same name gets another uid.' })),
    groups: opt(stringList(3, { listType: 'atomic' }, { description: 'The names of groups this user is a part of.' })),
    extra: opt(mapOf(4, Type.Array(Type.String()), { description: 'Any additional information provided by the authenticator.' })),
  }, { description: 'The information about a user needed by authorization.' });

  const TokenReviewSpec = object(`${P}.TokenReviewSpec`, {
    token: opt(str(1, { description: 'The opaque bearer token.' })),
    audiences: opt(stringList(2, { listType: 'atomic' }, { description: 'Identifiers of the resource server the token was presented to; the token must be valid for at least one of them. Empty means the API server itself.' })),
  }, { description: 'The token to authenticate.' });

  const TokenReviewStatus = object(`${P}.TokenReviewStatus`, {
    authenticated: opt(bool(1, { description: 'Whether the token can be associated with a known user.' })),
    user: opt(field(2, UserInfo, { description: 'The user the token belongs to.' })),
    audiences: opt(stringList(4, { listType: 'atomic' }, { description: 'The audiences, among those of the spec, the token is valid for; empty means the API server itself.' })),
    error: opt(str(3, { description: 'Why the token could not be checked (an error or an invalid token).' })),
  }, { description: 'The result of the token authentication request.' });

  const TokenReview = topLevel(`${P}.TokenReview`, {
    spec: field(2, TokenReviewSpec, { description: 'The bearer token to check, and the audiences it must be valid for.' }),
    status: opt(field(3, TokenReviewStatus, { description: 'Filled in by the server: whether the token authenticates, and as whom.' })),
  }, { required: ['spec'], description: 'Attempts to authenticate a token to a known user. Answered, never stored.' });

  const SelfSubjectReviewStatus = object(`${P}.SelfSubjectReviewStatus`, {
    userInfo: opt(field(1, UserInfo, { description: 'The user attributes of the requester.' })),
  }, { description: 'The user information of the requester.' });

  const SelfSubjectReview = topLevel(`${P}.SelfSubjectReview`, {
    status: opt(field(2, SelfSubjectReviewStatus, { description: 'Filled in by the server with the requester\'s user information.' })),
  }, { description: 'Returns the user attributes the server sees for the requester (kubectl auth whoami). Answered, never stored.' });
  return { UserInfo, TokenReview, SelfSubjectReview };
}

const v1 = reviewTypes('io.orch.api.authentication.v1');
export const { UserInfo, TokenReview, SelfSubjectReview } = v1;
export type UserInfo = Static<typeof UserInfo>;
export type TokenReview = Static<typeof TokenReview>;
export type SelfSubjectReview = Static<typeof SelfSubjectReview>;

/** The v1beta1 reviews: the same fields under v1beta1's own names. */
export const v1beta1 = reviewTypes('io.orch.api.authentication.v1beta1');

const P = 'io.orch.api.authentication.v1';

export const BoundObjectReference = object(`${P}.BoundObjectReference`, {
  kind: opt(str(1, { description: 'Kind of the referent: Pod or Secret.' })),
  apiVersion: opt(str(2, { description: 'API version of the referent.' })),
  name: opt(str(3, { description: 'Name of the referent.' })),
  uid: opt(str(4, { description: 'UID of the referent.' })),
}, { description: 'The object a token is bound to: the token stops working when it is deleted.' });

export const TokenRequestSpec = object(`${P}.TokenRequestSpec`, {
  audiences: stringList(1, { listType: 'atomic' }, { description: 'The intended audiences of the token; empty means the API server\'s own audiences.' }),
  expirationSeconds: opt(int64(4, { description: 'The requested duration of validity of the token; default one hour, at least ten minutes. The issuer may return a token with another validity.' })),
  boundObjectRef: opt(field(3, BoundObjectReference, { description: 'A reference to an object the token is bound to.' })),
}, { required: ['audiences'], description: 'The token requested.' });

export const TokenRequestStatus = object(`${P}.TokenRequestStatus`, {
  token: str(1, { description: 'The opaque bearer token.' }),
  expirationTimestamp: time(2, { description: 'The time the token expires.' }),
}, { required: ['token', 'expirationTimestamp'], description: 'The token issued.' });

export const TokenRequest = topLevel(`${P}.TokenRequest`, {
  spec: field(2, TokenRequestSpec, { description: 'What the token is for.' }),
  status: opt(field(3, TokenRequestStatus, { description: 'Filled in by the server with the token.' })),
}, { required: ['spec'], description: 'Requests a token for a service account (the serviceaccounts/token sub-resource). Answered, never stored.' });
export type TokenRequest = Static<typeof TokenRequest>;

