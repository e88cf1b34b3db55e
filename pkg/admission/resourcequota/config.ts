// The ResourceQuota plug-in's configuration (upstream's ResourceQuotaConfiguration from the
// --admission-control-config-file): resources whose consumption needs a covering quota. A
// create of such a resource whose usage names a resource containing one of `matchContains`
// is refused unless some quota in the namespace tracks that name.
export interface LimitedResource {
  apiGroup: string;
  resource: string;
  matchContains: string[];
}

export interface ResourceQuotaConfiguration {
  limitedResources: LimitedResource[];
}

const kinds = ['ResourceQuotaConfiguration', 'Configuration'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown, at: string): string[] => {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new Error(`${at} must be a list of strings`);
  return v as string[];
};

/** The configuration from the file's object (undefined: nothing limited); throws on a malformed one. */
export function parseResourceQuotaConfiguration(raw: unknown): ResourceQuotaConfiguration {
  if (raw === undefined || raw === null) return { limitedResources: [] };
  if (!isObject(raw)) throw new Error('the ResourceQuota configuration must be an object');
  if (raw['kind'] !== undefined && !kinds.includes(String(raw['kind']))) throw new Error(`unexpected kind ${JSON.stringify(raw['kind'])} of the ResourceQuota configuration`);
  const list = raw['limitedResources'] ?? [];
  if (!Array.isArray(list)) throw new Error('limitedResources must be a list');
  return {
    limitedResources: list.map((item: unknown, i) => {
      const at = `limitedResources[${i}]`;
      if (!isObject(item)) throw new Error(`${at} must be an object`);
      if (typeof item['resource'] !== 'string' || item['resource'] === '') throw new Error(`${at}.resource: Required value`);
      if (item['matchScopes'] !== undefined) throw new Error(`${at}.matchScopes is not supported by this server`);
      return { apiGroup: typeof item['apiGroup'] === 'string' ? item['apiGroup'] : '', resource: item['resource'], matchContains: strings(item['matchContains'], `${at}.matchContains`) };
    }),
  };
}

/** Whether the configuration names `group`/`resource` among the resources that need a covering quota. */
export function hasLimitedResources(config: ResourceQuotaConfiguration, group: string, resource: string): boolean {
  return config.limitedResources.some((l) => l.apiGroup === group && l.resource === resource);
}

/** The usage names of `usageNames` that the configuration says need a covering quota for `<group>/<resource>`. */
export function limitedNames(config: ResourceQuotaConfiguration, group: string, resource: string, usageNames: Iterable<string>): string[] {
  const limits = config.limitedResources.filter((l) => l.apiGroup === group && l.resource === resource);
  if (limits.length === 0) return [];
  return [...usageNames].filter((name) => limits.some((l) => l.matchContains.some((m) => name.includes(m)))).sort();
}
