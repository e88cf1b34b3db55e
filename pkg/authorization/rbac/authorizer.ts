// The RBAC authorizer: allows a request when some rule bound to its user allows it, and otherwise
// has no opinion (RBAC never denies; a later authorizer may still allow). Reasons are upstream's:
// the binding that allowed, or the evaluation errors met while looking (plugin/pkg/auth/authorizer/rbac).
import type { RulesResult } from '../authorizer.js';
import { aggregateMessage, type RbacIndex } from './index.js';
import { ruleAllows, type RbacAttributes, type RbacUser } from './rules.js';

export interface RbacDecision {
  decision: 'allow' | 'noOpinion';
  reason: string;
}

/** What SelfSubjectRulesReview reports; RBAC always knows every rule it has, so never incomplete. */
export type RulesForResult = RulesResult;

export class RbacAuthorizer {
  constructor(private readonly index: RbacIndex) {}

  authorize(attributes: RbacAttributes): RbacDecision {
    let reason = '';
    const errors: string[] = [];
    this.index.visitRulesFor(attributes.user, attributes.namespace ?? '', (source, rule, err) => {
      if (rule && source && ruleAllows(attributes, rule)) {
        reason = `RBAC: allowed by ${source.toString()}`;
        return false;
      }
      if (err) errors.push(err);
      return true;
    });
    if (reason) return { decision: 'allow', reason };
    return { decision: 'noOpinion', reason: errors.length > 0 ? `RBAC: ${aggregateMessage(errors)}` : '' };
  }

  /** What `user` may do in `namespace` (cluster-wide rules included), for SelfSubjectRulesReview. */
  rulesFor(user: RbacUser, namespace: string): RulesForResult {
    const { rules, errors } = this.index.rulesFor(user, namespace);
    const out: RulesForResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    for (const r of rules) {
      if ((r.resources ?? []).length > 0) {
        out.resourceRules.push({ verbs: [...r.verbs], apiGroups: [...(r.apiGroups ?? [])], resources: [...r.resources!], resourceNames: [...(r.resourceNames ?? [])] });
      }
      if ((r.nonResourceURLs ?? []).length > 0) {
        out.nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs!] });
      }
    }
    if (errors.length > 0) out.evaluationError = aggregateMessage(errors);
    return out;
  }
}
