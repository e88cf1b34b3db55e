// The csrapproving controller (upstream's sarApprover): a pending request for the
// kube-apiserver-client-kubelet signer that is a node client request (O exactly system:nodes,
// CN system:node:<name>, no SANs, the kubelet client usages) is approved when a
// SubjectAccessReview says its requester may `create` the certificatesigningrequests
// sub-resource `selfnodeclient` (a node renewing its own certificate: requester == CN) or
// `nodeclient` (anyone else, e.g. a bootstrap token). Otherwise the request is left alone (and
// looked at again with backoff, so a binding created later still takes effect).
import { signerNames } from '../../../api/certificates/v1/register.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import type { KubeObject } from '../../client/resource-client.js';
import { parseCSR, type CertificateRequest } from '../../util/certificates/csr.js';
import { kubeletClientViolation } from '../../util/certificates/signers.js';
import { certificateQueue, approvalState, csrResource, isIssued, requestPem, type CSR } from '../certificate-requests.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { RetryLater, runWorkers, waitForCaches } from '../queue-workers.js';

interface Recognizer {
  recognize(csr: CSR, req: CertificateRequest): boolean;
  subresource: string;
  message: string;
}

interface SubjectAccessReview extends KubeObject {
  spec: Record<string, unknown>;
  status?: { allowed?: boolean; denied?: boolean; reason?: string };
}

/** Upstream's fixed worker count. */
const workers = 5;

class CSRApprovingController implements Controller {
  readonly name = 'csrapproving';

  async run(ctx: ControllerContext): Promise<void> {
    const { logger, signal, domain } = ctx;
    const kubeletSigner = signerNames(domain).kubeAPIServerClientKubelet;
    const isNodeClient = (csr: CSR, req: CertificateRequest) => csr.spec?.signerName === kubeletSigner && kubeletClientViolation({
      commonName: req.subject.commonName, organizations: req.subject.organizations,
      dnsNames: req.dnsNames, emailAddresses: req.emailAddresses, ipAddresses: req.ipAddresses, uris: req.uris,
    }, csr.spec?.usages ?? []) === undefined;
    // In upstream's order: a node's own renewal first, so its narrower permission is what is asked.
    const recognizers: Recognizer[] = [
      { recognize: (csr, req) => csr.spec?.username === req.subject.commonName && isNodeClient(csr, req), subresource: 'selfnodeclient', message: 'Auto approving self kubelet client certificate after SubjectAccessReview.' },
      { recognize: isNodeClient, subresource: 'nodeclient', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' },
    ];
    const r = csrResource(domain);
    const informer = ctx.informers.forResource<CSR>(r.group, r.version, r.resource);
    const client = ctx.client.resource<CSR>(r.group, r.version, r.resource);
    const reviews = ctx.client.resource<SubjectAccessReview>(domain.group('authorization'), 'v1', 'subjectaccessreviews');
    const queue = certificateQueue();
    const remove = informer.addEventHandler({ onAdd: (c) => queue.add(c.metadata.name!), onUpdate: (_o, c) => queue.add(c.metadata.name!) });

    const authorize = async (csr: CSR, subresource: string): Promise<boolean> => {
      const spec = csr.spec ?? {};
      const review = await reviews.create({
        apiVersion: `${domain.group('authorization')}/v1`, kind: 'SubjectAccessReview', metadata: {},
        spec: {
          user: spec.username ?? '', uid: spec.uid ?? '', groups: spec.groups ?? [], extra: spec.extra ?? {},
          resourceAttributes: { group: r.group, resource: r.resource, verb: 'create', subresource },
        },
      });
      return review.status?.allowed === true;
    };

    const sync = async (name: string) => {
      const csr = informer.indexer.get('', name);
      if (!csr || isIssued(csr)) return;
      const { approved, denied } = approvalState(csr);
      if (approved || denied) return;
      const parsed = parseCSR(requestPem(csr));
      if (!parsed.ok) throw new Error(`unable to parse csr "${name}": ${parsed.error}`);
      const tried: string[] = [];
      for (const rec of recognizers) {
        if (!rec.recognize(csr, parsed.csr)) continue;
        tried.push(rec.subresource);
        if (!(await authorize(csr, rec.subresource))) continue;
        const condition = { type: 'Approved', status: 'True', reason: 'AutoApproved', message: rec.message };
        try {
          await client.updateApproval({ ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), condition] } });
        } catch (e) {
          if (isNotFound(e)) return;
          if (isConflict(e)) throw e;
          throw new Error(`error updating approval for csr: ${(e as Error).message}`, { cause: e });
        }
        logger.info('approved a node client certificate request', { csr: name, requestor: csr.spec?.username ?? '', subject: parsed.csr.subject.string, permission: rec.subresource });
        return;
      }
      if (tried.length > 0) throw new RetryLater(`recognized csr "${name}" as [${tried.join(' ')}] but subject access review was not approved`);
    };

    try {
      if (!(await waitForCaches(signal, [informer]))) return;
      logger.info('starting the certificate approving controller', { signerName: kubeletSigner, workers });
      await runWorkers(this.name, queue, workers, signal, sync, logger);
    } finally {
      remove();
      queue.shutDown();
    }
  }
}

export function newCSRApprovingController(): ControllerFactory {
  return () => new CSRApprovingController();
}
