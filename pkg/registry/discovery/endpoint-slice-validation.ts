// Rules of EndpointSlice (upstream ValidateEndpointSliceCreate, ValidateEndpointSliceUpdate) beyond
// its schema (addressType and protocols as enums, the counts as maxItems): each endpoint has an
// address of the slice's type (usable IPs for IPv4 and IPv6, domain names for FQDN), a node name
// and host name of the right form and hints without repeated zones; ports have unique names; the
// address type never changes.
import {
  maxEndpointsPerSlice, maxPortsPerSlice, maxZoneHints, type Endpoint, type EndpointPort, type EndpointSlice,
} from '../../../api/discovery/v1/endpoint-slice.js';
import { duplicate, invalid, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { ipBytes } from '../../util/ip.js';
import { validateNonSpecialIP } from '../core/endpoints-validation.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { fullyQualifiedDomainNameProblem, isDNS1123Label, isDNS1123Subdomain, isLabelValue, isQualifiedName, nameIsDNSSubdomain } from '../validation/names.js';

function validateAddress(address: string, addressType: string, path: Path): FieldError[] {
  switch (addressType) {
    case 'IPv4':
    case 'IPv6': {
      // Upstream adds ValidateNonSpecialIP's "must be a valid IP address" to a malformed one; one cause here.
      const bytes = ipBytes(address);
      const want = addressType === 'IPv4' ? 4 : 16;
      if (!bytes || bytes.length !== want) return [invalid(path, address, `must be a valid ${addressType} address`)];
      return validateNonSpecialIP(address, path);
    }
    case 'FQDN': {
      if (address === '') return [required(path)];
      const problem = fullyQualifiedDomainNameProblem(address);
      return problem ? [invalid(path, problem[0], problem[1])] : [];
    }
    default:
      // Unknown types are the schema's NotSupported error; their addresses are not read.
      return [];
  }
}

function validateEndpoint(ep: Endpoint, addressType: string, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const addressPath = path.child('addresses');
  const addresses = ep.addresses ?? [];
  // An absent list is the schema's required error; an empty one is refused here, as upstream words it.
  if (ep.addresses !== undefined && addresses.length === 0) errs.push(required(addressPath, 'must contain at least 1 address'));
  // Beyond maxAddressesPerEndpoint the schema counts them; each is still read, as upstream does.
  addresses.forEach((a, i) => errs.push(...validateAddress(a, addressType, addressPath.index(i))));
  if (ep.nodeName !== undefined) for (const m of isDNS1123Subdomain(ep.nodeName)) errs.push(invalid(path.child('nodeName'), ep.nodeName, m));
  if (ep.hostname !== undefined) for (const m of isDNS1123Label(ep.hostname)) errs.push(invalid(path.child('hostname'), ep.hostname, m));
  const zones = ep.hints?.forZones ?? [];
  if (zones.length <= maxZoneHints) {
    const seen = new Set<string>();
    zones.forEach((z, i) => {
      const namePath = path.child('hints', 'forZones').index(i).child('name');
      if (typeof z.name !== 'string') return;
      if (seen.has(z.name)) errs.push(duplicate(namePath, z.name));
      seen.add(z.name);
      for (const m of isLabelValue(z.name)) errs.push(invalid(namePath, z.name, m));
    });
  }
  return errs;
}

function validatePorts(ports: EndpointPort[]): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const path = Path.root('ports').index(i);
    const name = p.name ?? '';
    if (name !== '') for (const m of isDNS1123Label(name)) errs.push(invalid(path.child('name'), name, m));
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    names.add(name);
    // protocol: the schema's default fills an absent one and its enum refuses the rest.
    if (p.appProtocol !== undefined) for (const m of isQualifiedName(p.appProtocol)) errs.push(invalid(path.child('appProtocol'), p.appProtocol, m));
  });
  return errs;
}

function validateEndpointSlice(s: EndpointSlice): FieldError[] {
  const errs: FieldError[] = [];
  const endpoints = s.endpoints ?? [];
  // Over the limit, upstream reports the count alone (the schema's maxItems) and reads no endpoint.
  if (endpoints.length <= maxEndpointsPerSlice) {
    endpoints.forEach((ep, i) => errs.push(...validateEndpoint(ep, s.addressType, Path.root('endpoints').index(i))));
  }
  const ports = s.ports ?? [];
  if (ports.length <= maxPortsPerSlice) errs.push(...validatePorts(ports));
  return errs;
}

export const endpointSliceValidation: KindValidation<EndpointSlice> = {
  name: nameIsDNSSubdomain,
  validate: validateEndpointSlice,
  validateUpdate: (s, old) => [
    ...validateEndpointSlice(s),
    ...validateImmutableField(s.addressType, old.addressType, Path.root('addressType')),
  ],
};
