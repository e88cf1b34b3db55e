// Baseline, from v1.0: no AppArmor profile other than the runtime's default or a local one, whether
// set in a security context (appArmorProfile.type RuntimeDefault or Localhost) or in the older
// per-container annotations `container.apparmor.security.beta.<keyDomain>/<container>`
// (`runtime/default`, `localhost/<name>` or empty).
import { goQuote } from '../../../util/go-quote.js';
import { allContainers, allowed, containersNamed, forbidden, joinQuote, pluralize, sortedSet, type Check } from '../check.js';

const allowedTypes = new Set(['RuntimeDefault', 'Localhost']);
const allowedAnnotationValue = (v: string) => v === '' || v === 'runtime/default' || v.startsWith('localhost/');

/** The check, reading annotations whose keys start with `annotationPrefix`. */
export function checkAppArmorProfile(annotationPrefix: string): Check {
  return {
    id: 'appArmorProfile',
    level: 'baseline',
    versions: [{
      minimumVersion: 0,
      checkPod: (meta, spec) => {
        const setters: string[] = [];
        const badValues: string[] = [];
        const podType = spec.securityContext?.appArmorProfile?.type;
        if (spec.securityContext?.appArmorProfile && !allowedTypes.has(podType ?? '')) {
          setters.push('pod');
          badValues.push(podType ?? '');
        }
        const bad: string[] = [];
        for (const c of allContainers(spec)) {
          const profile = c.securityContext?.appArmorProfile;
          if (profile && !allowedTypes.has(profile.type ?? '')) {
            bad.push(c.name);
            badValues.push(profile.type ?? '');
          }
        }
        if (bad.length > 0) setters.push(containersNamed(bad));
        const values = sortedSet(badValues);
        const annotations = Object.entries(meta.annotations ?? {})
          .filter(([k, v]) => k.startsWith(annotationPrefix) && !allowedAnnotationValue(v))
          .map(([k, v]) => `${k}=${goQuote(v)}`)
          .sort();
        if (annotations.length > 0) {
          values.push(...annotations);
          setters.push(pluralize('annotation', 'annotations', annotations.length));
        }
        if (setters.length === 0) return allowed;
        return forbidden(
          pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
          `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`,
        );
      },
    }],
  };
}
