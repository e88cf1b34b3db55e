// Label maps as upstream's apimachinery labels package handles them for PodNodeSelector: a
// selector of `key=value` pairs parsed into a map (ConvertSelectorToLabelsMap, with its
// messages), whether two maps disagree on a key, and whether a map stays within a whitelist.
import { errorBody, invalid } from '../../runtime/field-errors.js';
import { isLabelValue, isQualifiedName } from '../../registry/validation/names.js';

export type LabelsMap = Record<string, string>;

/** `a=b,c=d` as a map; '' is the empty map. Throws upstream's error for anything else. */
export function selectorToLabelsMap(selector: string): LabelsMap {
  const out: LabelsMap = {};
  if (selector === '') return out;
  for (const label of selector.split(',')) {
    const parts = label.split('=');
    // Go prints the pieces as a list: `invalid selector: [a b c]`.
    if (parts.length !== 2) throw new Error(`invalid selector: [${parts.join(' ')}]`);
    const key = parts[0]!.trim();
    const value = parts[1]!.trim();
    const keyErrs = isQualifiedName(key);
    // Upstream checks these without a field path: the key's error has an empty field, the value's is `[key]`.
    if (keyErrs.length) throw new Error(`: ${errorBody(invalid('', key, keyErrs.join('; ')))}`);
    const valueErrs = isLabelValue(value);
    if (valueErrs.length) throw new Error(`[${key}]: ${errorBody(invalid('', value, valueErrs.join('; ')))}`);
    out[key] = value;
  }
  return out;
}

/** Whether some key is in both maps with different values (upstream's labels.Conflicts). */
export function conflicts(a: LabelsMap, b: LabelsMap): boolean {
  return Object.entries(a).some(([k, v]) => Object.hasOwn(b, k) && b[k] !== v);
}

/** Whether every label is in the whitelist with the same value; an empty whitelist allows all (labels.AreLabelsInWhiteList). */
export function inWhitelist(labels: LabelsMap, whitelist: LabelsMap): boolean {
  if (Object.keys(whitelist).length === 0) return true;
  return Object.entries(labels).every(([k, v]) => Object.hasOwn(whitelist, k) && whitelist[k] === v);
}
