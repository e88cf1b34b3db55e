// Pod Security Admission's decisions (upstream's k8s.io/pod-security-admission Admission): a pod is
// judged against its namespace's enforce, audit and warn level-versions; a workload's pod template
// against audit and warn only; a namespace's labels are checked, and a stricter enforce level is
// tried on the pods already there. Exempt users, namespaces and runtime classes are let through
// with a note saying why.
import { isStatusError, newBadRequest, newInternalError, newNotFound, type StatusError } from '../../runtime/errors.js';
import { errorMessage } from '../../runtime/field-errors.js';
import { goQuote } from '../../util/go-quote.js';
import { isPlainObject } from '../../runtime/schema-node.js';
import { aggregateMessage } from '../errors.js';
import type { AdmissionObject, Attributes, ObjectLister } from '../interfaces.js';
import { aggregateCheckResults, forbiddenDetail, type AggregateCheckResult } from './aggregate.js';
import type { PodSecurityConfiguration } from './configuration.js';
import type { Evaluator } from './evaluator.js';
import { levelVersionString, type LevelVersion } from './level-version.js';
import { evaluatePodsInNamespace, type NamespacePodsOptions } from './namespace-pods.js';
import { validateNamespace } from './namespace.js';
import { hasPodTemplate, podOf, templateOf, type ExtractedPod } from './pod-spec-extractor.js';
import { isSignificantPodUpdate } from './pod-update.js';
import { fullyPrivileged, policyToEvaluate, type Policy, type PolicyKeys } from './policy.js';
import { allowedResponse, errorResponse, newPolicyForbidden, type Response } from './response.js';

/** Pod sub-resources whose writes cannot change what the policy judges. */
const ignoredPodSubresources = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

const exemptionAnnotation = (reason: 'user' | 'namespace' | 'runtimeClass'): Response => allowedResponse({ exempt: reason });

const labelsOf = (o: AdmissionObject): Record<string, string> | undefined => (o['metadata'] as { labels?: Record<string, string> } | undefined)?.labels;

export interface PodSecurityAdmissionInit {
  configuration: PodSecurityConfiguration;
  evaluator: Evaluator;
  keys: PolicyKeys;
  namespaces: ObjectLister;
  pods: ObjectLister;
  namespacePods: NamespacePodsOptions;
}

export class PodSecurityAdmission {
  constructor(private readonly init: PodSecurityAdmissionInit) {}

  /** The decision for a create or update of a pod, a workload with a pod template, or a namespace. */
  async validate(attrs: Attributes): Promise<Response> {
    const { group, resource } = attrs.resource;
    if (group === '' && resource === 'namespaces') return validateNamespace(this, attrs);
    if (group === '' && resource === 'pods') return this.validatePod(attrs);
    if (hasPodTemplate(group, resource)) return this.validatePodController(attrs);
    return allowedResponse();
  }

  /** The policy a namespace's labels choose over the configured defaults, and the labels' errors. */
  policyOf(labels: Record<string, string> | undefined): ReturnType<typeof policyToEvaluate> {
    return policyToEvaluate(labels, this.init.configuration.defaults, this.init.keys);
  }

  get defaults(): Policy {
    return this.init.configuration.defaults;
  }

  get keys(): PolicyKeys {
    return this.init.keys;
  }

  exemptNamespace = (ns: string): boolean => ns !== '' && this.init.configuration.exemptions.namespaces.includes(ns);
  private exemptUser = (name: string): boolean => name !== '' && this.init.configuration.exemptions.usernames.includes(name);
  private exemptRuntimeClass = (rc: string | undefined): boolean => !!rc && this.init.configuration.exemptions.runtimeClasses.includes(rc);

  /** The warnings of a namespace whose enforce level becomes `enforce`, from the pods in it now. */
  evaluatePodsInNamespace(namespace: string, enforce: LevelVersion): string[] {
    return evaluatePodsInNamespace(this.init.evaluator, namespace, enforce, this.init.pods.list(namespace), this.exemptRuntimeClass, this.init.namespacePods);
  }

  /**
   * The policy the namespace's labels choose (the namespace from the cache, else read live), or why
   * it could not be read: its NotFound when it does not exist.
   */
  private async namespacePolicy(name: string): Promise<ReturnType<typeof policyToEvaluate> | { failure: unknown }> {
    try {
      const ns = this.init.namespaces.get('', name) ?? await this.init.namespaces.fetch('', name);
      if (!ns) throw newNotFound({ group: '', resource: 'namespaces' }, name);
      return this.policyOf(labelsOf(ns));
    } catch (e) {
      return { failure: e };
    }
  }

  /** The note of an exempt namespace or user, or undefined when neither is. */
  private exemption(attrs: Attributes): Response | undefined {
    if (this.exemptNamespace(attrs.namespace)) return exemptionAnnotation('namespace');
    if (this.exemptUser(attrs.userInfo.name)) return exemptionAnnotation('user');
    return undefined;
  }

  private async validatePod(attrs: Attributes): Promise<Response> {
    if (ignoredPodSubresources.has(attrs.subresource)) return allowedResponse();
    const exempt = this.exemption(attrs);
    if (exempt) return exempt;
    const ns = await this.namespacePolicy(attrs.namespace);
    if ('failure' in ns) {
      // Upstream answers a missing namespace with a 500; it is the client's mistake, so its 404 here.
      if (isStatusError(ns.failure) && ns.failure.code === 404) return errorResponse(ns.failure);
      return errorResponse(newInternalError(new Error(`failed to lookup namespace ${goQuote(attrs.namespace)}`)), ns.failure);
    }
    const { policy, errors } = ns;
    if (errors.length === 0 && fullyPrivileged(policy)) return allowedResponse({ 'enforce-policy': 'privileged:latest' });
    if (!isPlainObject(attrs.object)) return errorResponse(newBadRequest('failed to decode pod'));
    const pod = podOf(attrs.object);
    if (attrs.operation === 'UPDATE') {
      if (!isPlainObject(attrs.oldObject)) return errorResponse(newBadRequest('failed to decode old pod'));
      if (!isSignificantPodUpdate(pod.spec, podOf(attrs.oldObject).spec)) return allowedResponse();
    }
    return this.evaluatePod(policy, errors.map(errorMessage), pod, attrs, true);
  }

  private async validatePodController(attrs: Attributes): Promise<Response> {
    if (attrs.subresource !== '') return allowedResponse();
    const exempt = this.exemption(attrs);
    if (exempt) return exempt;
    const ns = await this.namespacePolicy(attrs.namespace);
    if ('failure' in ns) {
      const why = ns.failure instanceof Error ? ns.failure.message : String(ns.failure);
      return allowedResponse({ error: `failed to lookup namespace ${goQuote(attrs.namespace)}: ${why}` });
    }
    const { policy, errors } = ns;
    if (errors.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return allowedResponse();
    if (!isPlainObject(attrs.object)) return allowedResponse({ error: 'failed to decode object' });
    const template = templateOf(attrs.resource.group, attrs.resource.resource, attrs.object);
    // A controller whose template is optional and unset has no pods to judge.
    if (!template) return allowedResponse();
    return this.evaluatePod(policy, errors.map(errorMessage), template, attrs, false);
  }

  /** Judges one pod or template: enforce (pods only), then audit, then warn, each level-version evaluated once. */
  private evaluatePod(policy: Policy, policyErrors: string[], pod: ExtractedPod, attrs: Attributes, enforce: boolean): Response {
    if (this.exemptRuntimeClass(pod.spec.runtimeClassName)) return exemptionAnnotation('runtimeClass');
    const annotations: Record<string, string> = {};
    if (policyErrors.length > 0) annotations['error'] = `Failed to parse policy: ${aggregateMessage(policyErrors.map((m) => new Error(m)))}`;
    const cache = new Map<string, AggregateCheckResult>();
    const evaluate = (lv: LevelVersion) => {
      const key = levelVersionString(lv);
      let r = cache.get(key);
      if (!r) cache.set(key, (r = aggregateCheckResults(this.init.evaluator.evaluatePod(lv, pod.meta, pod.spec))));
      return r;
    };
    let error: StatusError | undefined;
    if (enforce) {
      annotations['enforce-policy'] = levelVersionString(policy.enforce);
      const r = evaluate(policy.enforce);
      if (!r.allowed) {
        const why = `violates PodSecurity ${goQuote(levelVersionString(policy.enforce))}: ${forbiddenDetail(r)}`;
        error = newPolicyForbidden(attrs.resource.group, attrs.resource.resource, attrs.name, why);
      }
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) annotations['audit-violations'] = `would violate PodSecurity ${goQuote(levelVersionString(policy.audit))}: ${forbiddenDetail(audit)}`;
    const warnings: string[] = [];
    // A request about to be refused gets no warnings on top.
    if (!error) {
      const warn = evaluate(policy.warn);
      if (!warn.allowed) warnings.push(`would violate PodSecurity ${goQuote(levelVersionString(policy.warn))}: ${forbiddenDetail(warn)}`);
    }
    return { ...(error ? { error } : {}), warnings, auditAnnotations: annotations };
  }
}
