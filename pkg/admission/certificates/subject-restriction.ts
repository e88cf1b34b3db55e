// The CertificateSubjectRestriction plug-in (upstream plugin/pkg/admission/certificates/
// subjectrestriction): a CertificateSigningRequest for the <domain>/kube-apiserver-client signer
// whose subject names the group system:masters is refused, since such a certificate would be
// allowed everything whatever the authorizers say.
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type Attributes, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';
import { parseCSR } from '../../util/certificates/csr.js';
import { MastersGroup } from '../../runtime/user.js';

export const PluginName = 'CertificateSubjectRestriction';

export class CertificateSubjectRestrictionPlugin implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE');
  constructor(private readonly group: string, private readonly signerName: string) {}

  async validate(a: Attributes): Promise<void> {
    if (a.resource.group !== this.group || a.resource.resource !== 'certificatesigningrequests' || a.subresource !== '') return;
    const spec = (a.object?.['spec'] ?? {}) as { signerName?: unknown; request?: unknown };
    if (spec.signerName !== this.signerName) return;
    const parsed = parseCSR(Buffer.from(typeof spec.request === 'string' ? spec.request : '', 'base64'));
    if (!parsed.ok) throw newAdmissionForbidden(a, `unable to parse CSR: ${parsed.error}`);
    if (parsed.csr.subject.organizations.includes(MastersGroup)) {
      throw newAdmissionForbidden(a, `use of ${this.signerName} signer with ${MastersGroup} group is not allowed`);
    }
  }
}

export const certificateSubjectRestrictionFactory: PluginFactory = (_configuration: unknown, deps: PluginDeps) =>
  new CertificateSubjectRestrictionPlugin(deps.domain.group('certificates'), deps.domain.key('kube-apiserver-client'));
