// ValidatingAdmissionPolicy (upstream's policy/validating plug-in): the policies and bindings in
// the server's caches, applied to every create, update, delete and connect except those of the
// policy kinds themselves (so a broken policy can always be removed).
import { handlesOperations, type Attributes, type PluginDeps, type ValidationInterface } from '../../interfaces.js';
import { ParamSource } from '../params.js';
import { dispatch, type DispatchDeps } from './dispatcher.js';
import { PolicySource } from './policy-source.js';

export const ValidatingAdmissionPolicyName = 'ValidatingAdmissionPolicy';

/** The resources no policy applies to (upstream's admissionResources of the policy plug-ins). */
const excludedResources = ['validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings'];

export class ValidatingAdmissionPolicyPlugin implements ValidationInterface {
  readonly name = ValidatingAdmissionPolicyName;
  readonly handles = handlesOperations('CONNECT', 'CREATE', 'DELETE', 'UPDATE');
  private readonly group: string;
  private readonly source: PolicySource;
  private readonly deps: DispatchDeps;

  constructor(deps: PluginDeps) {
    this.group = deps.domain.group('admissionregistration');
    const informer = deps.informer?.bind(deps);
    this.source = new PolicySource(
      deps.lister(this.group, 'validatingadmissionpolicies'),
      deps.lister(this.group, 'validatingadmissionpolicybindings'),
      new ParamSource(deps.objects, informer),
    );
    this.deps = { domain: deps.domain, objects: deps.objects, namespaces: deps.lister('', 'namespaces'), authorize: deps.authorize, logger: deps.logger };
  }

  async validate(attrs: Attributes): Promise<void> {
    if (attrs.resource.group === this.group && excludedResources.includes(attrs.resource.resource)) return;
    const hooks = this.source.hooks();
    if (hooks.length === 0) return;
    await dispatch(attrs, hooks, this.deps);
  }
}

/** The factory of ValidatingAdmissionPolicy; it takes no configuration. */
export function validatingAdmissionPolicyFactory(_configuration: unknown, deps: PluginDeps): ValidatingAdmissionPolicyPlugin {
  return new ValidatingAdmissionPolicyPlugin(deps);
}
