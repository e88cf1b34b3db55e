// A label selector printed as Go prints a *metav1.LabelSelector (its generated String()), which
// is what upstream's binding printer shows for a paramRef by selector.
import type { LabelSelector } from '../../meta/v1/types.js';

/** `&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{...},}` */
export function goLabelSelectorString(s: LabelSelector): string {
  const labels = Object.keys(s.matchLabels ?? {}).sort().map((k) => `${k}: ${s.matchLabels![k]},`).join('');
  const expressions = (s.matchExpressions ?? [])
    .map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}
