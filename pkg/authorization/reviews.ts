// The access review APIs (authorization.<domain>/v1), answered as upstream's registry answers them
// (pkg/registry/authorization, kube-apiserver 1.30): SubjectAccessReview and
// LocalSubjectAccessReview ask the authorizer about any subject, SelfSubjectAccessReview about the
// requester, SelfSubjectRulesReview lists the requester's rules. None is stored.
import { formatTime } from '../../api/meta/v1/primitives.js';
import type { VirtualHandler, VirtualRequest } from '../endpoints/resource-handlers.js';
import { newBadRequest, newInvalid } from '../runtime/errors.js';
import { invalid, type FieldError } from '../runtime/field-errors.js';
import type { UserInfo } from '../runtime/user.js';
import type { StoredObject } from '../storage/interface.js';
import { nonResourceAttributes, resourceAttributes, type Attributes } from './attributes.js';
import type { Authorizer, Decision, RuleResolver } from './authorizer.js';

interface ResourceAttributesSpec {
  namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string;
}
interface NonResourceAttributesSpec {
  path?: string; verb?: string;
}
interface ReviewSpec {
  resourceAttributes?: ResourceAttributesSpec;
  nonResourceAttributes?: NonResourceAttributesSpec;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

/** How upstream prints a nil pointer as a field error's value. */
const nilValue = 'null';

/** Upstream's Semantic.DeepEqual against a zero ObjectMeta: nothing set but zero values (managedFields ignored). */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).every(isZero);
  return false;
}

function metadataIsEmpty(metadata: Record<string, unknown>, except: readonly string[] = []): boolean {
  return Object.entries(metadata).every(([k, v]) => k === 'managedFields' || except.includes(k) || isZero(v));
}

/** Exactly one of resourceAttributes and nonResourceAttributes (both review specs share the rule). */
function attributesErrors(spec: ReviewSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errs.push(invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    // Upstream names resourceAttributes but shows the (nil) nonResourceAttributes as the value.
    errs.push(invalid('spec.resourceAttributes', nilValue, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  return errs;
}

function subjectErrors(spec: ReviewSpec): FieldError[] {
  const errs = attributesErrors(spec);
  if (!spec.user && (spec.groups ?? []).length === 0) errs.push(invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  return errs;
}

/** The attributes a review asks about, as upstream's authorizationutil builds them: an empty version means every version. */
function reviewAttributes(user: UserInfo, spec: ReviewSpec): Attributes {
  const r = spec.resourceAttributes;
  if (!r) return nonResourceAttributes(user, spec.nonResourceAttributes?.verb ?? '', spec.nonResourceAttributes?.path ?? '');
  return resourceAttributes(user, {
    verb: r.verb ?? '',
    apiGroup: r.group ?? '',
    apiVersion: r.version || '*',
    resource: r.resource ?? '',
    subresource: r.subresource ?? '',
    namespace: r.namespace ?? '',
    name: r.name ?? '',
  });
}

/** The user a SubjectAccessReview asks about: exactly what the spec says, nothing added. */
function specUser(spec: ReviewSpec): UserInfo {
  return { name: spec.user ?? '', ...(spec.uid ? { uid: spec.uid } : {}), groups: [...(spec.groups ?? [])], extra: { ...(spec.extra ?? {}) } };
}

/** Upstream's mapping of a decision onto the review's status. */
function accessStatus(d: Decision): Record<string, unknown> {
  return {
    allowed: d.decision === 'allow',
    ...(d.decision === 'deny' ? { denied: true } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.evaluationError ? { evaluationError: d.evaluationError } : {}),
  };
}

async function decide(authorizer: Authorizer, a: Attributes): Promise<Decision> {
  try {
    return await authorizer.authorize(a);
  } catch (e) {
    return { decision: 'noOpinion', reason: '', evaluationError: e instanceof Error ? e.message : String(e) };
  }
}

function answered(obj: StoredObject, metadata: StoredObject['metadata'], status: Record<string, unknown>): StoredObject {
  return { ...obj, metadata: { ...metadata, creationTimestamp: formatTime(new Date()) }, status };
}

/** A cluster-scoped kind sent with a namespace has it cleared, as upstream's create handler does. */
function clusterMetadata(obj: StoredObject): StoredObject['metadata'] {
  const { namespace: _ignored, ...rest } = obj.metadata ?? {};
  return rest as StoredObject['metadata'];
}

/**
 * SubjectAccessReview: may this user/groups perform this action? 422 (in upstream's wording, the
 * kind left empty as upstream's decoded object has it) when the spec names no request or no
 * subject, or metadata is set.
 */
export function subjectAccessReviewHandler(authorizer: Authorizer, group: string): VirtualHandler {
  return async ({ obj }) => {
    const spec = (obj.spec ?? {}) as ReviewSpec;
    const metadata = clusterMetadata(obj);
    const errs = subjectErrors(spec);
    if (!metadataIsEmpty(metadata)) errs.push(invalid('metadata', metadata, 'must be empty'));
    if (errs.length > 0) throw newInvalid('', group, '', errs);
    return answered(obj, metadata, accessStatus(await decide(authorizer, reviewAttributes(specUser(spec), spec))));
  };
}

/**
 * LocalSubjectAccessReview: a SubjectAccessReview confined to the namespace it is sent to. The
 * object takes the path's namespace (400 when it names another); the spec's resource namespace
 * must equal it, and non-resource requests cannot be asked about (422).
 */
export function localSubjectAccessReviewHandler(authorizer: Authorizer, group: string): VirtualHandler {
  return async ({ obj, namespace }: VirtualRequest) => {
    const objNamespace = obj.metadata?.namespace;
    if (objNamespace && objNamespace !== namespace) {
      throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const metadata = { ...(obj.metadata ?? {}), namespace } as StoredObject['metadata'];
    const spec = (obj.spec ?? {}) as ReviewSpec;
    const errs = subjectErrors(spec);
    if (!metadataIsEmpty(metadata, ['namespace'])) errs.push(invalid('metadata', metadata, 'must be empty except for namespace'));
    if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== namespace) {
      errs.push(invalid('spec.resourceAttributes.namespace', spec.resourceAttributes.namespace ?? '', 'must match metadata.namespace'));
    }
    if (spec.nonResourceAttributes) errs.push(invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'disallowed on this kind of request'));
    if (errs.length > 0) throw newInvalid('', group, '', errs);
    if (!namespace) throw newBadRequest(`namespace is required on this type: ${namespace}`);
    return answered(obj, metadata, accessStatus(await decide(authorizer, reviewAttributes(specUser(spec), spec))));
  };
}

/**
 * SelfSubjectAccessReview: may the requester perform this action? Asked as the user the request
 * was authenticated (or impersonated) as; the spec has no subject fields to override that.
 */
export function selfSubjectAccessReviewHandler(authorizer: Authorizer, group: string): VirtualHandler {
  return async ({ obj, user }) => {
    const spec = (obj.spec ?? {}) as ReviewSpec;
    const metadata = clusterMetadata(obj);
    const errs = attributesErrors(spec);
    if (!metadataIsEmpty(metadata)) errs.push(invalid('metadata', metadata, 'must be empty'));
    if (errs.length > 0) throw newInvalid('', group, '', errs);
    if (!user) throw newBadRequest('no user present on request');
    const own: ReviewSpec = { ...(spec.resourceAttributes ? { resourceAttributes: spec.resourceAttributes } : { nonResourceAttributes: spec.nonResourceAttributes }) };
    return answered(obj, metadata, accessStatus(await decide(authorizer, reviewAttributes(user, own))));
  };
}

/**
 * SelfSubjectRulesReview: the requester's rules in spec.namespace (400 without one). As upstream,
 * the answer is a new review holding only the status: the spec and metadata sent are not echoed.
 */
export function selfSubjectRulesReviewHandler(resolver: RuleResolver): VirtualHandler {
  return async ({ obj, user }) => {
    if (!user) throw newBadRequest('no user present on request');
    const namespace = ((obj.spec ?? {}) as { namespace?: string }).namespace ?? '';
    if (!namespace) throw newBadRequest('no namespace on request');
    let rules;
    try {
      rules = await resolver.rulesFor(user, namespace);
    } catch (e) {
      rules = { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: e instanceof Error ? e.message : String(e) };
    }
    const status = {
      resourceRules: rules.resourceRules.map((r) => ({
        verbs: [...r.verbs],
        ...(r.apiGroups.length > 0 ? { apiGroups: [...r.apiGroups] } : {}),
        ...(r.resources.length > 0 ? { resources: [...r.resources] } : {}),
        ...(r.resourceNames.length > 0 ? { resourceNames: [...r.resourceNames] } : {}),
      })),
      nonResourceRules: rules.nonResourceRules.map((r) => ({ verbs: [...r.verbs], ...(r.nonResourceURLs.length > 0 ? { nonResourceURLs: [...r.nonResourceURLs] } : {}) })),
      incomplete: rules.incomplete,
      ...(rules.evaluationError ? { evaluationError: rules.evaluationError } : {}),
    };
    return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { creationTimestamp: formatTime(new Date()) }, spec: {}, status } as StoredObject;
  };
}

/** The four review handlers keyed as the API handler looks them up (`<group>/<resource>`). */
export function accessReviewHandlers(authorizer: Authorizer, resolver: RuleResolver, group: string): Map<string, VirtualHandler> {
  return new Map([
    [`${group}/subjectaccessreviews`, subjectAccessReviewHandler(authorizer, group)],
    [`${group}/localsubjectaccessreviews`, localSubjectAccessReviewHandler(authorizer, group)],
    [`${group}/selfsubjectaccessreviews`, selfSubjectAccessReviewHandler(authorizer, group)],
    [`${group}/selfsubjectrulesreviews`, selfSubjectRulesReviewHandler(resolver)],
  ]);
}
