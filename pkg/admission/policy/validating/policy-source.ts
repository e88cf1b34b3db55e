// The policies in force (upstream's generic policy source): every ValidatingAdmissionPolicy that
// some binding names, with its bindings, compiled once per resourceVersion, and the cache of its
// parameters. Read from the server's informer-fed caches, so a change is seen without a restart;
// the list is rebuilt when a policy or binding changed, or while some policy is misconfigured (its
// parameter kind may be served by then).
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../../api/admissionregistration/v1/validating-admission-policy.js';
import type { ObjectLister } from '../../interfaces.js';
import type { ParamCache, ParamSource } from '../params.js';
import { PolicyValidator } from './validator.js';

/** One policy in force: its bindings, its compiled expressions and its parameters' cache. */
export interface PolicyHook {
  policy: ValidatingAdmissionPolicy;
  bindings: ValidatingAdmissionPolicyBinding[];
  validator: PolicyValidator;
  params: ParamCache | undefined;
  /** Why the policy cannot be applied (its paramKind is not served); failurePolicy decides. */
  configurationError: string | undefined;
}

const nameOf = (o: { metadata?: { name?: string } }) => o.metadata?.name ?? '';
const versionOf = (o: { metadata?: { resourceVersion?: string } }) => o.metadata?.resourceVersion ?? '';
const byName = (a: { metadata?: { name?: string } }, b: { metadata?: { name?: string } }) => nameOf(a).localeCompare(nameOf(b));

export class PolicySource {
  private signature = '';
  private hooksInForce: PolicyHook[] = [];
  private stale = false;
  private readonly compiled = new Map<string, { resourceVersion: string; validator: PolicyValidator }>();

  /** The listers are undefined where the kinds are not served: no policy is in force then. */
  constructor(
    private readonly policies: ObjectLister | undefined,
    private readonly bindings: ObjectLister | undefined,
    private readonly params: ParamSource,
  ) {}

  /** The policies in force, in name order, each with its bindings in name order. */
  hooks(): readonly PolicyHook[] {
    // The caches hold objects decoded and validated as their kinds, which makes the casts sound.
    const policies = (this.policies?.list() ?? []) as unknown as ValidatingAdmissionPolicy[];
    const bindings = (this.bindings?.list() ?? []) as unknown as ValidatingAdmissionPolicyBinding[];
    const signature = [...policies, ...bindings].map((o) => `${nameOf(o)}@${versionOf(o)}`).join(',');
    if (signature === this.signature && !this.stale) return this.hooksInForce;
    this.signature = signature;
    this.hooksInForce = this.build(policies, bindings);
    this.stale = this.hooksInForce.some((h) => h.configurationError !== undefined);
    return this.hooksInForce;
  }

  private build(policies: ValidatingAdmissionPolicy[], bindings: ValidatingAdmissionPolicyBinding[]): PolicyHook[] {
    const byPolicy = new Map<string, ValidatingAdmissionPolicyBinding[]>();
    for (const b of [...bindings].sort(byName)) {
      const name = b.spec?.policyName ?? '';
      byPolicy.set(name, [...(byPolicy.get(name) ?? []), b]);
    }
    const hooks: PolicyHook[] = [];
    for (const policy of [...policies].sort(byName)) {
      const bound = byPolicy.get(nameOf(policy));
      if (!bound) continue;
      let params: ParamCache | undefined;
      let configurationError: string | undefined;
      const kind = policy.spec?.paramKind;
      if (kind) {
        try {
          params = this.params.resolve(kind);
        } catch (e) {
          configurationError = (e as Error).message;
        }
      }
      hooks.push({ policy, bindings: bound, validator: this.validatorOf(policy), params, configurationError });
    }
    // Policies gone (or no longer bound) are forgotten.
    const inForce = new Set(hooks.map((h) => nameOf(h.policy)));
    for (const name of this.compiled.keys()) if (!inForce.has(name)) this.compiled.delete(name);
    return hooks;
  }

  private validatorOf(policy: ValidatingAdmissionPolicy): PolicyValidator {
    const name = nameOf(policy);
    const entry = this.compiled.get(name);
    if (entry && entry.resourceVersion === versionOf(policy)) return entry.validator;
    const validator = new PolicyValidator(policy.spec ?? {});
    this.compiled.set(name, { resourceVersion: versionOf(policy), validator });
    return validator;
  }
}
