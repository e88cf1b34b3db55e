// What a Pod Security check is (upstream's policy.Check): a named rule of the baseline or restricted
// level, in one or more revisions, each applying from a policy version on. A check looks at a pod's
// metadata and spec (a pod's, or a workload's pod template's) and allows it or says why not.
import type { Container, EphemeralContainer, PodSpec } from '../../../api/core/v1/pod-template.js';

/** The metadata a check reads: a pod's, or a template's. */
export interface PodMetadata {
  name?: string;
  annotations?: Record<string, string>;
}

/**
 * Whether a check allows a pod, and if not why: a short reason that is always shown (`host ports`)
 * and a detail naming what was refused (`container "a" uses hostPort 80`), shown for one object.
 */
export interface CheckResult {
  allowed: boolean;
  forbiddenReason?: string;
  forbiddenDetail?: string;
}

export type CheckPodFn = (meta: PodMetadata, spec: PodSpec) => CheckResult;

export interface VersionedCheck {
  /** The minor policy version (v1.<minor>) this revision applies from. */
  minimumVersion: number;
  checkPod: CheckPodFn;
  /** Baseline checks this restricted revision replaces (the restricted one is stricter). */
  overrides?: readonly string[];
}

export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** Revisions by strictly increasing minimumVersion. */
  versions: readonly VersionedCheck[];
}

export const allowed: CheckResult = { allowed: true };

export const forbidden = (forbiddenReason: string, forbiddenDetail: string): CheckResult => ({ allowed: false, forbiddenReason, forbiddenDetail });

/** `"a", "b"`: names in double quotes, as upstream joins them (no escaping). */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

export const pluralize = (singular: string, plural: string, count: number): string => (count === 1 ? singular : plural);

/** `container "a"` or `containers "a", "b"`. */
export const containersNamed = (names: readonly string[]): string => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

/** The distinct values sorted as Go sorts strings (by UTF-16 code units, the same for the ASCII these are). */
export const sortedSet = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** Every init, regular and ephemeral container of the spec, in that order. */
export function allContainers(spec: PodSpec): (Container | EphemeralContainer)[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}

/** A pod whose spec says it runs on Windows, which some restricted checks do not apply to from v1.25. */
export const isWindowsPod = (spec: PodSpec): boolean => spec.os?.name === 'windows';
