// Applying the policies in force to one request (upstream's validating dispatcher): each policy
// whose matchConstraints cover the request, with each binding whose matchResources do, is
// evaluated once per parameter; a failed validation acts as its binding's validationActions say
// (Deny: the request is refused; Warn: a warning for the client; Audit: a
// validation_failure audit annotation), and each policy's audit annotations are recorded as
// `<policy>/<key>`. A misconfigured policy or binding, and an evaluation error, deny the request
// under failurePolicy Fail. The first denial is the one the client sees, with its reason's code.
import type { ApiDomain } from '../../../../api/domain.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../../api/admissionregistration/v1/validating-admission-policy.js';
import type { Logger } from '../../../log/logger.js';
import { newNotFound, StatusError, type StatusReason } from '../../../runtime/errors.js';
import { jsonToCel } from '../../../cel/values.js';
import { namespaceObject } from '../../cel/namespace-object.js';
import { admissionRequest, celAuthorizer } from '../../cel/request.js';
import { newAdmissionForbidden } from '../../errors.js';
import type { AdmissionObject, Attributes, AuthorizeFunc } from '../../interfaces.js';
import { versionedObjects, type VersionedObjects } from '../../webhook/versioned-attributes.js';
import { matchResources, type PolicyMatchDeps } from '../matching.js';
import { collectParams } from '../params.js';
import type { PolicyHook } from './policy-source.js';
import type { PolicyDecision } from './validator.js';

export interface DispatchDeps extends PolicyMatchDeps {
  domain: ApiDomain;
  authorize: AuthorizeFunc | undefined;
  logger: Logger | undefined;
}

interface Denial {
  decision: PolicyDecision;
  policy: ValidatingAdmissionPolicy;
  binding: ValidatingAdmissionPolicyBinding | undefined;
}

/** Audit annotation values are cut to this length (upstream's maxAuditAnnotationValueLength). */
const maxAuditAnnotationValueLength = 10 * 1024;

const nameOf = (o: { metadata?: { name?: string } }) => o.metadata?.name ?? '';

/** The HTTP code of a denial's reason (upstream's reasonToCode). */
function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden': return 403;
    case 'Unauthorized': return 401;
    case 'RequestEntityTooLarge': return 413;
    default: return 422;
  }
}

/** The error the client sees for a denial, worded and coded as upstream's. */
export function denialError(attrs: Attributes, d: Denial): StatusError {
  const message = d.binding
    ? `ValidatingAdmissionPolicy '${nameOf(d.policy)}' with binding '${nameOf(d.binding)}' denied request: ${d.decision.message}`
    : `ValidatingAdmissionPolicy '${nameOf(d.policy)}' denied request: ${d.decision.message}`;
  const forbidden = newAdmissionForbidden(attrs, message);
  const reason = d.decision.reason || 'Invalid';
  const details = forbidden.status.details ?? {};
  return new StatusError(reasonToCode(reason), reason as StatusReason, forbidden.message, { ...details, causes: [...(details.causes ?? []), { message }] });
}

/** The namespace of the request, for namespaceObject: none for cluster-scoped objects and Namespaces themselves. */
async function requestNamespace(attrs: Attributes, deps: DispatchDeps): Promise<AdmissionObject | undefined> {
  const k = attrs.kind;
  if (attrs.namespace === '' || (k.group === '' && k.version === 'v1' && k.kind === 'Namespace')) return undefined;
  const ns = deps.namespaces?.get('', attrs.namespace) ?? (await deps.namespaces?.fetch('', attrs.namespace));
  if (!ns) throw newNotFound({ group: '', resource: 'namespaces' }, attrs.namespace);
  return ns;
}

/** One request's authorizer, asking the server once per distinct check (upstream's caching authorizer). */
function cachingAuthorize(authorize: AuthorizeFunc | undefined): AuthorizeFunc | undefined {
  if (!authorize) return undefined;
  const seen = new Map<string, ReturnType<AuthorizeFunc>>();
  return (user, check) => {
    const key = JSON.stringify([user.name, user.uid ?? '', user.groups, user.extra, check]);
    let d = seen.get(key);
    if (!d) seen.set(key, (d = authorize(user, check)));
    return d;
  };
}

/** Collects a policy's audit annotations from all its bindings and parameters: equal values once, several joined. */
class AuditAnnotationCollector {
  private readonly values = new Map<string, string[]>();
  add(key: string, value: string): void {
    const list = this.values.get(key) ?? [];
    if (!list.includes(value)) list.push(value);
    this.values.set(key, list);
  }
  publish(policyName: string, attrs: Attributes, logger: Logger | undefined): void {
    for (const [key, values] of this.values) {
      try {
        attrs.addAnnotation(`${policyName}/${key}`, values.join(', '));
      } catch (e) {
        logger?.warnText(`Failed to set admission audit annotation ${key} for ValidatingAdmissionPolicy ${policyName}: ${(e as Error).message}`);
      }
    }
  }
}

/** Applies `hooks` to the request; throws the first denial. */
export async function dispatch(attrs: Attributes, hooks: readonly PolicyHook[], deps: DispatchDeps): Promise<void> {
  const denials: Denial[] = [];
  const configError = (err: unknown, policy: ValidatingAdmissionPolicy, binding?: ValidatingAdmissionPolicyBinding) => {
    const why = err instanceof Error ? err.message : String(err);
    deps.logger?.warnText(`ValidatingAdmissionPolicy '${nameOf(policy)}'${binding ? ` with binding '${nameOf(binding)}'` : ''} is misconfigured: ${why}`);
    if (policy.spec?.failurePolicy === 'Ignore') return;
    const message = binding ? `failed to configure binding: ${why}` : `failed to configure policy: ${why}`;
    denials.push({ policy, binding, decision: { action: 'deny', evaluation: 'error', message } });
  };
  const authorize = cachingAuthorize(deps.authorize);
  let namespace: Promise<AdmissionObject | undefined> | undefined;
  for (const hook of hooks) {
    const policy = hook.policy;
    let definition;
    try {
      if (!policy.spec?.matchConstraints) throw new Error('policy contained no match constraints, a required field');
      definition = await matchResources(policy.spec.matchConstraints, attrs, deps);
    } catch (e) {
      configError(e, policy);
      continue;
    }
    if (!definition.matches) continue;
    if (hook.configurationError !== undefined) {
      configError(new Error(hook.configurationError), policy);
      continue;
    }
    const collector = new AuditAnnotationCollector();
    let versioned: VersionedObjects | undefined;
    for (const binding of hook.bindings) {
      let params: (AdmissionObject | null)[];
      try {
        if (binding.spec?.matchResources && !(await matchResources(binding.spec.matchResources, attrs, deps)).matches) continue;
        params = await collectParams(policy.spec?.paramKind, hook.params, binding.spec?.paramRef, attrs.namespace);
        if (params.length > 0) versioned ??= versionedObjects(attrs, definition.kind, deps.objects);
      } catch (e) {
        configError(e, policy, binding);
        continue;
      }
      if (!versioned) continue;
      const ns = await (namespace ??= requestNamespace(attrs, deps));
      const base = {
        object: jsonToCel(versioned.object ?? null),
        oldObject: jsonToCel(versioned.oldObject ?? null),
        request: admissionRequest(attrs, definition.resource, definition.kind),
        namespaceObject: namespaceObject(ns),
        authorizer: celAuthorizer(attrs, authorize),
      };
      for (const param of params) {
        const result = await hook.validator.validate({ ...base, params: param === null ? null : jsonToCel(param) });
        result.decisions.forEach((decision, i) => {
          if (decision.action !== 'deny') return;
          for (const action of binding.spec?.validationActions ?? []) {
            if (action === 'Deny') denials.push({ policy, binding, decision });
            else if (action === 'Warn') attrs.warn(`Validation failed for ValidatingAdmissionPolicy '${nameOf(policy)}' with binding '${nameOf(binding)}': ${decision.message}`);
            else if (action === 'Audit') publishValidationFailure(attrs, deps, binding, i, decision);
          }
        });
        for (const a of result.auditAnnotations) {
          if (a.action === 'publish') collector.add(a.key, a.value!.slice(0, maxAuditAnnotationValueLength));
          // Only under failurePolicy Fail does an annotation's error reach here: it denies.
          else if (a.action === 'error') denials.push({ policy, binding, decision: { action: 'deny', evaluation: 'error', message: a.error ?? '' } });
        }
      }
    }
    collector.publish(nameOf(policy), attrs, deps.logger);
  }
  if (denials.length > 0) throw denialError(attrs, denials[0]!);
}

/** The validation_failure audit annotation of a failed validation whose binding audits it. */
function publishValidationFailure(attrs: Attributes, deps: DispatchDeps, binding: ValidatingAdmissionPolicyBinding, index: number, decision: PolicyDecision): void {
  const key = `validation.policy.admission.${deps.domain.name}/validation_failure`;
  const value = JSON.stringify([{
    message: decision.message,
    policy: binding.spec?.policyName ?? '',
    binding: nameOf(binding),
    expressionIndex: index,
    validationActions: binding.spec?.validationActions ?? [],
  }]);
  try {
    attrs.addAnnotation(key, value);
  } catch (e) {
    // A second failure of the same request keeps the first, as upstream's refused overwrite does.
    deps.logger?.warnText(`Failed to set admission audit annotation ${key} to ${value} for ValidatingAdmissionPolicy ${binding.spec?.policyName ?? ''} and ValidatingAdmissionPolicyBinding ${nameOf(binding)}: ${(e as Error).message}`);
  }
}
