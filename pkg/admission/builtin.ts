// The plug-ins compiled into the server, by upstream name. Each plug-in lives in its own folder
// under pkg/admission and exports its factory; this file only lists them.
import { limitRangerFactory } from './limitranger/plugin.js';
import { nodeRestrictionFactory } from './noderestriction/plugin.js';
import { priorityFactory } from './priority/plugin.js';
import { PluginRegistry } from './registry.js';
import { resourceQuotaFactory } from './resourcequota/plugin.js';
import { runtimeClassFactory } from './runtimeclass/plugin.js';
import { securityContextDenyFactory } from './securitycontextdeny/plugin.js';
import { serviceAccountFactory } from './serviceaccount/plugin.js';

/** A registry holding every built-in plug-in. */
export function builtinPlugins(): PluginRegistry {
  const reg = new PluginRegistry();
  reg.register('LimitRanger', limitRangerFactory);
  reg.register('ResourceQuota', resourceQuotaFactory);
  reg.register('ServiceAccount', serviceAccountFactory);
  reg.register('Priority', priorityFactory);
  reg.register('RuntimeClass', runtimeClassFactory);
  reg.register('SecurityContextDeny', securityContextDenyFactory);
  reg.register('NodeRestriction', nodeRestrictionFactory);
  return reg;
}
