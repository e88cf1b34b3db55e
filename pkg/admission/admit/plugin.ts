// AlwaysAdmit (upstream plugin/pkg/admission/admit, 1.30): admits every request in both phases.
// Deprecated upstream, and logged as such when it is made.
import { handlesOperations, Operations, type MutationInterface, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'AlwaysAdmit';

export class AlwaysAdmit implements MutationInterface, ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations(...Operations);
  admit(): void {}
  validate(): void {}
}

/** Makes the plug-in, warning the operator as upstream does; it takes no configuration. */
export const alwaysAdmitFactory: PluginFactory = (_configuration, deps) => {
  deps.logger?.warn(`${PluginName} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`);
  return new AlwaysAdmit();
};
