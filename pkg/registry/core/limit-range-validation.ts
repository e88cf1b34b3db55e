// Rules of LimitRange (upstream ValidateLimitRange): limit types, resource names per type, and
// the ordering min <= defaultRequest <= default <= max with a sane maxLimitRequestRatio.
import { StandardLimitTypes, type LimitRange, type LimitRangeItem } from '../../../api/core/v1/limit-range.js';
import { duplicate, forbidden, invalid, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { parseQuantity } from '../../runtime/quantity.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../validation/names.js';
import { validateResourceName, type ResourceNames } from './resource-names.js';

interface Parsed {
  value: number;
  /** As the client wrote it, for messages. */
  text: string;
}

const standardTypes: ReadonlySet<string> = new Set(StandardLimitTypes);

function validateLimitType(type: string, path: Path): FieldError[] {
  const errs = isQualifiedName(type).map((m) => invalid(path, type, m));
  if (errs.length === 0 && !type.includes('/') && !standardTypes.has(type)) {
    errs.push(invalid(path, type, 'must be a standard limit type or fully qualified'));
  }
  return errs;
}

type ResourceMap = Record<string, string | number> | undefined;

function validateItem(item: LimitRangeItem, p: Path, errs: FieldError[], names: ResourceNames): void {
  const type = item.type ?? '';
  const checkName = type === 'Pod' || type === 'Container' ? (n: string, at: Path) => names.validateContainerResourceName(n, at) : validateResourceName;
  const keys = new Set<string>();
  const collect = (list: ResourceMap, field: string): Map<string, Parsed> => {
    const out = new Map<string, Parsed>();
    for (const [k, v] of Object.entries(list ?? {})) {
      errs.push(...checkName(k, p.child(field).key(k)));
      keys.add(k);
      // A malformed quantity is reported by the schema; it takes part in no comparison.
      const value = parseQuantity(v);
      if (value !== undefined) out.set(k, { value, text: String(v) });
    }
    return out;
  };

  const max = collect(item.max, 'max');
  const min = collect(item.min, 'min');
  let defaults = new Map<string, Parsed>();
  let defaultRequests = new Map<string, Parsed>();
  if (type === 'Pod') {
    if (Object.keys(item.default ?? {}).length > 0) errs.push(forbidden(p.child('default'), "may not be specified when `type` is 'Pod'"));
    if (Object.keys(item.defaultRequest ?? {}).length > 0) errs.push(forbidden(p.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
  } else {
    defaults = collect(item.default, 'default');
    defaultRequests = collect(item.defaultRequest, 'defaultRequest');
  }
  if (type === 'PersistentVolumeClaim' && !(item.min && 'storage' in item.min) && !(item.max && 'storage' in item.max)) {
    errs.push(required(p.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
  }
  const ratios = collect(item.maxLimitRequestRatio, 'maxLimitRequestRatio');

  const gt = (a: Parsed, b: Parsed) => a.value > b.value;
  for (const k of keys) {
    const mn = min.get(k);
    const mx = max.get(k);
    const def = defaults.get(k);
    const req = defaultRequests.get(k);
    const ratio = ratios.get(k);
    if (mn && mx && gt(mn, mx)) {
      errs.push(invalid(p.child('min').key(k), mn.text, `min value ${mn.text} is greater than max value ${mx.text}`));
    }
    if (req && mn && gt(mn, req)) {
      errs.push(invalid(p.child('defaultRequest').key(k), req.text, `min value ${mn.text} is greater than default request value ${req.text}`));
    }
    if (req && mx && gt(req, mx)) {
      errs.push(invalid(p.child('defaultRequest').key(k), req.text, `default request value ${req.text} is greater than max value ${mx.text}`));
    }
    if (req && def && gt(req, def)) {
      errs.push(invalid(p.child('defaultRequest').key(k), req.text, `default request value ${req.text} is greater than default limit value ${def.text}`));
    }
    if (def && mn && gt(mn, def)) {
      errs.push(invalid(p.child('default').key(k), mn.text, `min value ${mn.text} is greater than default value ${def.text}`));
    }
    if (def && mx && gt(def, mx)) {
      errs.push(invalid(p.child('default').key(k), mx.text, `default value ${def.text} is greater than max value ${mx.text}`));
    }
    if (ratio && ratio.value < 1) {
      errs.push(invalid(p.child('maxLimitRequestRatio').key(k), ratio.text, `ratio ${ratio.text} is less than 1`));
    }
    if (ratio && mn && mx) {
      const limit = mx.value / mn.value;
      if (ratio.value > limit) {
        errs.push(invalid(p.child('maxLimitRequestRatio').key(k), ratio.text, `ratio ${ratio.text} is greater than max/min = ${limit.toFixed(6)}`));
      }
    }
    // Hugepages and extended resources cannot be overcommitted: request and limit must agree.
    if (!names.isOvercommitAllowed(k) && def && req && def.value !== req.value) {
      errs.push(invalid(p.child('defaultRequest').key(k), req.text, `default value ${def.text} must equal to defaultRequest value ${req.text} in ${k}`));
    }
  }
}

function validateLimitRange(lr: LimitRange, names: ResourceNames): FieldError[] {
  const errs: FieldError[] = [];
  const path = Path.root('spec').child('limits');
  const types = new Set<string>();
  (lr.spec?.limits ?? []).forEach((item, i) => {
    const p = path.index(i);
    const type = item.type ?? '';
    errs.push(...validateLimitType(type, p.child('type')));
    if (types.has(type)) errs.push(duplicate(p.child('type'), type));
    types.add(type);
    validateItem(item, p, errs, names);
  });
  return errs;
}

/** LimitRange rules; resource names in the platform's domain are native. */
export const limitRangeValidation = (names: ResourceNames): KindValidation<LimitRange> => ({
  name: nameIsDNSSubdomain,
  validate: (lr) => validateLimitRange(lr, names),
  validateUpdate: (lr) => validateLimitRange(lr, names),
});
