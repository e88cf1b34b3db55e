// Whether one rule of a webhook covers a request (upstream's rules.Matcher): scope, operation,
// API group, version and resource with its sub-resource, each by exact value or `*`.
import type { Attributes, GroupVersionResource } from '../interfaces.js';
import type { RuleWithOperations } from './types.js';

/** The parts of a request a rule looks at; `resource` may be an equivalent of the request's own. */
export interface RuleTarget {
  resource: GroupVersionResource;
  subresource: string;
  namespace: string;
  operation: Attributes['operation'];
}

const exactOrWildcard = (items: readonly string[] | undefined, requested: string) =>
  (items ?? []).some((i) => i === '*' || i === requested);

const isNamespaceResource = (r: GroupVersionResource) => r.group === '' && r.version === 'v1' && r.resource === 'namespaces';

function scopeMatches(rule: RuleWithOperations, t: RuleTarget): boolean {
  const scope = rule.scope ?? '*';
  if (scope === '*') return true;
  // A Namespace object is cluster-scoped, though its requests carry its own name as their namespace.
  if (scope === 'Namespaced') return !isNamespaceResource(t.resource) && t.namespace !== '';
  if (scope === 'Cluster') return isNamespaceResource(t.resource) || t.namespace === '';
  return false;
}

/**
 * Whether `pattern` (`pods`, `pods/status`, `pods/*`, `*`, `*\/*`, `*\/status`) covers the resource
 * and sub-resource. As upstream's matcher, `<resource>/*` covers the resource itself too.
 */
export function resourceMatches(pattern: string, resource: string, subresource: string): boolean {
  const slash = pattern.indexOf('/');
  const res = slash < 0 ? pattern : pattern.slice(0, slash);
  const sub = slash < 0 ? '' : pattern.slice(slash + 1);
  return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
}

/** Whether `rule` covers the request `t`. */
export function ruleMatches(rule: RuleWithOperations, t: RuleTarget): boolean {
  return scopeMatches(rule, t)
    && (rule.operations ?? []).some((op) => op === '*' || op === t.operation)
    && exactOrWildcard(rule.apiGroups, t.resource.group)
    && exactOrWildcard(rule.apiVersions, t.resource.version)
    && (rule.resources ?? []).some((p) => resourceMatches(p, t.resource.resource, t.subresource));
}
