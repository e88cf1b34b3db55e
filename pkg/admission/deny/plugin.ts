// AlwaysDeny (upstream plugin/pkg/admission/deny, 1.30): refuses every request it is asked about,
// creates, updates, deletes and connects alike, in both phases. Deprecated upstream, and logged as
// such when it is made.
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, Operations, type Attributes, type MutationInterface, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'AlwaysDeny';

const refusal = 'admission control is denying all modifications';

export class AlwaysDeny implements MutationInterface, ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations(...Operations);

  admit(attrs: Attributes): void {
    throw newAdmissionForbidden(attrs, refusal);
  }

  validate(attrs: Attributes): void {
    throw newAdmissionForbidden(attrs, refusal);
  }
}

/** Makes the plug-in, warning the operator as upstream does; it takes no configuration. */
export const alwaysDenyFactory: PluginFactory = (_configuration, deps) => {
  deps.logger?.warn(`${PluginName} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`);
  return new AlwaysDeny();
};
