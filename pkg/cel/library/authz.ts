// Kubernetes' authorizer library (library/authz.go): `authorizer` answers whether the requesting
// user (or a service account) may do something, through the server's authorizer. Checks are
// asynchronous, so an expression that calls check() evaluates to a promise.
import type { Environment } from '@marcbachmann/cel-js';
import type { UserInfo } from '../../runtime/user.js';

/** What the library asks of the server's authorizer (the attributes of upstream's authorizer.Attributes). */
export interface AuthorizationRequest {
  verb: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** Set for a non-resource (path) check. */
  path?: string;
}

/** The server's answer: allowed, the reason, and an evaluation error if deciding failed. */
export interface AuthorizationDecision {
  allowed: boolean;
  reason?: string;
  evaluationError?: string;
}

export type AuthorizeAs = (user: UserInfo, request: AuthorizationRequest) => Promise<AuthorizationDecision>;

/** The `authorizer` variable: checks as `user`; `requestResource` the request's own resource. */
export class CelAuthorizer {
  readonly requestResource: ResourceCheck | undefined;
  constructor(readonly user: UserInfo, readonly authorize: AuthorizeAs, requestResource?: Omit<ResourceCheckFields, 'authz'>) {
    this.requestResource = requestResource ? new ResourceCheck({ ...requestResource, authz: this }) : undefined;
  }
}

class GroupCheck {
  constructor(readonly authz: CelAuthorizer, readonly group: string) {}
}

interface ResourceCheckFields {
  authz: CelAuthorizer;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

class ResourceCheck {
  constructor(readonly f: ResourceCheckFields) {}
  with(change: Partial<ResourceCheckFields>): ResourceCheck {
    return new ResourceCheck({ ...this.f, ...change });
  }
}

class PathCheck {
  constructor(readonly authz: CelAuthorizer, readonly path: string) {}
}

class Decision {
  constructor(readonly d: AuthorizationDecision) {}
}

async function decide(authz: CelAuthorizer, req: AuthorizationRequest): Promise<Decision> {
  try {
    return new Decision(await authz.authorize(authz.user, req));
  } catch (e) {
    return new Decision({ allowed: false, evaluationError: (e as Error).message });
  }
}

/** Registers the authorizer types and functions on `env` (the variable itself is declared by the caller). */
export function registerAuthz(env: Environment): void {
  const A = 'kubernetes.authorization.Authorizer';
  const G = 'kubernetes.authorization.GroupCheck';
  const R = 'kubernetes.authorization.ResourceCheck';
  const P = 'kubernetes.authorization.PathCheck';
  const D = 'kubernetes.authorization.Decision';
  env.registerType(G, GroupCheck);
  env.registerType(R, ResourceCheck);
  env.registerType(P, PathCheck);
  env.registerType(D, Decision);
  env.registerType(A, { ctor: CelAuthorizer, fields: { requestResource: R } });
  env.registerFunction(`${A}.group(string): ${G}`, (a: CelAuthorizer, g: string) => new GroupCheck(a, g));
  env.registerFunction(`${A}.path(string): ${P}`, (a: CelAuthorizer, p: string) => new PathCheck(a, p));
  env.registerFunction(`${A}.serviceAccount(string, string): ${A}`, (a: CelAuthorizer, ns: string, name: string) => new CelAuthorizer({
    name: `system:serviceaccount:${ns}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
    extra: {},
  }, a.authorize));
  env.registerFunction(`${G}.resource(string): ${R}`, (g: GroupCheck, r: string) => new ResourceCheck({ authz: g.authz, group: g.group, version: '*', resource: r, subresource: '', namespace: '', name: '' }));
  env.registerFunction(`${R}.subresource(string): ${R}`, (r: ResourceCheck, s: string) => r.with({ subresource: s }));
  env.registerFunction(`${R}.namespace(string): ${R}`, (r: ResourceCheck, s: string) => r.with({ namespace: s }));
  env.registerFunction(`${R}.name(string): ${R}`, (r: ResourceCheck, s: string) => r.with({ name: s }));
  env.registerFunction(`${R}.check(string): ${D}`, (r: ResourceCheck, verb: string) => decide(r.f.authz, {
    verb, apiGroup: r.f.group, apiVersion: r.f.version, resource: r.f.resource, subresource: r.f.subresource, namespace: r.f.namespace, name: r.f.name,
  }));
  env.registerFunction(`${P}.check(string): ${D}`, (p: PathCheck, verb: string) => decide(p.authz, {
    verb, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '', path: p.path,
  }));
  env.registerFunction(`${D}.allowed(): bool`, (d: Decision) => d.d.allowed);
  env.registerFunction(`${D}.reason(): string`, (d: Decision) => d.d.reason ?? '');
  env.registerFunction(`${D}.errored(): bool`, (d: Decision) => d.d.evaluationError !== undefined && d.d.evaluationError !== '');
  env.registerFunction(`${D}.error(): string`, (d: Decision) => d.d.evaluationError ?? '');
}
