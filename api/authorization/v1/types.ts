// authorization.<domain>/v1: the access reviews (spec 5.10). None is stored: the server answers
// a create by asking its authorizers (SubjectAccessReview, LocalSubjectAccessReview,
// SelfSubjectAccessReview) or its rule resolvers (SelfSubjectRulesReview) and returns the review
// with its status filled in. Fields and protobuf numbers follow upstream's authorization/v1 at the
// API level we serve (1.30, before ResourceAttributes gained field and label selectors).
import { Type, type Static } from '@sinclair/typebox';
import { bool, field, list, mapOf, object, opt, str, stringList } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.authorization.v1';

export const ResourceAttributes = object(`${P}.ResourceAttributes`, {
  namespace: opt(str(1, { description: 'The namespace of the action asked about. Empty means every namespace for a namespaced resource and nothing for a cluster-scoped one; a LocalSubjectAccessReview must name its own namespace.' })),
  verb: opt(str(2, { description: 'The API verb asked about (get, list, watch, create, update, patch, delete, deletecollection, or a special verb such as impersonate); "*" means every verb.' })),
  group: opt(str(3, { description: 'The API group of the resource; "*" means every group.' })),
  version: opt(str(4, { description: 'The API version of the resource; "*" (also what empty means) is every version.' })),
  resource: opt(str(5, { description: 'The resource (plural name) asked about; "*" means every resource.' })),
  subresource: opt(str(6, { description: 'The sub-resource asked about; empty means the resource itself.' })),
  name: opt(str(7, { description: 'The name of the object asked about; empty means every object.' })),
}, { description: 'A request on an API resource, described by the attributes an authorizer decides on.' });

export const NonResourceAttributes = object(`${P}.NonResourceAttributes`, {
  path: opt(str(1, { description: 'The URL path asked about, e.g. /healthz.' })),
  verb: opt(str(2, { description: 'The lower-case HTTP method asked about, e.g. get.' })),
}, { description: 'A request on a path that is not an API resource (health, metrics, discovery), described by its path and method.' });

const resourceAttributes = (description: string) => opt(field(1, ResourceAttributes, { description }));
const nonResourceAttributes = (description: string) => opt(field(2, NonResourceAttributes, { description }));

export const SubjectAccessReviewSpec = object(`${P}.SubjectAccessReviewSpec`, {
  resourceAttributes: resourceAttributes('The resource request asked about. Exactly one of resourceAttributes and nonResourceAttributes is set.'),
  nonResourceAttributes: nonResourceAttributes('The non-resource request asked about. Exactly one of resourceAttributes and nonResourceAttributes is set.'),
  user: opt(str(3, { description: 'The user asked about. A user without groups is checked as a member of no group at all.' })),
  groups: opt(stringList(4, { listType: 'atomic' }, { description: 'The groups asked about. At least one of user and groups is set.' })),
  extra: opt(mapOf(5, Type.Array(Type.String()), { description: 'The extra attributes of the user asked about, as an authenticator would have given them; some authorizers decide on them.' })),
  uid: opt(str(6, { description: 'The uid of the user asked about.' })),
}, { description: 'The access asked about: one request and the subject who would make it.' });

export const SelfSubjectAccessReviewSpec = object(`${P}.SelfSubjectAccessReviewSpec`, {
  resourceAttributes: resourceAttributes('The resource request asked about. Exactly one of resourceAttributes and nonResourceAttributes is set.'),
  nonResourceAttributes: nonResourceAttributes('The non-resource request asked about. Exactly one of resourceAttributes and nonResourceAttributes is set.'),
}, { description: 'The access asked about on the requester\'s own behalf: one request, no subject.' });

export const SubjectAccessReviewStatus = object(`${P}.SubjectAccessReviewStatus`, {
  allowed: opt(bool(1, { 'x-orch-emit': 'always', description: 'True when the request would be allowed.' })),
  denied: opt(bool(4, { description: 'True when an authorizer explicitly denied the request. Neither allowed nor denied means no authorizer had an opinion; both are never true.' })),
  reason: opt(str(2, { description: 'Why the request would be allowed or denied, as the deciding authorizer put it.' })),
  evaluationError: opt(str(3, { description: 'An error met while deciding. A decision may still have been reached despite it, e.g. when RBAC finds a binding to a missing role but another binding allows.' })),
}, { description: 'The answer to an access review.' });

export const SubjectAccessReview = topLevel(`${P}.SubjectAccessReview`, {
  spec: field(2, SubjectAccessReviewSpec, { description: 'The request to check and the subject to check it for.' }),
  status: opt(field(3, SubjectAccessReviewStatus, { 'x-orch-emit': 'always', description: 'Filled in by the server: whether the request would be allowed.' })),
}, { required: ['spec'], description: 'Asks whether a given user or group may perform an action. Answered, never stored.' });

export const SelfSubjectAccessReview = topLevel(`${P}.SelfSubjectAccessReview`, {
  spec: field(2, SelfSubjectAccessReviewSpec, { description: 'The request to check for the requester.' }),
  status: opt(field(3, SubjectAccessReviewStatus, { 'x-orch-emit': 'always', description: 'Filled in by the server: whether the requester may make the request.' })),
}, { required: ['spec'], description: 'Asks whether the requester may perform an action (kubectl auth can-i). Everyone may ask about themselves. Answered, never stored.' });

export const LocalSubjectAccessReview = topLevel(`${P}.LocalSubjectAccessReview`, {
  spec: field(2, SubjectAccessReviewSpec, { description: 'The request to check and the subject to check it for; spec.resourceAttributes.namespace must be the namespace the review is sent to, and only resource requests may be asked about.' }),
  status: opt(field(3, SubjectAccessReviewStatus, { 'x-orch-emit': 'always', description: 'Filled in by the server: whether the request would be allowed.' })),
}, { required: ['spec'], description: 'Asks whether a given user or group may perform an action in one namespace; being namespaced, the right to ask can be granted per namespace. Answered, never stored.' });

export const ResourceRule = object(`${P}.ResourceRule`, {
  verbs: stringList(1, { listType: 'atomic' }, { description: 'The API verbs allowed; "*" means every verb.' }),
  apiGroups: opt(stringList(2, { listType: 'atomic' }, { description: 'The API groups of the resources; a resource of any of them is covered. "*" means every group.' })),
  resources: opt(stringList(3, { listType: 'atomic' }, { description: 'The resources covered; "*" means every resource of the groups, "*/foo" the sub-resource foo of each.' })),
  resourceNames: opt(stringList(4, { listType: 'atomic' }, { description: 'The object names the rule is limited to; empty means every name.' })),
}, { description: 'Actions the subject may perform on resources. Rules may overlap or repeat.' });

export const NonResourceRule = object(`${P}.NonResourceRule`, {
  verbs: stringList(1, { listType: 'atomic' }, { description: 'The lower-case HTTP methods allowed; "*" means every method.' }),
  nonResourceURLs: opt(stringList(2, { listType: 'atomic' }, { description: 'The paths covered; a trailing "*" matches every path with that prefix, and "*" every path.' })),
}, { description: 'Actions the subject may perform on paths that are not API resources.' });

export const SelfSubjectRulesReviewSpec = object(`${P}.SelfSubjectRulesReviewSpec`, {
  namespace: opt(str(1, { description: 'The namespace to list the rules in. Required.' })),
}, { description: 'Where to list the requester\'s rules.' });

export const SubjectRulesReviewStatus = object(`${P}.SubjectRulesReviewStatus`, {
  resourceRules: opt(list(1, ResourceRule, { listType: 'atomic' }, { 'x-orch-emit': 'always', description: 'What the subject may do on resources. Order is not significant; the list may repeat rules, and may be incomplete.' })),
  nonResourceRules: opt(list(2, NonResourceRule, { listType: 'atomic' }, { 'x-orch-emit': 'always', description: 'What the subject may do on other paths. Order is not significant; the list may repeat rules, and may be incomplete.' })),
  incomplete: opt(bool(3, { 'x-orch-emit': 'always', description: 'True when the lists may leave rules out, most often because an authorizer (such as a webhook) cannot list its rules.' })),
  evaluationError: opt(str(4, { description: 'An error met while listing the rules, e.g. an authorizer that cannot list them; the lists may then be incomplete.' })),
}, { description: 'The rules a subject holds. Rules only ever add permissions, so whatever is listed is allowed, even when the list is incomplete.' });

export const SelfSubjectRulesReview = topLevel(`${P}.SelfSubjectRulesReview`, {
  spec: field(2, SelfSubjectRulesReviewSpec, { description: 'The namespace to list the rules in.' }),
  status: opt(field(3, SubjectRulesReviewStatus, { 'x-orch-emit': 'always', description: 'Filled in by the server with the rules the requester holds.' })),
}, { required: ['spec'], description: 'Lists what the requester may do in a namespace (kubectl auth can-i --list). The list may be incomplete, depending on the authorizers; use it to show or hide actions, never to make authorization decisions on the server\'s behalf. Answered, never stored.' });

export type SubjectAccessReview = Static<typeof SubjectAccessReview>;
export type SelfSubjectAccessReview = Static<typeof SelfSubjectAccessReview>;
export type LocalSubjectAccessReview = Static<typeof LocalSubjectAccessReview>;
export type SelfSubjectRulesReview = Static<typeof SelfSubjectRulesReview>;
export type SubjectAccessReviewSpec = Static<typeof SubjectAccessReviewSpec>;
