// Rules of Node (upstream ValidateNode, ValidateNodeUpdate): taints unique by key and effect with
// qualified keys and label values, pod CIDRs that parse (one per IP family) and that, like the
// provider ID, cannot change once set.
import type { Node, NodeSpec, Taint } from '../../../api/core/v1/node.js';
import { duplicate, forbidden, invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import { parseCidr } from '../networking/cidr.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { isLabelValue, isQualifiedName, nameIsDNSSubdomain } from '../validation/names.js';

/** Upstream's validateNodeTaints. */
export function validateTaints(taints: readonly Taint[] | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (taints ?? []).forEach((t, i) => {
    const p = path.index(i);
    for (const m of isQualifiedName(t.key)) errs.push(invalid(p.child('key'), t.key, m));
    if (t.value) for (const m of isLabelValue(t.value)) errs.push(invalid(p.child('value'), t.value, m));
    // The schema's enum refuses an unknown effect.
    const id = `${t.effect}\u0000${t.key}`;
    if (seen.has(id)) {
      errs.push({ ...duplicate(p, t), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(id);
  });
  return errs;
}

function validatePodCIDRs(spec: NodeSpec | undefined): FieldError[] {
  const cidrs = spec?.podCIDRs ?? [];
  const path = Path.root('spec').child('podCIDRs');
  const errs: FieldError[] = [];
  const parsed = cidrs.map((c, i) => {
    const cidr = parseCidr(c);
    if (!cidr) errs.push(invalid(path.index(i), c, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
    return cidr;
  });
  if (errs.length === 0 && cidrs.length > 1) {
    const dualStack = cidrs.length === 2 && parsed[0]!.addr.kind() !== parsed[1]!.addr.kind();
    if (!dualStack) errs.push(invalid(path, cidrs, 'may specify no more than one CIDR for each IP family'));
  }
  return errs;
}

function validateConfigSource(spec: NodeSpec | undefined): FieldError[] {
  const cm = spec?.configSource?.configMap;
  if (!cm) return [];
  const p = Path.root('spec').child('configSource').child('configMap');
  const errs: FieldError[] = [];
  if (cm.uid) errs.push(forbidden(p.child('uid'), 'uid must not be set in spec'));
  if (cm.resourceVersion) errs.push(forbidden(p.child('resourceVersion'), 'resourceVersion must not be set in spec'));
  return errs;
}

function validateNode(node: Node): FieldError[] {
  return [
    ...validateTaints(node.spec?.taints, Path.root('spec').child('taints')),
    ...validatePodCIDRs(node.spec),
    ...validateConfigSource(node.spec),
  ];
}

const onceSet = (field: string) => `node updates may not change ${field} except from "" to valid`;

function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  const errs = validateNode(node);
  const oldCIDRs = old.spec?.podCIDRs ?? [];
  const cidrs = node.spec?.podCIDRs ?? [];
  if (oldCIDRs.length > 0) {
    const podCIDRsPath = Path.root('spec').child('podCIDRs');
    if (oldCIDRs.length !== cidrs.length) errs.push(forbidden(podCIDRsPath, onceSet('podCIDR')));
    else oldCIDRs.forEach((c, i) => { if (c !== cidrs[i]) errs.push(forbidden(podCIDRsPath, onceSet('podCIDR'))); });
  }
  const oldProvider = old.spec?.providerID ?? '';
  if (oldProvider !== '' && oldProvider !== (node.spec?.providerID ?? '')) {
    errs.push(forbidden(Path.root('spec').child('providerID'), onceSet('providerID')));
  }
  return errs;
}

/** Node names are DNS subdomains; status updates check the spec rules too, as upstream does. */
export const nodeValidation: KindValidation<Node> = {
  name: nameIsDNSSubdomain,
  validate: validateNode,
  validateUpdate: validateNodeUpdate,
  validateStatusUpdate: validateNodeUpdate,
};

/**
 * Upstream keeps podCIDR and podCIDRs in step (the v1 conversion): a lone podCIDR becomes the
 * list, and podCIDR always shows the first entry of the list.
 */
export function syncPodCIDRs(node: Node): void {
  const spec = node.spec;
  if (!spec) return;
  if ((spec.podCIDRs ?? []).length === 0 && spec.podCIDR) spec.podCIDRs = [spec.podCIDR];
  if ((spec.podCIDRs ?? []).length > 0) spec.podCIDR = spec.podCIDRs![0]!;
}
