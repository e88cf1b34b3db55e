// ValidatingAdmissionPolicy (upstream's policy/validating plug-in): the policies and bindings in
// the server's caches, applied to every create, update, delete and connect except those of the
// admission configuration kinds themselves (so a broken policy or webhook can always be removed).
import { handlesOperations, type Attributes, type PluginDeps, type ValidationInterface } from '../../interfaces.js';
import { isExemptAdmissionConfigurationResource } from '../../webhook/match.js';
import { ParamSource } from '../params.js';
import { dispatch, type DispatchDeps } from './dispatcher.js';
import { PolicySource } from './policy-source.js';

export const ValidatingAdmissionPolicyName = 'ValidatingAdmissionPolicy';

export class ValidatingAdmissionPolicyPlugin implements ValidationInterface {
  readonly name = ValidatingAdmissionPolicyName;
  readonly handles = handlesOperations('CONNECT', 'CREATE', 'DELETE', 'UPDATE');
  private readonly source: PolicySource;
  private readonly deps: DispatchDeps;

  constructor(deps: PluginDeps) {
    const group = deps.domain.group('admissionregistration');
    const informer = deps.informer?.bind(deps);
    this.source = new PolicySource(
      deps.lister(group, 'validatingadmissionpolicies'),
      deps.lister(group, 'validatingadmissionpolicybindings'),
      new ParamSource(deps.objects, informer),
    );
    this.deps = { domain: deps.domain, objects: deps.objects, namespaces: deps.lister('', 'namespaces'), authorize: deps.authorize, logger: deps.logger };
  }

  async validate(attrs: Attributes): Promise<void> {
    if (isExemptAdmissionConfigurationResource(attrs, this.deps.domain)) return;
    const hooks = this.source.hooks();
    if (hooks.length === 0) return;
    await dispatch(attrs, hooks, this.deps);
  }
}

/** The factory of ValidatingAdmissionPolicy; it takes no configuration. */
export function validatingAdmissionPolicyFactory(_configuration: unknown, deps: PluginDeps): ValidatingAdmissionPolicyPlugin {
  return new ValidatingAdmissionPolicyPlugin(deps);
}
