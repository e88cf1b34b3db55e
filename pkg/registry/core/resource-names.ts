// Resource names in resource lists (quota, limit ranges) and the rules upstream's core helper
// applies to them: standard names, fully qualified extended names, integer-valued resources.
import { invalid, type FieldError, type Path } from '../../runtime/field-errors.js';
import { isQualifiedName } from '../validation/names.js';

const requestsPrefix = 'requests.';
const hugePagesPrefix = 'hugepages-';
const requestsHugePagesPrefix = 'requests.hugepages-';

const standardResources = new Set([
  'cpu', 'memory', 'ephemeral-storage',
  'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage',
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps',
  'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);

const standardQuotaResources = new Set([
  'cpu', 'memory', 'ephemeral-storage',
  'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage',
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'persistentvolumeclaims',
  'configmaps', 'services.nodeports', 'services.loadbalancers',
]);

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

const integerResources = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps',
  'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers',
]);

const isQuotaHugePages = (name: string) => name.startsWith(hugePagesPrefix) || name.startsWith(requestsHugePagesPrefix);

export const isHugePageResourceName = (name: string) => name.startsWith(hugePagesPrefix);

export function isStandardQuotaResourceName(name: string): boolean {
  return standardQuotaResources.has(name) || isQuotaHugePages(name);
}

/** A qualified name that is either standard or carries a domain prefix. */
export function validateResourceName(name: string, path: Path): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !(standardResources.has(name) || isQuotaHugePages(name))) {
    errs.push(invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** A resource a quota may limit. */
export function validateQuotaResourceName(name: string, path: Path): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) {
    errs.push(invalid(path, name, 'must be a standard resource for quota'));
  }
  return errs;
}

/**
 * The rules that depend on the platform's domain: names in it count as native, as upstream's
 * `kubernetes.io/` names do, and anything else with a prefix is a vendor's extended resource.
 */
export class ResourceNames {
  private readonly nativePrefix: string;

  constructor(keyDomain: string) {
    this.nativePrefix = `${keyDomain}/`;
  }

  /** Unprefixed names and names in the platform's domain. */
  isNative(name: string): boolean {
    return !name.includes('/') || name.includes(this.nativePrefix);
  }

  /** A vendor resource such as `example.com/gpu`. */
  isExtended(name: string): boolean {
    if (this.isNative(name) || name.startsWith(requestsPrefix)) return false;
    return isQualifiedName(requestsPrefix + name).length === 0;
  }

  /** Resources counted in whole units. */
  isInteger(name: string): boolean {
    return integerResources.has(name) || this.isExtended(name);
  }

  /** Whether a limit's default may differ from its default request (not for hugepages or extended resources). */
  isOvercommitAllowed(name: string): boolean {
    return this.isNative(name) && !isHugePageResourceName(name);
  }

  /** A resource a container (or pod) may be limited in. */
  validateContainerResourceName(name: string, path: Path): FieldError[] {
    const errs = validateResourceName(name, path);
    if (!name.includes('/')) {
      if (!standardContainerResources.has(name) && !isHugePageResourceName(name)) {
        errs.push(invalid(path, name, 'must be a standard resource for containers'));
      }
    } else if (!this.isNative(name) && !this.isExtended(name)) {
      errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
    }
    return errs;
  }
}
