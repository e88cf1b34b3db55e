// The type check of a plug-in's versioned configuration object, as upstream's config decoder makes
// it: apiVersion and kind must be present and name a registered kind. A plug-in's group is
// `<prefix>.<domain>` or upstream's `<prefix>.k8s.io`, so stock configuration files keep working.
import type { ApiDomain } from '../../api/domain.js';

export interface ConfigKinds {
  /** The group's prefix, e.g. `eventratelimit.admission`. */
  prefix: string;
  versions: readonly string[];
  kinds: readonly string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `configuration` as an object of one of `registered`'s kinds; throws upstream's decoding errors otherwise. */
export function configObject(configuration: unknown, registered: ConfigKinds, domain: ApiDomain): Record<string, unknown> {
  if (!isObject(configuration)) throw new Error('configuration must be an object');
  const json = JSON.stringify(configuration);
  const apiVersion = typeof configuration['apiVersion'] === 'string' ? configuration['apiVersion'] : '';
  const kind = typeof configuration['kind'] === 'string' ? configuration['kind'] : '';
  if (!kind) throw new Error(`Object 'Kind' is missing in '${json}'`);
  if (!apiVersion) throw new Error(`Object 'apiVersion' is missing in '${json}'`);
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
  const groups = [domain.group(registered.prefix), `${registered.prefix}.k8s.io`];
  if (!groups.includes(group) || !registered.versions.includes(version) || !registered.kinds.includes(kind)) {
    throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  return configuration;
}
