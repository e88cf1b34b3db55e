// The Pod Security Standards' levels and policy versions (upstream's k8s.io/pod-security-admission
// api package): a level is privileged, baseline or restricted; a version is `latest` or `v1.<minor>`.
// A version is kept as its text, which is canonical (the pattern allows no leading zeros), so two
// versions are the same exactly when their texts are.

export type Level = 'privileged' | 'baseline' | 'restricted';

export const levels: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** `latest`, or `v1.<minor>`. */
export type Version = string;

export const latest: Version = 'latest';

/** A level at a version, printed `restricted:v1.25`. */
export interface LevelVersion {
  level: Level;
  version: Version;
}

export const levelVersionString = (lv: LevelVersion): string => `${lv.level}:${lv.version}`;

const int64Max = 2n ** 63n - 1n;
const versionPattern = /^v1\.([0-9]|[1-9][0-9]*)$/;

export const invalidLevelMessage = `must be one of ${levels.join(', ')}`;
export const invalidVersionMessage = 'must be "latest" or "v1.x"';

/** The level named by `text`, or an error and `restricted` (the strictest) when it names none. */
export function parseLevel(text: string): { level: Level; error?: string } {
  return (levels as readonly string[]).includes(text) ? { level: text as Level } : { level: 'restricted', error: invalidLevelMessage };
}

/** The version named by `text`, or an error and `latest` when it is not `latest` or `v1.x`. */
export function parseVersion(text: string): { version: Version; error?: string } {
  if (text === latest) return { version: latest };
  const m = versionPattern.exec(text);
  // Go's Atoi refuses what does not fit an int64.
  if (!m || BigInt(m[1]!) > int64Max) return { version: latest, error: invalidVersionMessage };
  return { version: text };
}

/** The minor number of a version; `latest` is newer than every other. */
export function versionMinor(v: Version): number {
  return v === latest ? Infinity : Number(v.slice(3));
}

/** -1, 0 or 1 as `a` is less strict than, as strict as or stricter than `b`. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(levels.indexOf(a) - levels.indexOf(b));
}

/** Two level-versions that admit the same pods: both privileged, or equal. */
export function equivalentLevelVersions(a: LevelVersion, b: LevelVersion): boolean {
  return (a.level === 'privileged' && b.level === 'privileged') || (a.level === b.level && a.version === b.version);
}
