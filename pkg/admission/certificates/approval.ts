// The CertificateApproval plug-in (upstream plugin/pkg/admission/certificates/approval): an update
// of a CertificateSigningRequest's approval sub-resource needs the `approve` verb on the request's
// signer (resource `signers`, name the signer name or `<domain>/*`). The new object's signer is
// the one checked, so a request cannot be approved under another signer's permission.
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type Attributes, type AuthorizeFunc, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

export const PluginName = 'CertificateApproval';

const signerNameOf = (obj: Record<string, unknown> | undefined): string => {
  const spec = obj?.['spec'] as { signerName?: unknown } | undefined;
  return typeof spec?.signerName === 'string' ? spec.signerName : '';
};

export class CertificateApprovalPlugin implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('UPDATE');
  constructor(private readonly authorize: AuthorizeFunc, private readonly group: string) {}

  async validate(a: Attributes): Promise<void> {
    if (a.subresource !== 'approval' || a.resource.group !== this.group || a.resource.resource !== 'certificatesigningrequests') return;
    const signerName = signerNameOf(a.object);
    if (!(await isAuthorizedForSignerName(this.authorize, this.group, a.userInfo, 'approve', signerName))) {
      throw newAdmissionForbidden(a, `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
    }
  }
}

export const certificateApprovalFactory: PluginFactory = (_configuration: unknown, deps: PluginDeps) => {
  if (!deps.authorize) throw new Error(`${PluginName}: no authorizer`);
  return new CertificateApprovalPlugin(deps.authorize, deps.domain.group('certificates'));
};
