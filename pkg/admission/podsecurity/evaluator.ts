// Which checks a level-version runs (upstream's policy checkRegistry): for every minor version up to
// the newest any check names, each check's revision in force then, in a fixed order (baseline
// checks, then restricted, each sorted by ID, so messages read the same every time). Restricted
// runs its own checks and the baseline checks no restricted revision of that version overrides.
// A version newer than the newest known, and `latest`, evaluate as the newest.
import type { PodSpec } from '../../../api/core/v1/pod-template.js';
import type { Check, CheckPodFn, CheckResult, PodMetadata, VersionedCheck } from './check.js';
import { versionMinor, type LevelVersion } from './level-version.js';

export class Evaluator {
  private readonly baseline: CheckPodFn[][] = [];
  private readonly restricted: CheckPodFn[][] = [];
  private readonly maxMinor: number;

  /** Throws when the checks are not a valid set (duplicate IDs, unordered revisions, bad overrides). */
  constructor(checks: readonly Check[]) {
    validateChecks(checks);
    this.maxMinor = Math.max(0, ...checks.map((c) => c.versions[c.versions.length - 1]!.minimumVersion));
    const byId = (level: Check['level']) => checks.filter((c) => c.level === level).sort((a, b) => (a.id < b.id ? -1 : 1));
    const baseline = byId('baseline');
    const restricted = byId('restricted');
    for (let minor = 0; minor <= this.maxMinor; minor++) {
      const restrictedHere = revisionsAt(restricted, minor);
      const overridden = new Set(restrictedHere.flatMap(([, v]) => v.overrides ?? []));
      const baselineHere = revisionsAt(baseline, minor);
      this.baseline.push(baselineHere.map(([, v]) => v.checkPod));
      this.restricted.push([...baselineHere.filter(([id]) => !overridden.has(id)), ...restrictedHere].map(([, v]) => v.checkPod));
    }
  }

  /** The results of every check `lv` runs on the pod (none for privileged). */
  evaluatePod(lv: LevelVersion, meta: PodMetadata, spec: PodSpec): CheckResult[] {
    if (lv.level === 'privileged') return [];
    const minor = Math.min(versionMinor(lv.version), this.maxMinor);
    const fns = (lv.level === 'baseline' ? this.baseline : this.restricted)[minor] ?? [];
    return fns.map((fn) => fn(meta, spec));
  }
}

/** Each check's revision in force at `minor`, for the checks that have one. */
function revisionsAt(checks: readonly Check[], minor: number): [string, VersionedCheck][] {
  const out: [string, VersionedCheck][] = [];
  for (const c of checks) {
    const v = c.versions.findLast((r) => r.minimumVersion <= minor);
    if (v) out.push([c.id, v]);
  }
  return out;
}

function validateChecks(checks: readonly Check[]): void {
  const levels = new Map<string, Check['level']>();
  for (const c of checks) {
    if (levels.has(c.id)) throw new Error(`multiple checks registered for ID ${c.id}`);
    levels.set(c.id, c.level);
    if (c.versions.length === 0) throw new Error(`check ${c.id}: empty`);
    c.versions.forEach((v, i) => {
      if (!Number.isInteger(v.minimumVersion) || v.minimumVersion < 0) throw new Error(`check ${c.id}: undefined version found`);
      if (i > 0 && v.minimumVersion <= c.versions[i - 1]!.minimumVersion) throw new Error(`check ${c.id}: versions must be strictly increasing`);
    });
  }
  for (const c of checks) {
    for (const v of c.versions) {
      if (!v.overrides?.length) continue;
      if (c.level !== 'restricted') throw new Error(`check ${c.id}: only restricted checks may set overrides`);
      for (const o of v.overrides) {
        if (levels.get(o) === 'restricted') throw new Error(`check ${c.id}: overrides restricted check ${o}`);
      }
    }
  }
}
