// Rules of APIService (upstream ValidateAPIService; the schema's enum checks condition statuses): the name is
// <version>.<group>, the priorities stay in range, a local APIService has no TLS settings, and a
// service reference names a namespace, a name and a valid port, with either a caBundle or
// insecureSkipTLSVerify, never both.
import type { APIService } from '../../../api/apiregistration/v1/api-service.js';
import { invalid, Path, required, type FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum, nameIsPathSegment } from '../validation/names.js';

const spec = Path.root('spec');

function validate(s: APIService): FieldError[] {
  const errs: FieldError[] = [];
  const group = s.spec?.group ?? '';
  const version = s.spec?.version ?? '';
  const requiredName = `${version}.${group}`;
  const name = s.metadata?.name ?? '';
  // The path-segment rules run as the name's own check; the version.group rule needs the spec.
  if (name !== '' && nameIsPathSegment(name, false).length === 0 && name !== requiredName) {
    errs.push(invalid(Path.root('metadata').child('name'), name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`));
  }
  if (group === '' && version !== 'v1') errs.push(required(spec.child('group'), 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const m of isDNS1123Subdomain(group)) errs.push(invalid(spec.child('group'), group, m));
  for (const m of isDNS1035Label(version)) errs.push(invalid(spec.child('version'), version, m));
  const gp = s.spec?.groupPriorityMinimum ?? 0;
  if (gp <= 0 || gp > 20000) errs.push(invalid(spec.child('groupPriorityMinimum'), gp, 'must be positive and less than 20000'));
  const vp = s.spec?.versionPriority ?? 0;
  if (vp <= 0 || vp > 1000) errs.push(invalid(spec.child('versionPriority'), vp, 'must be positive and less than 1000'));
  const caBytes = Buffer.from(s.spec?.caBundle ?? '', 'base64').length;
  const skip = s.spec?.insecureSkipTLSVerify === true;
  const svc = s.spec?.service;
  if (!svc) {
    if (caBytes !== 0) errs.push(invalid(spec.child('caBundle'), `${caBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (skip) errs.push(invalid(spec.child('insecureSkipTLSVerify'), skip, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  const sp = spec.child('service');
  if (!svc.namespace) errs.push(required(sp.child('namespace')));
  if (!svc.name) errs.push(required(sp.child('name')));
  const portErrs = isValidPortNum(svc.port ?? 0);
  if (portErrs.length > 0) errs.push(invalid(sp.child('port'), svc.port ?? 0, `port is not valid: ${portErrs.join(', ')}`));
  if (skip && caBytes > 0) errs.push(invalid(spec.child('insecureSkipTLSVerify'), skip, 'may not be true if caBundle is present'));
  return errs;
}

export const apiServiceValidation: KindValidation<APIService> = {
  name: nameIsPathSegment,
  validate,
  validateUpdate: (s) => validate(s),
};
