// Baseline: no seccomp profile other than the runtime's default or a local one. Up to v1.18 policy
// versions read the alpha annotations (`seccomp.security.alpha.<keyDomain>/pod` and
// `container.seccomp.security.alpha.<keyDomain>/<container>`); from v1.19 the securityContext
// fields.
import type { PodSpec } from '../../../../api/core/v1/pod-template.js';
import { goQuote } from '../../../util/go-quote.js';
import { allContainers, allowed, containersNamed, forbidden, joinQuote, pluralize, sortedSet, type Check, type CheckResult, type PodMetadata } from '../check.js';

export const seccompBaselineID = 'seccompProfile_baseline';

/** The seccomp profile types a pod may ask for at every level. */
export const validSeccompType = (t: string | undefined): boolean => t === 'Localhost' || t === 'RuntimeDefault';

const validAnnotationValue = (v: string) => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

/** The annotation keys of the alpha seccomp fields under a domain. */
export interface SeccompAnnotationKeys {
  /** `seccomp.security.alpha.<keyDomain>/pod` */
  pod: string;
  /** `container.seccomp.security.alpha.<keyDomain>/`, followed by a container's name. */
  containerPrefix: string;
}

function seccompAnnotations(meta: PodMetadata, spec: PodSpec, keys: SeccompAnnotationKeys): CheckResult {
  const annotations = meta.annotations ?? {};
  const bad: string[] = [];
  const check = (key: string) => {
    const v = annotations[key];
    if (v !== undefined && !validAnnotationValue(v)) bad.push(`${key}=${goQuote(v)}`);
  };
  check(keys.pod);
  for (const c of allContainers(spec)) check(keys.containerPrefix + c.name);
  const list = sortedSet(bad);
  return list.length > 0
    ? forbidden('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', list.length)} ${list.join(', ')}`)
    : allowed;
}

/**
 * Who sets an invalid seccomp profile type (`pod`, `containers "a", "b"`) and the types, or
 * none when no one does; shared with the restricted check.
 */
export function badSeccompSetters(spec: PodSpec): { setters: string[]; types: string[] } {
  const setters: string[] = [];
  const types: string[] = [];
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile && !validSeccompType(podProfile.type)) {
    setters.push('pod');
    types.push(podProfile.type ?? '');
  }
  const bad: string[] = [];
  for (const c of allContainers(spec)) {
    const p = c.securityContext?.seccompProfile;
    if (p && !validSeccompType(p.type)) {
      bad.push(c.name);
      types.push(p.type ?? '');
    }
  }
  if (bad.length > 0) setters.push(containersNamed(bad));
  return { setters, types: sortedSet(types) };
}

/** The refusal of explicitly bad seccomp profile types. */
export const badSeccompResult = ({ setters, types }: { setters: string[]; types: string[] }): CheckResult =>
  forbidden('seccompProfile', `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(types)}`);

/** The check, reading the alpha annotations under `keys` for versions before v1.19. */
export function checkSeccompBaseline(keys: SeccompAnnotationKeys): Check {
  return {
    id: seccompBaselineID,
    level: 'baseline',
    versions: [
      { minimumVersion: 0, checkPod: (meta, spec) => seccompAnnotations(meta, spec, keys) },
      {
        minimumVersion: 19,
        checkPod: (_meta, spec) => {
          const bad = badSeccompSetters(spec);
          return bad.setters.length > 0 ? badSeccompResult(bad) : allowed;
        },
      },
    ],
  };
}
