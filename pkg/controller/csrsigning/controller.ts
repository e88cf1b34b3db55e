// The csrsigning controller (upstream's CSRSigningController, one per built-in signer there, one
// queue here dispatching on spec.signerName): an approved, not failed, not yet issued request of
// a built-in signer whose CA is configured gets its certificate in status.certificate — or, when
// it breaks its signer's rules, a Failed condition (reason SignerValidationFailure) instead.
// Denied requests are never signed. Lifetime, backdating and usages follow the permissive signing
// policy (pkg/util/certificates/signing-policy.ts).
import { signerNames } from '../../../api/certificates/v1/register.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import { parseCSR } from '../../util/certificates/csr.js';
import { issueCertificate, requestSubjectAndKey } from '../../util/certificates/issue.js';
import { checkBuiltInSigner } from '../../util/certificates/signers.js';
import { certificateLifetimeMs, certificateValidity } from '../../util/certificates/signing-policy.js';
import { certificateQueue, csrResource, hasTrueCondition, isApproved, isIssued, metaNow, requestPem, type CSR } from '../certificate-requests.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';
import { CAProvider, type SigningFiles } from './ca-provider.js';

/** Which built-in signer a pair of files is for, by the short names upstream's flags use. */
export type SignerKey = 'kubeletServing' | 'kubeletClient' | 'kubeAPIServerClient' | 'legacyUnknown';

export interface CSRSigningOptions {
  /** The CA files of each signer that signs; a signer without files is left alone. */
  signers: Partial<Record<SignerKey, SigningFiles>>;
  /** --cluster-signing-duration: the longest lifetime issued. */
  durationMs: number;
  /** The clock (tests move it). */
  now?: () => Date;
}

/** Upstream runs each signing controller with 5 workers, not a flag. */
const workers = 5;

class CSRSigningController implements Controller {
  readonly name = 'csrsigning';

  constructor(private readonly options: CSRSigningOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { logger, signal } = ctx;
    const now = this.options.now ?? (() => new Date());
    const names = signerNames(ctx.domain);
    const bySigner = new Map<string, CAProvider>();
    const signerName: Record<SignerKey, string> = {
      kubeletServing: names.kubeletServing, kubeletClient: names.kubeAPIServerClientKubelet,
      kubeAPIServerClient: names.kubeAPIServerClient, legacyUnknown: names.legacyUnknown,
    };
    for (const [key, files] of Object.entries(this.options.signers) as [SignerKey, SigningFiles][]) {
      bySigner.set(signerName[key], new CAProvider(files, logger));
    }
    const r = csrResource(ctx.domain);
    const informer = ctx.informers.forResource<CSR>(r.group, r.version, r.resource);
    const client = ctx.client.resource<CSR>(r.group, r.version, r.resource);
    const queue = certificateQueue();
    const remove = informer.addEventHandler({ onAdd: (c) => queue.add(c.metadata.name!), onUpdate: (_o, c) => queue.add(c.metadata.name!) });

    const sync = async (name: string) => {
      const csr = informer.indexer.get('', name);
      if (!csr || isIssued(csr) || !isApproved(csr) || hasTrueCondition(csr, 'Failed')) return;
      const signer = csr.spec?.signerName ?? '';
      const ca = bySigner.get(signer);
      if (!ca) return;
      const parsed = parseCSR(requestPem(csr));
      if (!parsed.ok) throw new Error(`unable to parse csr "${name}": ${parsed.error}`);
      const req = parsed.csr;
      const usages = csr.spec?.usages ?? [];
      const check = checkBuiltInSigner(names, signer, {
        commonName: req.subject.commonName, organizations: req.subject.organizations,
        dnsNames: req.dnsNames, emailAddresses: req.emailAddresses, ipAddresses: req.ipAddresses, uris: req.uris,
      }, usages);
      if (!check) return;
      if (check.violation !== undefined) {
        const failed = { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: check.violation, lastUpdateTime: metaNow(now()) };
        try {
          await client.updateStatus({ ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), failed] } });
        } catch (e) {
          if (isNotFound(e)) return;
          if (isConflict(e)) throw e;
          throw new Error(`error adding failure condition for csr: ${(e as Error).message}`, { cause: e });
        }
        logger.info('certificate request breaks its signer\'s rules, marked Failed', { csr: name, signerName: signer, reason: check.violation });
        return;
      }
      const authority = ca.current();
      let pem: string;
      try {
        const ttl = certificateLifetimeMs(csr.spec?.expirationSeconds, this.options.durationMs);
        const validity = certificateValidity(now(), ttl, authority.notAfter);
        pem = issueCertificate(authority, { ...requestSubjectAndKey(req.raw), dnsNames: req.dnsNames, emailAddresses: req.emailAddresses, ipAddresses: req.ipAddresses, uris: req.uris }, usages, validity);
      } catch (e) {
        throw new Error(`error auto signing csr: ${(e as Error).message}`, { cause: e });
      }
      try {
        await client.updateStatus({ ...csr, status: { ...csr.status, certificate: Buffer.from(pem).toString('base64') } });
      } catch (e) {
        if (isNotFound(e)) return;
        if (isConflict(e)) throw e;
        throw new Error(`error updating signature for csr: ${(e as Error).message}`, { cause: e });
      }
      logger.info('signed a certificate', { csr: name, signerName: signer, subject: req.subject.string, requestor: csr.spec?.username ?? '' });
    };

    try {
      if (!(await waitForCaches(signal, [informer]))) return;
      logger.info('starting the certificate signing controller', { signers: [...bySigner.keys()].join(','), duration: `${this.options.durationMs / 1000}s`, workers });
      await runWorkers(this.name, queue, workers, signal, sync, logger);
    } finally {
      remove();
      queue.shutDown();
    }
  }
}

/** The controller signing with `options` (run() throws when a configured CA does not load). */
export function newCSRSigningController(options: CSRSigningOptions): ControllerFactory {
  return () => new CSRSigningController(options);
}
