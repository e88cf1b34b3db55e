// The CertificateSigning plug-in (upstream plugin/pkg/admission/certificates/signing): an update
// through a CertificateSigningRequest's status sub-resource that changes status.certificate needs
// the `sign` verb on the request's signer (the stored object's signer name, or `<domain>/*`).
import { isDeepStrictEqual } from 'node:util';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type Attributes, type AuthorizeFunc, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

export const PluginName = 'CertificateSigning';

const certificateOf = (obj: Record<string, unknown> | undefined): unknown => (obj?.['status'] as { certificate?: unknown } | undefined)?.certificate ?? '';
const signerNameOf = (obj: Record<string, unknown> | undefined): string => {
  const spec = obj?.['spec'] as { signerName?: unknown } | undefined;
  return typeof spec?.signerName === 'string' ? spec.signerName : '';
};

export class CertificateSigningPlugin implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('UPDATE');
  constructor(private readonly authorize: AuthorizeFunc, private readonly group: string) {}

  async validate(a: Attributes): Promise<void> {
    if (a.subresource !== 'status' || a.resource.group !== this.group || a.resource.resource !== 'certificatesigningrequests') return;
    // Only a change of the certificate is signing; other status writes pass.
    if (isDeepStrictEqual(certificateOf(a.oldObject), certificateOf(a.object))) return;
    const signerName = signerNameOf(a.oldObject);
    if (!(await isAuthorizedForSignerName(this.authorize, this.group, a.userInfo, 'sign', signerName))) {
      throw newAdmissionForbidden(a, `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
    }
  }
}

export const certificateSigningFactory: PluginFactory = (_configuration: unknown, deps: PluginDeps) => {
  if (!deps.authorize) throw new Error(`${PluginName}: no authorizer`);
  return new CertificateSigningPlugin(deps.authorize, deps.domain.group('certificates'));
};
