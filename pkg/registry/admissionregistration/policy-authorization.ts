// What writing a policy or a binding with parameters requires of its writer (upstream's authz.go
// of the validatingadmissionpolicy and validatingadmissionpolicybinding registries): a policy's
// writer must be allowed to `get` every object of its paramKind, a binding's writer to `get` the
// object its paramRef names; members of system:masters are trusted. Checked only once the object
// is otherwise valid, and reported as a Forbidden cause of a 422.
import { isDeepStrictEqual } from 'node:util';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../api/admissionregistration/v1/validating-admission-policy.js';
import { newInvalid } from '../../runtime/errors.js';
import { forbidden } from '../../runtime/field-errors.js';
import { MastersGroup, type UserInfo } from '../../runtime/user.js';

/** Whether `user` may `verb` the resource (apiVersion '*' for any), through the server's authorizers. */
export type AuthorizeResource = (user: UserInfo, check: { verb: string; apiGroup: string; apiVersion: string; resource: string; namespace: string; name: string }) => Promise<boolean>;

export interface PolicyAuthorizationDeps {
  group: string;
  authorize: AuthorizeResource;
  /** The resource serving `kind` in `group` ('' for core), or undefined when none does. */
  resourceFor(group: string, version: string, kind: string): string | undefined;
  /** The stored policy of that name, or undefined. */
  policy(name: string): Promise<ValidatingAdmissionPolicy | undefined>;
}

/** Go's `%v` of a *user.DefaultInfo, which is how upstream names the user in these refusals. */
function goUser(u: UserInfo): string {
  const extra = Object.keys(u.extra ?? {}).sort().map((k) => `${k}:[${u.extra[k]!.join(' ')}]`).join(' ');
  return `&{${u.name} ${u.uid ?? ''} [${u.groups.join(' ')}] map[${extra}]}`;
}

/** The group, version and resource a paramKind names; '*' where it cannot be told. */
function paramResource(deps: PolicyAuthorizationDeps, apiVersion: string | undefined, kind: string | undefined): { apiGroup: string; apiVersion: string; resource: string } {
  const parts = (apiVersion ?? '').split('/');
  if (parts.length > 2) return { apiGroup: '*', apiVersion: '*', resource: '*' };
  const [group, version] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['', parts[0]!];
  return { apiGroup: group, apiVersion: version, resource: deps.resourceFor(group, version, kind ?? '') ?? '*' };
}

const trusted = (user: UserInfo) => user.groups.includes(MastersGroup);

/** Throws 422 when `user` may not read every object of the policy's paramKind (checked when paramKind is new or changed). */
export async function checkPolicyWrite(deps: PolicyAuthorizationDeps, user: UserInfo, p: ValidatingAdmissionPolicy, old: ValidatingAdmissionPolicy | null): Promise<void> {
  const kind = p.spec?.paramKind;
  if (!kind || (old?.spec?.paramKind && isDeepStrictEqual(old.spec.paramKind, kind)) || trusted(user)) return;
  const r = paramResource(deps, kind.apiVersion, kind.kind);
  if (await deps.authorize(user, { verb: 'get', ...r, namespace: '*', name: '*' })) return;
  throw newInvalid('ValidatingAdmissionPolicy', deps.group, p.metadata?.name ?? '', [
    forbidden('spec.paramKind', `user ${goUser(user)} must have "get" permission on all objects of the referenced paramKind (kind=${kind.kind ?? ''}, apiVersion=${kind.apiVersion ?? ''})`),
  ]);
}

/** Throws 422 when `user` may not read the object the binding's paramRef names (checked when paramRef or policy is new or changed). */
export async function checkBindingWrite(deps: PolicyAuthorizationDeps, user: UserInfo, b: ValidatingAdmissionPolicyBinding, old: ValidatingAdmissionPolicyBinding | null): Promise<void> {
  const ref = b.spec?.paramRef;
  if (!ref || trusted(user)) return;
  if (old?.spec?.paramRef && isDeepStrictEqual(old.spec.paramRef, ref) && old.spec.policyName === b.spec?.policyName) return;
  const kind = (await deps.policy(b.spec?.policyName ?? ''))?.spec?.paramKind;
  const r = kind ? paramResource(deps, kind.apiVersion, kind.kind) : { apiGroup: '*', apiVersion: '*', resource: '*' };
  if (await deps.authorize(user, { verb: 'get', ...r, namespace: ref.namespace ?? '', name: ref.name ?? '' })) return;
  throw newInvalid('ValidatingAdmissionPolicyBinding', deps.group, b.metadata?.name ?? '', [
    forbidden('spec.paramRef', `user ${goUser(user)} does not have "get" permission on the object referenced by paramRef`),
  ]);
}
