// Upstream IsDomainPrefixedPath: `<DNS subdomain>/<HTTP path>`, as an IngressClass's controller
// and a Job's managedBy are written.
import { invalid, type FieldError, type Path } from '../../runtime/field-errors.js';
import { isDNS1123Subdomain } from './names.js';

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = new RegExp(`^${httpPathFmt}$`);

export function validateDomainPrefixedPath(value: string, path: Path): FieldError[] {
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host.length === 0 || rest.length === 0) {
    return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs = isDNS1123Subdomain(host).map((m) => invalid(path, host, m));
  if (!httpPathRe.test(rest)) errs.push(invalid(path, rest, `must be a valid path (regex used for validation is '${httpPathFmt}')`));
  return errs;
}
