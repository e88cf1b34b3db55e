// The values admission expressions read: `request` built as the AdmissionRequest a webhook would
// be sent (kind and resource as matched, requestKind/requestResource as the client sent them), the
// objects as CEL values, and `authorizer` bound to the requesting user.
import { CelAuthorizer } from '../../cel/library/authz.js';
import { jsonToCel } from '../../cel/values.js';
import type { Attributes, AuthorizeFunc, GroupVersionKind, GroupVersionResource } from '../interfaces.js';

/** The `request` variable (upstream's CreateAdmissionRequest). */
export function admissionRequest(attrs: Attributes, resource: GroupVersionResource, kind: GroupVersionKind): Record<string, unknown> {
  const u = attrs.userInfo;
  return {
    kind: { ...kind },
    resource: { ...resource },
    subResource: attrs.subresource,
    requestKind: { ...attrs.kind },
    requestResource: { ...attrs.resource },
    requestSubResource: attrs.subresource,
    name: attrs.name,
    namespace: attrs.namespace,
    operation: attrs.operation,
    userInfo: { username: u.name, uid: u.uid ?? '', groups: [...u.groups], extra: u.extra ?? {} },
    dryRun: attrs.dryRun,
    options: jsonToCel(attrs.options ?? null),
  };
}

/** The `authorizer` variable: checks as the requesting user through the server's authorizer. */
export function celAuthorizer(attrs: Attributes, authorize: AuthorizeFunc | undefined): CelAuthorizer {
  return new CelAuthorizer(attrs.userInfo, async (user, req) => {
    if (!authorize) return { allowed: false, reason: 'no authorizer' };
    // The server's authorizer callback speaks resource attributes only; a path check is not allowed.
    if (req.path !== undefined) return { allowed: false, reason: 'non-resource checks are not available to admission expressions here' };
    return authorize(user, {
      verb: req.verb, apiGroup: req.apiGroup, apiVersion: req.apiVersion === '*' ? '' : req.apiVersion, resource: req.resource,
      subresource: req.subresource, namespace: req.namespace, name: req.name,
    });
  }, {
    group: attrs.resource.group, version: attrs.resource.version, resource: attrs.resource.resource,
    subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name,
  });
}

/** The variables every admission expression sees. */
export function admissionActivation(attrs: Attributes, resource: GroupVersionResource, kind: GroupVersionKind, object: unknown, oldObject: unknown, authorize: AuthorizeFunc | undefined): Record<string, unknown> {
  return {
    object: jsonToCel(object ?? null),
    oldObject: jsonToCel(oldObject ?? null),
    request: admissionRequest(attrs, resource, kind),
    authorizer: celAuthorizer(attrs, authorize),
  };
}
