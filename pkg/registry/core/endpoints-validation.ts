// Rules of Endpoints (upstream ValidateEndpointsCreate, ValidateEndpointsUpdate): every subset
// has addresses, every address is a usable IP, every port is numbered, named when there are
// several and of a supported protocol.
import type { EndpointAddress, EndpointPort, Endpoints } from '../../../api/core/v1/endpoints.js';
import { invalid, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { ipBytes } from '../../util/ip.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum, nameIsDNSSubdomain } from '../validation/names.js';

/**
 * Upstream's ValidateNonSpecialIP: addresses that make no sense as an endpoint (unspecified,
 * loopback) or belong to the node itself (link-local, link-local multicast) are refused.
 */
export function validateNonSpecialIP(ip: string, path: Path): FieldError[] {
  const b = ipBytes(ip);
  if (!b) return [invalid(path, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  const errs: FieldError[] = [];
  const v4 = b.length === 4;
  if (b.every((x) => x === 0)) errs.push(invalid(path, ip, `may not be unspecified (${ip})`));
  const loopback = v4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  if (loopback) errs.push(invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  const linkLocal = v4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
  if (linkLocal) errs.push(invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  const linkLocalMulticast = v4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 0x02;
  if (linkLocalMulticast) errs.push(invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function validateAddress(a: EndpointAddress, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  // Upstream reports a malformed ip twice (IsValidIP, then ValidateNonSpecialIP); one cause here.
  // A missing ip (a null in the body) is the schema's required error alone.
  if (typeof a.ip === 'string') errs.push(...validateNonSpecialIP(a.ip, path.child('ip')));
  if (a.hostname) for (const m of isDNS1123Label(a.hostname)) errs.push(invalid(path.child('hostname'), a.hostname, m));
  if (a.nodeName !== undefined) for (const m of isDNS1123Subdomain(a.nodeName)) errs.push(invalid(path.child('nodeName'), a.nodeName, m));
  return errs;
}

function validatePort(port: EndpointPort, requireName: boolean, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const name = port.name ?? '';
  if (requireName && name === '') errs.push(required(path.child('name')));
  else if (name !== '') for (const m of isDNS1123Label(name)) errs.push(invalid(path.child('name'), name, m));
  for (const m of isValidPortNum(port.port)) errs.push(invalid(path.child('port'), port.port, m));
  // protocol: the defaulter turns "" into TCP and the schema's enum refuses other values.
  if (port.appProtocol !== undefined) for (const m of isQualifiedName(port.appProtocol)) errs.push(invalid(path.child('appProtocol'), port.appProtocol, m));
  return errs;
}

function validateEndpoints(ep: Endpoints): FieldError[] {
  const errs: FieldError[] = [];
  (ep.subsets ?? []).forEach((ss, i) => {
    const idx = Path.root('subsets').index(i);
    const addresses = ss.addresses ?? [];
    const notReady = ss.notReadyAddresses ?? [];
    if (addresses.length === 0 && notReady.length === 0) errs.push(required(idx, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateAddress(a, idx.child('addresses').index(j))));
    notReady.forEach((a, j) => errs.push(...validateAddress(a, idx.child('notReadyAddresses').index(j))));
    const ports = ss.ports ?? [];
    ports.forEach((p, j) => errs.push(...validatePort(p, ports.length > 1, idx.child('ports').index(j))));
  });
  return errs;
}

export const endpointsValidation: KindValidation<Endpoints> = {
  name: nameIsDNSSubdomain,
  validate: validateEndpoints,
  validateUpdate: (ep) => validateEndpoints(ep),
};
