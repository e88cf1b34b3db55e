// The plug-ins compiled into the server, by upstream name. Each plug-in lives in its own folder
// under pkg/admission and exports its factory; this file only lists them.
import { newLimitRangerPlugin } from './limitranger/plugin.js';
import { PluginRegistry } from './registry.js';
import { newResourceQuotaPlugin } from './resourcequota/plugin.js';

/** A registry holding every built-in plug-in. */
export function builtinPlugins(): PluginRegistry {
  const reg = new PluginRegistry();
  reg.register('LimitRanger', newLimitRangerPlugin);
  reg.register('ResourceQuota', newResourceQuotaPlugin);
  return reg;
}
