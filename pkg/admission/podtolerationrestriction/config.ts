// The PodTolerationRestriction configuration (upstream's podtolerationrestriction.admission.k8s.io
// Configuration): the cluster's default tolerations and whitelist, used for namespaces that set
// no annotation of their own.
import type { Toleration } from '../../../api/core/v1/toleration.js';
import type { ApiDomain } from '../../../api/domain.js';
import { errorMessage, Path } from '../../runtime/field-errors.js';
import { validateTolerations } from '../../registry/core/pod-template-validation.js';
import { configObject } from '../config-kind.js';
import { decodeTolerations } from '../podutil/tolerations.js';

export interface PodTolerationRestrictionConfig {
  /** Tolerations merged into new pods of namespaces without a defaultTolerations annotation. */
  default: Toleration[];
  /** The tolerations pods of namespaces without a tolerationsWhitelist annotation may have; empty allows all. */
  whitelist: Toleration[];
}

const versions = ['v1alpha1', 'v1'];
/**
 * Upstream registers the kind `Configuration`; its documentation shows `PodTolerationRestrictionConfig`,
 * so both are taken.
 */
const kinds = ['Configuration', 'PodTolerationRestrictionConfig'];

/**
 * Reads the configuration given in the admission configuration file (undefined: none, so no
 * cluster defaults and no whitelist). Group `podtolerationrestriction.admission.<domain>` or
 * upstream's `.k8s.io`, version v1alpha1 or v1. Throws on a malformed or invalid configuration.
 */
export function loadConfiguration(configuration: unknown, domain: ApiDomain): PodTolerationRestrictionConfig {
  if (configuration === undefined || configuration === null) return { default: [], whitelist: [] };
  const c = configObject(configuration, { prefix: 'podtolerationrestriction.admission', versions, kinds }, domain);
  const out = { default: decodeTolerations(c['default']), whitelist: decodeTolerations(c['whitelist']) };
  const root = Path.root('podtolerationrestriction');
  const errs = [...validateTolerations(out.default, root.child('default')), ...validateTolerations(out.whitelist, root.child('whitelist'))];
  if (errs.length > 0) throw new Error(`invalid config: [${errs.map(errorMessage).join(', ')}]`);
  return out;
}
