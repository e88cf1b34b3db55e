// PodSecurity on namespaces (upstream's ValidateNamespace): a create or update whose Pod Security
// labels name no level or version is refused as Invalid (an update only when it changes those
// errors, so a namespace labelled badly before can still be edited); an update that makes the
// enforce level stricter is allowed with warnings about the pods already there that it would
// refuse; an exempt namespace is told its labels will be ignored.
import { isDeepStrictEqual } from 'node:util';
import { newBadRequest, newInvalid } from '../../runtime/errors.js';
import { goQuote } from '../../util/go-quote.js';
import { isPlainObject } from '../../runtime/schema-node.js';
import type { AdmissionObject, Attributes } from '../interfaces.js';
import type { PodSecurityAdmission } from './admission.js';
import { compareLevels, levelVersionString } from './level-version.js';
import { equivalentPolicies, fullyPrivileged, modes, type Policy, type PolicyKeys } from './policy.js';
import { allowedResponse, errorResponse, type Response } from './response.js';

const metaOf = (o: AdmissionObject) => (o['metadata'] ?? {}) as { name?: string; labels?: Record<string, string> };

/**
 * The warning for an exempt namespace whose labels ask for a policy other than the default, naming
 * each mode it labels that is not privileged; '' when there is nothing to say.
 */
export function exemptNamespaceWarning(namespace: string, policy: Policy, labels: Record<string, string>, defaults: Policy, keys: PolicyKeys): string {
  if (fullyPrivileged(policy) || equivalentPolicies(policy, defaults)) return '';
  const set = modes.filter((m) => policy[m].level !== 'privileged' && (Object.hasOwn(labels, keys.level[m]) || Object.hasOwn(labels, keys.version[m])));
  const described = set.map((m) => `${m}=${levelVersionString(policy[m])}`).join(', ');
  return `namespace ${goQuote(namespace)} is exempt from Pod Security, and the policy (${described}) will be ignored`;
}

export function validateNamespace(a: PodSecurityAdmission, attrs: Attributes): Response {
  if (attrs.subresource !== '') return allowedResponse();
  if (!isPlainObject(attrs.object)) return errorResponse(newBadRequest('failed to decode namespace'));
  const meta = metaOf(attrs.object);
  const labels = meta.labels ?? {};
  const { policy, errors } = a.policyOf(labels);
  const invalid = () => ({ error: newInvalid(attrs.kind.kind, attrs.kind.group, attrs.name, errors), warnings: [], auditAnnotations: {} });
  // Upstream's handler makes a namespace's own name the namespace of a request about it.
  const exempt = a.exemptNamespace(attrs.namespace || attrs.name);
  const exemptWarning = () => {
    const w = exempt ? exemptNamespaceWarning(meta.name ?? '', policy, labels, a.defaults, a.keys) : '';
    return allowedResponse({}, w ? [w] : []);
  };
  if (attrs.operation === 'CREATE') {
    if (errors.length > 0) return invalid();
    return exemptWarning();
  }
  if (attrs.operation !== 'UPDATE') return allowedResponse();
  if (!isPlainObject(attrs.oldObject)) return errorResponse(newBadRequest('failed to decode old namespace'));
  const old = a.policyOf(metaOf(attrs.oldObject).labels);
  if (errors.length > 0 && (old.errors.length === 0 || !isDeepStrictEqual(errors, old.errors))) return invalid();
  const [now, before] = [policy.enforce, old.policy.enforce];
  // Nothing to try on the pods: the same level, privileged, or a looser level at the same version.
  if (now.level === before.level && now.version === before.version) return allowedResponse();
  if (now.level === 'privileged') return allowedResponse();
  if (now.version === before.version && compareLevels(now.level, before.level) < 1) return allowedResponse();
  if (exempt) return exemptWarning();
  return allowedResponse({}, a.evaluatePodsInNamespace(meta.name ?? '', now));
}
