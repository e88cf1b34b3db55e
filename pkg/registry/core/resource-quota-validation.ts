// Rules of ResourceQuota (upstream ValidateResourceQuota and its update and status variants):
// resource names and non-negative amounts, known scopes fitting the limited resources, scope
// selector operators, and scopes that never change.
import type { ResourceQuota, ResourceQuotaSpec } from '../../../api/core/v1/resource-quota.js';
import { ResourceQuotaScopes } from '../../../api/core/v1/resource-quota.js';
import { invalid, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { parseQuantity } from '../../runtime/quantity.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { isStandardQuotaResourceName, validateQuotaResourceName, type ResourceNames } from './resource-names.js';

const standardScopes: ReadonlySet<string> = new Set(ResourceQuotaScopes);
const podCountResources = new Set(['pods']);
const podComputeResources = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);
const claimResources = new Set(['persistentvolumeclaims', 'requests.storage']);

/** Whether a quota scope can track the given resource. */
function scopeFitsResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return podCountResources.has(resource) || podComputeResources.has(resource);
    case 'BestEffort':
      return podCountResources.has(resource);
    case 'VolumeAttributesClass':
      return claimResources.has(resource);
    default:
      return true;
  }
}

/** Scopes whose only meaningful operator is Exists. */
const existsOnlyScopes = new Set(['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity']);
const conflictingScopes: [string, string][] = [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']];

function validateResourceList(list: Record<string, string | number> | undefined, path: Path, names: ResourceNames): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(list ?? {})) {
    const p = path.key(k);
    errs.push(...validateQuotaResourceName(k, p));
    const q = parseQuantity(v);
    if (q === undefined) continue; // a malformed quantity is reported by the schema
    if (q < 0) errs.push(invalid(p, String(v), 'must be greater than or equal to 0'));
    if (names.isInteger(k) && !Number.isInteger(q)) errs.push(invalid(p, String(v), 'must be an integer'));
  }
  return errs;
}

function validateScopes(spec: ResourceQuotaSpec, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const scopes = spec.scopes ?? [];
  if (scopes.length === 0) return errs;
  const p = path.child('scopes');
  const hard = Object.keys(spec.hard ?? {}).sort();
  for (const scope of scopes) {
    if (!standardScopes.has(scope)) errs.push(invalid(p, scopes, 'unsupported scope'));
    for (const r of hard) {
      if (isStandardQuotaResourceName(r) && !scopeFitsResource(scope, r)) errs.push(invalid(p, scopes, 'unsupported scope applied to resource'));
    }
  }
  for (const [a, b] of conflictingScopes) {
    if (scopes.includes(a) && scopes.includes(b)) errs.push(invalid(p, scopes, 'conflicting scopes'));
  }
  return errs;
}

function validateScopeSelector(spec: ResourceQuotaSpec, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const selector = spec.scopeSelector;
  if (!selector) return errs;
  // Upstream reports these without the index of the expression.
  const p = path.child('scopeSelector').child('matchExpressions');
  const hard = Object.keys(spec.hard ?? {}).sort();
  const names = new Set<string>();
  for (const req of selector.matchExpressions ?? []) {
    if (!standardScopes.has(req.scopeName)) errs.push(invalid(p.child('scopeName'), req.scopeName, 'unsupported scope'));
    for (const r of hard) {
      if (isStandardQuotaResourceName(r) && !scopeFitsResource(req.scopeName, r)) errs.push(invalid(p, selector, 'unsupported scope applied to resource'));
    }
    if (existsOnlyScopes.has(req.scopeName) && req.operator !== 'Exists') {
      errs.push(invalid(p.child('operator'), req.operator,
        "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"));
    }
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push(required(p.child('values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push(invalid(p.child('values'), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        }
        break;
      default:
        errs.push(invalid(p.child('operator'), req.operator, 'not a valid selector operator'));
    }
    names.add(req.scopeName);
  }
  for (const [a, b] of conflictingScopes) {
    if (names.has(a) && names.has(b)) errs.push(invalid(p, spec.scopes ?? null, 'conflicting scopes'));
  }
  return errs;
}

function validateSpec(rq: ResourceQuota, names: ResourceNames): FieldError[] {
  const spec = rq.spec ?? {};
  const path = Path.root('spec');
  return [
    ...validateResourceList(spec.hard, path.child('hard'), names),
    ...validateScopes(spec, path),
    ...validateScopeSelector(spec, path),
  ];
}

function validateStatus(rq: ResourceQuota, names: ResourceNames): FieldError[] {
  const path = Path.root('status');
  return [
    ...validateResourceList(rq.status?.hard, path.child('hard'), names),
    ...validateResourceList(rq.status?.used, path.child('used'), names),
  ];
}

function sameScopes(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = new Set(a ?? []);
  const y = new Set(b ?? []);
  return x.size === y.size && [...x].every((s) => y.has(s));
}

/** ResourceQuota rules; resource names in the platform's domain are native. */
export const resourceQuotaValidation = (names: ResourceNames): KindValidation<ResourceQuota> => ({
  name: nameIsDNSSubdomain,
  validate: (rq) => [...validateSpec(rq, names), ...validateStatus(rq, names)],
  validateUpdate(rq, old) {
    const errs = validateSpec(rq, names);
    if (!sameScopes(rq.spec?.scopes, old.spec?.scopes)) {
      errs.push(invalid(Path.root('spec').child('scopes'), rq.spec?.scopes ?? null, 'field is immutable'));
    }
    return errs;
  },
  validateStatusUpdate: (rq) => validateStatus(rq, names),
});
