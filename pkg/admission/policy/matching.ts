// Whether a policy's matchConstraints, or a binding's matchResources, cover a request (upstream's
// policy/matching Matcher): namespace and object selectors, then excludeResourceRules, then
// resourceRules (by resource, operation and scope as a webhook's rules, narrowed to names when a
// rule lists resourceNames; no rules covers everything), with matchPolicy Equivalent also trying
// the other groups and versions serving the same objects. A selector that cannot be evaluated (the
// request's namespace does not exist) fails the request only when the rules cover it.
import type { MatchResources, NamedRuleWithOperations } from '../../../api/admissionregistration/v1/validating-admission-policy.js';
import { newInternalError } from '../../runtime/errors.js';
import type { Attributes, GroupVersionKind, GroupVersionResource, ObjectInterfaces, ObjectLister } from '../interfaces.js';
import { gvrString } from '../webhook/match.js';
import { ruleMatches, type RuleTarget } from '../webhook/rules.js';
import { matchNamespaceSelector, matchObjectSelector } from '../webhook/selectors.js';

export interface PolicyMatchDeps {
  objects: ObjectInterfaces | undefined;
  namespaces: ObjectLister | undefined;
}

/** The resource and kind the request matched as (an equivalent one under matchPolicy Equivalent). */
export type ResourceMatch = { matches: false } | { matches: true; resource: GroupVersionResource; kind: GroupVersionKind };

const sameResource = (a: GroupVersionResource, b: GroupVersionResource) => a.group === b.group && a.version === b.version && a.resource === b.resource;

const namesMatch = (rule: NamedRuleWithOperations, name: string) => (rule.resourceNames ?? []).length === 0 || rule.resourceNames!.includes(name);

function matchesRules(rules: readonly NamedRuleWithOperations[], matchPolicy: string | undefined, attrs: Attributes, objects: ObjectInterfaces | undefined): ResourceMatch {
  const target: RuleTarget = { resource: attrs.resource, subresource: attrs.subresource, namespace: attrs.namespace, operation: attrs.operation };
  for (const rule of rules) {
    if (ruleMatches(rule, target) && namesMatch(rule, attrs.name)) return { matches: true, resource: attrs.resource, kind: attrs.kind };
  }
  if (matchPolicy !== 'Equivalent' || !objects) return { matches: false };
  const equivalents = objects.equivalentResourcesFor(attrs.resource, attrs.subresource).filter((e) => !sameResource(e, attrs.resource));
  for (const rule of rules) {
    for (const resource of equivalents) {
      if (!ruleMatches(rule, { ...target, resource })) continue;
      const kind = objects.kindFor(resource, attrs.subresource);
      if (!kind) throw newInternalError(`unable to convert to ${gvrString(resource)}: unknown kind`);
      if (namesMatch(rule, attrs.name)) return { matches: true, resource, kind };
    }
  }
  return { matches: false };
}

/** Whether `mr` covers the request, and as which resource and kind; throws a StatusError when it covers it but cannot be evaluated. */
export async function matchResources(mr: MatchResources, attrs: Attributes, deps: PolicyMatchDeps): Promise<ResourceMatch> {
  let selectorError: unknown;
  try {
    if (!(await matchNamespaceSelector(mr.namespaceSelector, attrs, deps.namespaces))) return { matches: false };
  } catch (e) {
    selectorError = e;
  }
  if (!matchObjectSelector(mr.objectSelector, attrs.object, attrs.oldObject)) return { matches: false };
  if (matchesRules(mr.excludeResourceRules ?? [], mr.matchPolicy, attrs, deps.objects).matches) return { matches: false };
  const rules = mr.resourceRules ?? [];
  const m = rules.length === 0 ? { matches: true as const, resource: attrs.resource, kind: attrs.kind } : matchesRules(rules, mr.matchPolicy, attrs, deps.objects);
  if (m.matches && selectorError !== undefined) throw selectorError;
  return m;
}
