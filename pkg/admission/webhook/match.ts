// Whether a webhook is called for a request and as which resource and kind (upstream's
// ShouldCallHook): its rules against the request's own resource first; with matchPolicy
// Equivalent, then against the other groups and versions serving the same objects, the request
// then being converted to the kind of the first one a rule covers; finally its namespace and
// object selectors.
import type { ApiDomain } from '../../../api/domain.js';
import type { Logger } from '../../log/logger.js';
import { newForbidden, newInternalError } from '../../runtime/errors.js';
import { admissionActivation } from '../cel/request.js';
import type { Attributes, AuthorizeFunc, GroupVersionKind, GroupVersionResource, ObjectInterfaces, ObjectLister } from '../interfaces.js';
import { ruleMatches, type RuleTarget } from './rules.js';
import { matchNamespaceSelector, matchObjectSelector } from './selectors.js';
import type { WebhookAccessor } from './types.js';
import { versionedObjects } from './versioned-attributes.js';

/** A webhook to call, and the resource and kind the request is sent to it as. */
export interface WebhookInvocation {
  webhook: WebhookAccessor;
  resource: GroupVersionResource;
  subresource: string;
  kind: GroupVersionKind;
}

const sameResource = (a: GroupVersionResource, b: GroupVersionResource) => a.group === b.group && a.version === b.version && a.resource === b.resource;

/** Go's GroupVersionResource.String(). */
export const gvrString = (r: GroupVersionResource) => `${r.group}/${r.version}, Resource=${r.resource}`;

/** What matching reads besides the request: the served kinds, the namespaces, the authorizer for matchConditions. */
export interface MatchDeps {
  objects: ObjectInterfaces | undefined;
  namespaces: ObjectLister | undefined;
  authorize?: AuthorizeFunc | undefined;
  logger?: Logger | undefined;
}

/**
 * The invocation of `hook` for the request, or undefined when the webhook does not apply; throws a
 * StatusError (404 for a missing namespace, 403 when its matchConditions fail under policy Fail).
 */
export async function shouldCallHook(hook: WebhookAccessor, attrs: Attributes, deps: MatchDeps): Promise<WebhookInvocation | undefined> {
  const { objects, namespaces } = deps;
  const rules = hook.webhook.rules ?? [];
  const target: RuleTarget = { resource: attrs.resource, subresource: attrs.subresource, namespace: attrs.namespace, operation: attrs.operation };
  let invocation: WebhookInvocation | undefined;
  if (rules.some((r) => ruleMatches(r, target))) {
    invocation = { webhook: hook, resource: attrs.resource, subresource: attrs.subresource, kind: attrs.kind };
  } else if (hook.matchPolicy === 'Equivalent' && objects) {
    const equivalents = objects.equivalentResourcesFor(attrs.resource, attrs.subresource).filter((e) => !sameResource(e, attrs.resource));
    // Earlier rules win, as upstream honours them in order.
    outer: for (const rule of rules) {
      for (const resource of equivalents) {
        if (!ruleMatches(rule, { ...target, resource })) continue;
        const kind = objects.kindFor(resource, attrs.subresource);
        if (!kind) throw newInternalError(`unable to convert to ${gvrString(resource)}: unknown kind`);
        invocation = { webhook: hook, resource, subresource: attrs.subresource, kind };
        break outer;
      }
    }
  }
  if (!invocation) return undefined;
  if (!(await matchNamespaceSelector(hook.webhook.namespaceSelector, attrs, namespaces))) return undefined;
  if (!matchObjectSelector(hook.webhook.objectSelector, attrs.object, attrs.oldObject)) return undefined;
  const matcher = hook.matcher();
  if (!matcher.empty) {
    const v = versionedObjects(attrs, invocation.kind, objects);
    const result = await matcher.match(admissionActivation(attrs, invocation.resource, invocation.kind, v.object, v.oldObject, deps.authorize));
    if ('error' in result) {
      deps.logger?.warnText(`Failed evaluating match conditions, failing closed ${hook.name}: ${result.error}`);
      throw newForbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, attrs.name, result.error);
    }
    if (!result.matches) return undefined;
  }
  return invocation;
}

/**
 * The webhook configuration kinds themselves are never sent to webhooks, so a broken webhook can
 * always be removed (upstream's IsExemptAdmissionConfigurationResource).
 */
export function isExemptAdmissionConfigurationResource(attrs: Attributes, domain: ApiDomain): boolean {
  return attrs.kind.group === domain.group('admissionregistration')
    && ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'].includes(attrs.kind.kind);
}
