// The plug-ins compiled into the server, by upstream name. Each plug-in lives in its own folder
// under pkg/admission and exports its factory; this file only lists them.
import { factory as defaultStorageClass } from './defaultstorageclass/plugin.js';
import { factory as defaultTolerationSeconds } from './defaulttolerationseconds/plugin.js';
import { factory as namespaceLifecycle } from './namespacelifecycle/plugin.js';
import { factory as podTolerationRestriction } from './podtolerationrestriction/plugin.js';
import { PluginRegistry } from './registry.js';
import { factory as storageObjectInUseProtection } from './storageobjectinuseprotection/plugin.js';
import { factory as taintNodesByCondition } from './taintnodesbycondition/plugin.js';

/** A registry holding every built-in plug-in. */
export function builtinPlugins(): PluginRegistry {
  const reg = new PluginRegistry();
  reg.register('NamespaceLifecycle', namespaceLifecycle);
  reg.register('DefaultTolerationSeconds', defaultTolerationSeconds);
  reg.register('TaintNodesByCondition', taintNodesByCondition);
  reg.register('StorageObjectInUseProtection', storageObjectInUseProtection);
  reg.register('DefaultStorageClass', defaultStorageClass);
  reg.register('PodTolerationRestriction', podTolerationRestriction);
  return reg;
}
