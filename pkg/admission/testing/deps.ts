// Plug-in dependencies over plain in-memory objects, for the unit tests of plug-ins (integration
// tests run the plug-ins on the server's real caches).
import { defaultApiDomain, type ApiDomain } from '../../../api/domain.js';
import type { AdmissionObject, ObjectLister, PluginDeps } from '../interfaces.js';

const meta = (o: AdmissionObject) => (o['metadata'] ?? {}) as { namespace?: string; name?: string };

/** A lister over a fixed array of objects; `fetch` reads the same array (tests may push to it). */
export function staticLister(objects: AdmissionObject[]): ObjectLister {
  const get = (namespace: string, name: string) => objects.find((o) => (meta(o).namespace ?? '') === namespace && meta(o).name === name);
  return {
    get,
    list: (namespace) => (namespace === undefined ? [...objects] : objects.filter((o) => (meta(o).namespace ?? '') === namespace)),
    fetch: async (namespace, name) => get(namespace, name),
  };
}

/** Deps whose listers hold `objects` by `<group>/<resource>` (core group ''); other resources are served but empty. */
export function staticDeps(objects: Record<string, AdmissionObject[]> = {}, domain: ApiDomain = defaultApiDomain): PluginDeps {
  const listers = new Map<string, ObjectLister>();
  return {
    domain,
    lister(group, resource) {
      const key = `${group}/${resource}`;
      let l = listers.get(key);
      if (!l) {
        l = staticLister(objects[key] ?? (objects[key] = []));
        listers.set(key, l);
      }
      return l;
    },
  };
}
