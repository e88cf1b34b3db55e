// Rules of NetworkPolicy (upstream ValidateNetworkPolicy and its update): selectors, peers
// (ipBlock alone, at least one field), CIDRs with excepts inside them, ports and port ranges,
// and at most two policy types.
import type { IPBlock, NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from '../../../api/networking/v1/network-policy.js';
import { forbidden, invalid, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateConditions } from '../validation/conditions.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateLabelSelector } from '../validation/label-selector.js';
import { isValidPortName, isValidPortNum, nameIsDNSSubdomain } from '../validation/names.js';
import { isStrictSubset, parseCidr } from './cidr.js';

const cidrHint = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

export function validateNetworkPolicyPort(port: NetworkPolicyPort, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const { port: p, endPort } = port;
  if (p === undefined || p === null) {
    if (endPort !== undefined) errs.push(invalid(path.child('endPort'), endPort, 'may not be specified when `port` is not specified'));
  } else if (typeof p === 'number') {
    for (const m of isValidPortNum(p)) errs.push(invalid(path.child('port'), p, m));
    if (endPort !== undefined) {
      if (endPort < p) errs.push(invalid(path.child('endPort'), endPort, 'must be greater than or equal to `port`'));
      for (const m of isValidPortNum(endPort)) errs.push(invalid(path.child('endPort'), endPort, m));
    }
  } else {
    if (endPort !== undefined) errs.push(invalid(path.child('endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    for (const m of isValidPortName(p)) errs.push(invalid(path.child('port'), p, m));
  }
  return errs;
}

/**
 * The block's CIDR and excepts; each except must lie strictly inside the CIDR. Values already in
 * the stored policy (`allowed`) are not re-checked for format, so old objects stay updatable.
 */
export function validateIPBlock(block: IPBlock, path: Path, allowed: ReadonlySet<string> = new Set()): FieldError[] {
  const errs: FieldError[] = [];
  if (!block.cidr) return [required(path.child('cidr'))];
  const cidr = parseCidr(block.cidr);
  if (!cidr) {
    if (!allowed.has(block.cidr)) errs.push(invalid(path.child('cidr'), block.cidr, cidrHint));
    return errs;
  }
  (block.except ?? []).forEach((text, i) => {
    const p = path.child('except').index(i);
    const except = parseCidr(text);
    if (!except) {
      if (!allowed.has(text)) errs.push(invalid(p, text, cidrHint));
      return;
    }
    if (!isStrictSubset(except, cidr)) errs.push(invalid(p, text, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

export function validateNetworkPolicyPeer(peer: NetworkPolicyPeer, path: Path, allowed?: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  let fields = 0;
  if (peer.podSelector) {
    fields++;
    errs.push(...validateLabelSelector(peer.podSelector, path.child('podSelector')));
  }
  if (peer.namespaceSelector) {
    fields++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, path.child('namespaceSelector')));
  }
  if (peer.ipBlock) {
    fields++;
    errs.push(...validateIPBlock(peer.ipBlock, path.child('ipBlock'), allowed));
  }
  if (fields === 0) errs.push(required(path, 'must specify a peer'));
  else if (fields > 1 && peer.ipBlock) errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateSpec(np: NetworkPolicy, allowed?: ReadonlySet<string>): FieldError[] {
  const spec = np.spec;
  if (!spec) return [];
  const errs: FieldError[] = [];
  const path = Path.root('spec');
  errs.push(...validateLabelSelector(spec.podSelector, path.child('podSelector')));
  (spec.ingress ?? []).forEach((rule, i) => {
    const p = path.child('ingress').index(i);
    (rule.ports ?? []).forEach((port, j) => errs.push(...validateNetworkPolicyPort(port, p.child('ports').index(j))));
    (rule.from ?? []).forEach((peer, j) => errs.push(...validateNetworkPolicyPeer(peer, p.child('from').index(j), allowed)));
  });
  (spec.egress ?? []).forEach((rule, i) => {
    const p = path.child('egress').index(i);
    (rule.ports ?? []).forEach((port, j) => errs.push(...validateNetworkPolicyPort(port, p.child('ports').index(j))));
    (rule.to ?? []).forEach((peer, j) => errs.push(...validateNetworkPolicyPeer(peer, p.child('to').index(j), allowed)));
  });
  // Each value is checked by the schema's enum; only the count is left.
  const types = spec.policyTypes ?? [];
  if (types.length > 2) errs.push(invalid(path.child('policyTypes'), types, 'may not specify more than two policyTypes'));
  return errs;
}

/** Every CIDR written in the stored policy. */
function existingCidrs(np: NetworkPolicy): Set<string> {
  const out = new Set<string>();
  const peers = [
    ...(np.spec?.ingress ?? []).flatMap((r) => r.from ?? []),
    ...(np.spec?.egress ?? []).flatMap((r) => r.to ?? []),
  ];
  for (const peer of peers) {
    if (!peer.ipBlock) continue;
    out.add(peer.ipBlock.cidr);
    for (const e of peer.ipBlock.except ?? []) out.add(e);
  }
  return out;
}

export const networkPolicyValidation: KindValidation<NetworkPolicy> = {
  name: nameIsDNSSubdomain,
  validate: (np) => validateSpec(np),
  validateUpdate: (np, old) => validateSpec(np, existingCidrs(old)),
  validateStatusUpdate: (np) => validateConditions(np.status?.conditions, Path.root('status').child('conditions')),
};
