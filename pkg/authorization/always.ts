// The AlwaysAllow and AlwaysDeny modes, as upstream's authorizerfactory has them. AlwaysDeny
// answers no opinion (not deny) with the reason "Everything is forbidden.", so a later mode may
// still allow, and a request nobody allows is refused with that reason.
import type { UserInfo } from '../runtime/user.js';
import { allow, noOpinion, type Authorizer, type Decision, type RuleResolver, type RulesResult } from './authorizer.js';

export const alwaysDenyReason = 'Everything is forbidden.';

export class AlwaysAllowAuthorizer implements Authorizer, RuleResolver {
  async authorize(): Promise<Decision> {
    return allow();
  }

  /** Everything: `*` verbs on `*` resources of `*` groups, and `*` verbs on every path. */
  async rulesFor(_user: UserInfo, _namespace: string): Promise<RulesResult> {
    return {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    };
  }
}

export class AlwaysDenyAuthorizer implements Authorizer, RuleResolver {
  async authorize(): Promise<Decision> {
    return noOpinion(alwaysDenyReason);
  }

  async rulesFor(_user: UserInfo, _namespace: string): Promise<RulesResult> {
    return { resourceRules: [], nonResourceRules: [], incomplete: false };
  }
}
