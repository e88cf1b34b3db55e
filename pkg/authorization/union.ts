// Upstream's union authorizer (kube-apiserver 1.36): ask each authorizer in order; the first allow
// or deny is the answer, with that authorizer's own reason and error. When every one has no
// opinion, the answer is no opinion with every non-empty reason joined by newlines and every error
// aggregated. An authorizer that throws counts as no opinion with that error, so one broken
// authorizer never fails the request on its own.
import type { UserInfo } from '../runtime/user.js';
import type { Attributes } from './attributes.js';
import { aggregateErrors, type Authorizer, type Decision, type NonResourceRuleInfo, type ResourceRuleInfo, type RuleResolver, type RulesResult } from './authorizer.js';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class UnionAuthorizer implements Authorizer {
  constructor(private readonly chain: readonly Authorizer[]) {}

  async authorize(a: Attributes): Promise<Decision> {
    const reasons: string[] = [];
    const errors: string[] = [];
    for (const authz of this.chain) {
      let d: Decision;
      try {
        d = await authz.authorize(a);
      } catch (e) {
        d = { decision: 'noOpinion', reason: '', evaluationError: message(e) };
      }
      if (d.evaluationError) errors.push(d.evaluationError);
      if (d.reason) reasons.push(d.reason);
      if (d.decision === 'allow' || d.decision === 'deny') {
        return { decision: d.decision, reason: d.reason, ...(d.evaluationError ? { evaluationError: d.evaluationError } : {}) };
      }
    }
    const evaluationError = aggregateErrors(errors);
    return { decision: 'noOpinion', reason: reasons.join('\n'), ...(evaluationError ? { evaluationError } : {}) };
  }
}

/** Upstream's union of rule resolvers: every resolver's rules, incomplete if any is, errors aggregated. */
export class UnionRuleResolver implements RuleResolver {
  constructor(private readonly chain: readonly RuleResolver[]) {}

  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    const errors: string[] = [];
    let incomplete = false;
    for (const r of this.chain) {
      let res: RulesResult;
      try {
        res = await r.rulesFor(user, namespace);
      } catch (e) {
        res = { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: message(e) };
      }
      if (res.incomplete) incomplete = true;
      if (res.evaluationError) errors.push(res.evaluationError);
      resourceRules.push(...res.resourceRules);
      nonResourceRules.push(...res.nonResourceRules);
    }
    const evaluationError = aggregateErrors(errors);
    return { resourceRules, nonResourceRules, incomplete, ...(evaluationError ? { evaluationError } : {}) };
  }
}
