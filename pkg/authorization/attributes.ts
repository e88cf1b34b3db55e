// What an authorizer decides on: upstream's authorizer.Attributes, built from the request's
// RequestInfo and the authenticated user; plus the attributes of the further checks that ask
// about other verbs than the request's own (impersonate, bind, escalate, approve/sign, use).
import type { RequestInfo } from '../endpoints/request-info.js';
import { requiredExactMatch } from '../runtime/field-selector.js';
import type { UserInfo } from '../runtime/user.js';

export interface Attributes {
  /** The requester; undefined when no authentication ran (upstream's nil user). */
  user: UserInfo | undefined;
  verb: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
  /** True for /api and /apis resource paths; false for every other path (/healthz, /metrics, discovery). */
  isResourceRequest: boolean;
  /** The request path without the query; what non-resource rules match. */
  path: string;
}

/**
 * The attributes of a request, as upstream's GetAuthorizerAttributes reads them. A non-resource
 * request carries only its verb and path: upstream's RequestInfo never gives one a group or
 * version (ours reads them off discovery paths such as /apis/apps/v1), and a 403 names them.
 * A list or watch whose field selector requires one `metadata.name` is asked about that name, as
 * upstream's RequestInfoFactory names it: so a rule limited to names, or a node allowed one
 * secret, covers watching that one object.
 */
export function attributesFrom(info: RequestInfo, user: UserInfo | undefined): Attributes {
  if (!info.isResourceRequest) return nonResourceAttributes(user, info.verb, info.path);
  return {
    user,
    verb: info.verb,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name || selectedName(info),
    isResourceRequest: info.isResourceRequest,
    path: info.path,
  };
}

/** The name a list or watch selects with `fieldSelector=metadata.name=<name>`, when it is a valid path segment; else ''. */
function selectedName(info: RequestInfo): string {
  if (info.verb !== 'list' && info.verb !== 'watch') return '';
  const selector = info.query.get('fieldSelector');
  const name = selector ? requiredExactMatch(selector, 'metadata.name') : undefined;
  if (!name || name === '.' || name === '..' || name.includes('/') || name.includes('%')) return '';
  return name;
}

/** get, list and watch change nothing. */
export function isReadOnly(a: Attributes): boolean {
  return a.verb === 'get' || a.verb === 'list' || a.verb === 'watch';
}

/** The parts of a resource check; everything left out is empty. */
export interface ResourceCheck {
  verb: string;
  apiGroup?: string;
  apiVersion?: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** The attributes of a resource check made on the user's behalf (not read off a request). */
export function resourceAttributes(user: UserInfo | undefined, c: ResourceCheck): Attributes {
  return {
    user,
    verb: c.verb,
    namespace: c.namespace ?? '',
    apiGroup: c.apiGroup ?? '',
    apiVersion: c.apiVersion ?? '',
    resource: c.resource,
    subresource: c.subresource ?? '',
    name: c.name ?? '',
    isResourceRequest: true,
    path: '',
  };
}

/** The attributes of a non-resource check, e.g. `get` on `/healthz`. */
export function nonResourceAttributes(user: UserInfo | undefined, verb: string, path: string): Attributes {
  return { user, verb, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', isResourceRequest: false, path };
}

/** Whom an Impersonate-* header asks to act as. */
export type ImpersonationTarget =
  | { kind: 'User'; name: string }
  | { kind: 'Group'; name: string }
  | { kind: 'ServiceAccount'; namespace: string; name: string }
  | { kind: 'UID'; uid: string }
  | { kind: 'UserExtra'; key: string; value: string };

/**
 * The `impersonate` check of one impersonation target, as upstream's impersonation filter builds
 * it: users, groups and serviceaccounts in the core group with no version (upstream's object
 * references for them carry none, and a webhook sees that); uids and userextras (the extra key as
 * the sub-resource, the value as the name) in authentication.<domain>/v1.
 * `authenticationGroup` is that group for our domain (`domain.group('authentication')`).
 */
export function impersonateAttributes(requester: UserInfo | undefined, target: ImpersonationTarget, authenticationGroup: string): Attributes {
  const verb = 'impersonate';
  const authn = { verb, apiGroup: authenticationGroup, apiVersion: 'v1' };
  switch (target.kind) {
    case 'User':
      return resourceAttributes(requester, { verb, resource: 'users', name: target.name });
    case 'Group':
      return resourceAttributes(requester, { verb, resource: 'groups', name: target.name });
    case 'ServiceAccount':
      return resourceAttributes(requester, { verb, resource: 'serviceaccounts', namespace: target.namespace, name: target.name });
    case 'UID':
      return resourceAttributes(requester, { ...authn, resource: 'uids', name: target.uid });
    case 'UserExtra':
      return resourceAttributes(requester, { ...authn, resource: 'userextras', subresource: target.key, name: target.value });
  }
}

/**
 * The `bind` check of RBAC's escalation rule: may the user bind the role a binding refers to, in
 * the binding's namespace ('' for a ClusterRoleBinding)? Undefined for a roleRef kind upstream
 * does not recognise (which upstream answers with "not authorized").
 */
export function bindAttributes(user: UserInfo | undefined, bindingNamespace: string, roleRef: { apiGroup: string; kind: string; name: string }): Attributes | undefined {
  const resource = roleRef.kind === 'ClusterRole' ? 'clusterroles' : roleRef.kind === 'Role' ? 'roles' : undefined;
  if (!resource) return undefined;
  return resourceAttributes(user, { verb: 'bind', apiGroup: roleRef.apiGroup, resource, namespace: bindingNamespace, name: roleRef.name });
}

/**
 * The `escalate` check of RBAC's escalation rule: may the user write a role granting more than
 * they hold? Asked about the role being written (the request's group, resource, namespace and
 * name), any version.
 */
export function escalateAttributes(user: UserInfo | undefined, info: Pick<RequestInfo, 'apiGroup' | 'resource' | 'namespace' | 'name'>): Attributes {
  return resourceAttributes(user, { verb: 'escalate', apiGroup: info.apiGroup, apiVersion: '*', resource: info.resource, namespace: info.namespace, name: info.name });
}

/**
 * The checks of a signer permission (`approve` a CertificateSigningRequest, `sign` its status):
 * first the signer by name, then the wildcard of its domain (`example.com/*`); either allowing is
 * enough. `certificatesGroup` is `domain.group('certificates')`.
 */
export function signerAttributes(user: UserInfo | undefined, verb: string, signerName: string, certificatesGroup: string): [Attributes, Attributes] {
  const check = (name: string) => resourceAttributes(user, { verb, apiGroup: certificatesGroup, apiVersion: '*', resource: 'signers', name });
  return [check(signerName), check(`${signerName.split('/')[0]}/*`)];
}

/** The `use` check of a named policy object (e.g. a policy a pod or binding refers to). */
export function useAttributes(user: UserInfo | undefined, target: { apiGroup: string; resource: string; namespace?: string; name: string }): Attributes {
  return resourceAttributes(user, { verb: 'use', ...target });
}
