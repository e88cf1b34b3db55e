// --runtime-config (spec 9.4): which group/versions and resources are served. Keys are api/all,
// api/ga, api/beta, api/alpha, <group>/<version> and <group>/<version>/<resource> (the core group
// as v1 or api/v1); a missing value means true. Alpha and beta versions are off unless enabled.
import type { GroupVersionRegistration, Stability } from '../../api/registration.js';

export class RuntimeConfigError extends Error {}

interface Entry {
  key: string;
  enabled: boolean;
}

/** Parses `key[=value],key[=value]...`; a value other than true/false is an error. */
export function parseRuntimeConfig(text: string): Entry[] {
  const entries: Entry[] = [];
  for (const raw of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [key, value, ...rest] = raw.split('=');
    if (rest.length > 0 || !key) throw new RuntimeConfigError(`invalid --runtime-config entry ${JSON.stringify(raw)}`);
    const v = value === undefined ? 'true' : value.toLowerCase();
    if (v !== 'true' && v !== 'false') throw new RuntimeConfigError(`invalid value ${JSON.stringify(value)} for --runtime-config key ${JSON.stringify(key)}: must be true or false`);
    entries.push({ key: key.trim(), enabled: v === 'true' });
  }
  return entries;
}

const levelKeys: Record<string, Stability | 'all'> = { 'api/all': 'all', 'api/ga': 'stable', 'api/beta': 'beta', 'api/alpha': 'alpha' };

/** `v1` and `api/v1` name the core group; anything else is `<group>/<version>`. */
function groupVersionOf(gv: GroupVersionRegistration): string[] {
  return gv.group === '' ? [gv.version, `api/${gv.version}`] : [`${gv.group}/${gv.version}`];
}

/**
 * The registrations that are served under `entries`: stable versions by default, then levels
 * (api/all, api/ga, api/beta, api/alpha), then group/versions, then single resources, each more
 * specific setting winning. Throws RuntimeConfigError naming any key that matches nothing.
 */
export function applyRuntimeConfig(registrations: GroupVersionRegistration[], entries: Entry[]): GroupVersionRegistration[] {
  const known = new Set<string>(Object.keys(levelKeys));
  for (const gv of registrations) {
    for (const key of groupVersionOf(gv)) {
      known.add(key);
      for (const k of gv.kinds) known.add(`${key}/${k.resource}`);
    }
  }
  const unknown = entries.filter((e) => !known.has(e.key)).map((e) => e.key);
  if (unknown.length > 0) {
    throw new RuntimeConfigError(`unknown api groups or resources in --runtime-config: ${unknown.join(', ')} (known group/versions: ${registrations.map((gv) => groupVersionOf(gv)[0]).join(', ')})`);
  }
  const last = (keys: string[]) => {
    let result: boolean | undefined;
    for (const e of entries) if (keys.includes(e.key)) result = e.enabled;
    return result;
  };
  const served: GroupVersionRegistration[] = [];
  for (const gv of registrations) {
    const levelSetting = last(['api/all', ...Object.entries(levelKeys).filter(([, l]) => l === gv.stability).map(([k]) => k)]);
    const gvEnabled = last(groupVersionOf(gv)) ?? levelSetting ?? gv.enabledByDefault ?? gv.stability === 'stable';
    const kinds = gv.kinds.filter((k) => last(groupVersionOf(gv).map((key) => `${key}/${k.resource}`)) ?? gvEnabled);
    if (kinds.length > 0) served.push({ ...gv, kinds });
  }
  return served;
}
