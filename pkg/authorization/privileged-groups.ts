// Upstream's NewPrivilegedGroups: members of the given groups (kube-apiserver passes
// system:masters) are allowed everything, ahead of every configured mode; everyone else gets no
// opinion. It is not a rule resolver: upstream leaves it out of SelfSubjectRulesReview.
import { MastersGroup } from '../runtime/user.js';
import type { Attributes } from './attributes.js';
import { allow, noOpinion, type Authorizer, type Decision } from './authorizer.js';

export class PrivilegedGroupsAuthorizer implements Authorizer {
  private readonly groups: ReadonlySet<string>;

  constructor(groups: readonly string[] = [MastersGroup]) {
    this.groups = new Set(groups);
  }

  async authorize(a: Attributes): Promise<Decision> {
    if (!a.user) return { decision: 'noOpinion', reason: 'Error', evaluationError: 'no user on request.' };
    return a.user.groups.some((g) => this.groups.has(g)) ? allow() : noOpinion();
  }
}
