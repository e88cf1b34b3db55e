// The user a service account token stands for (spec 5.5.2; upstream
// k8s.io/apiserver/pkg/authentication/serviceaccount): system:serviceaccount:<ns>:<name>, in
// system:serviceaccounts and system:serviceaccounts:<ns>, with the bound pod, node and credential
// id as extra.
import type { UserInfo } from '../../runtime/user.js';
import type { ServiceAccountNames } from './names.js';

export const ServiceAccountUsernamePrefix = 'system:serviceaccount:';
export const AllServiceAccountsGroup = 'system:serviceaccounts';
export const ServiceAccountGroupPrefix = 'system:serviceaccounts:';

/** `system:serviceaccount:<namespace>:<name>`. */
export function makeUsername(namespace: string, name: string): string {
  return `${ServiceAccountUsernamePrefix}${namespace}:${name}`;
}

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Namespace and name of a service account username, or undefined when it is not a valid one. */
export function splitUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(ServiceAccountUsernamePrefix)) return undefined;
  const parts = username.slice(ServiceAccountUsernamePrefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (namespace.length > 63 || !dnsLabel.test(namespace)) return undefined;
  if (name.length > 253 || !dnsSubdomain.test(name)) return undefined;
  return { namespace, name };
}

/** The groups of every service account of a namespace. */
export function makeGroupNames(namespace: string): string[] {
  return [AllServiceAccountsGroup, `${ServiceAccountGroupPrefix}${namespace}`];
}

/** What a validated token says about its account and what it is bound to. */
export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName?: string;
  podUID?: string;
  nodeName?: string;
  nodeUID?: string;
  /** `JTI=<jti>` for tokens with an id. */
  credentialId?: string;
}

/** The user of a service account token; extra only for what the token carries. */
export function serviceAccountUser(sa: ServiceAccountInfo, names: ServiceAccountNames): UserInfo {
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUID) {
    extra[names.extra.podName] = [sa.podName];
    extra[names.extra.podUID] = [sa.podUID];
  }
  if (sa.credentialId) extra[names.extra.credentialId] = [sa.credentialId];
  if (sa.nodeName) {
    extra[names.extra.nodeName] = [sa.nodeName];
    if (sa.nodeUID) extra[names.extra.nodeUID] = [sa.nodeUID];
  }
  const user: UserInfo = { name: makeUsername(sa.namespace, sa.name), groups: makeGroupNames(sa.namespace), extra };
  if (sa.uid) user.uid = sa.uid;
  return user;
}

/** The credential id of a token id, as upstream's CredentialIDForJTI. */
export function credentialIdForJTI(jti: string): string | undefined {
  return jti === '' ? undefined : `JTI=${jti}`;
}
