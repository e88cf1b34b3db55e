// A namespace's Pod Security policy: the enforce, audit and warn level-versions its labels
// `pod-security.<keyDomain>/<mode>[-version]` choose over the configured defaults, resolved as
// upstream's PolicyToEvaluate resolves them.
import type { ApiDomain } from '../../../api/domain.js';
import { invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import { compareLevels, equivalentLevelVersions, parseLevel, parseVersion, type LevelVersion } from './level-version.js';

export type Mode = 'enforce' | 'audit' | 'warn';

export const modes: readonly Mode[] = ['enforce', 'audit', 'warn'];

export type Policy = Record<Mode, LevelVersion>;

/** The label keys of each mode's level and version, and the prefix of the audit annotations. */
export interface PolicyKeys {
  level: Record<Mode, string>;
  version: Record<Mode, string>;
  /** `pod-security.<keyDomain>/`: the audit annotations are this and a name. */
  prefix: string;
}

/** The keys under `domain` (upstream's `pod-security.kubernetes.io/...` for k8s.io). */
export function policyKeys(domain: ApiDomain): PolicyKeys {
  const key = (name: string) => domain.key(name, 'pod-security');
  return {
    level: { enforce: key('enforce'), audit: key('audit'), warn: key('warn') },
    version: { enforce: key('enforce-version'), audit: key('audit-version'), warn: key('warn-version') },
    prefix: key(''),
  };
}

export const fullyPrivileged = (p: Policy): boolean => modes.every((m) => p[m].level === 'privileged');

export const equivalentPolicies = (a: Policy, b: Policy): boolean => modes.every((m) => equivalentLevelVersions(a[m], b[m]));

const labelsPath = Path.root('metadata').child('labels');

/**
 * The policy a namespace's labels choose, and the errors of the labels that name no level or
 * version. A bad enforce label enforces `restricted` (or `latest`); a bad audit or warn level is
 * `privileged` (they fail open). Without a warn label, warn follows an enforce label stricter than it.
 */
export function policyToEvaluate(labels: Record<string, string> | undefined, defaults: Policy, keys: PolicyKeys): { policy: Policy; errors: FieldError[] } {
  const p: Policy = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const errors: FieldError[] = [];
  if (!labels || Object.keys(labels).length === 0) return { policy: p, errors };
  const has = (k: string) => Object.hasOwn(labels, k);
  let enforceLevelSet = false;
  for (const mode of modes) {
    const levelKey = keys.level[mode];
    if (has(levelKey)) {
      const { level, error } = parseLevel(labels[levelKey]!);
      p[mode].level = error && mode !== 'enforce' ? 'privileged' : level;
      if (error) errors.push(invalid(labelsPath.key(levelKey), labels[levelKey], error));
      else if (mode === 'enforce') enforceLevelSet = true;
    }
    const versionKey = keys.version[mode];
    if (has(versionKey)) {
      const { version, error } = parseVersion(labels[versionKey]!);
      p[mode].version = version;
      if (error) errors.push(invalid(labelsPath.key(versionKey), labels[versionKey], error));
    }
  }
  if (!has(keys.level.warn) && enforceLevelSet && compareLevels(p.enforce.level, p.warn.level) > 0) {
    p.warn.level = p.enforce.level;
    if (!has(keys.version.warn)) p.warn.version = p.enforce.version;
  }
  return { policy: p, errors };
}
