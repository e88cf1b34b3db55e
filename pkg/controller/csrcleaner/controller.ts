// The csrcleaner controller (upstream's CSRCleanerController): every hour (and once at the start)
// it goes through the cached certificate signing requests and deletes those cleanupReason names.
// The clock and the period are injectable so a test can look hours ahead without waiting.
import { isNotFound } from '../../client/errors.js';
import { csrResource, type CSR } from '../certificate-requests.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { waitForCaches } from '../queue-workers.js';
import { cleanupReason } from './cleanup.js';

export interface CSRCleanerOptions {
  /** The clock the table is read against. */
  now?: () => Date;
  /** How often the requests are looked through; upstream's one hour. */
  pollIntervalMs?: number;
}

export const pollingIntervalMs = 3600_000;

class CSRCleanerController implements Controller {
  readonly name = 'csrcleaner';

  constructor(private readonly options: CSRCleanerOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { logger, signal } = ctx;
    const now = this.options.now ?? (() => new Date());
    const r = csrResource(ctx.domain);
    const informer = ctx.informers.forResource<CSR>(r.group, r.version, r.resource);
    const client = ctx.client.resource<CSR>(r.group, r.version, r.resource);

    const pass = async () => {
      for (const csr of informer.indexer.list()) {
        const name = csr.metadata.name!;
        let reason: string | undefined;
        try {
          reason = cleanupReason(csr, now());
        } catch (e) {
          logger.error('error while attempting to clean CSR', { csr: name, err: (e as Error).message });
          continue;
        }
        if (!reason) continue;
        try {
          // The uid precondition: a request made again under the same name is judged on its own.
          await client.delete(name, { preconditions: { uid: csr.metadata.uid! } });
          logger.info('deleted a certificate signing request', { csr: name, reason });
        } catch (e) {
          if (isNotFound(e)) continue;
          logger.error('error while attempting to clean CSR', { csr: name, err: `unable to delete CSR "${name}": ${(e as Error).message}` });
        }
        if (signal.aborted) return;
      }
    };

    if (!(await waitForCaches(signal, [informer]))) return;
    logger.info('starting the certificate signing request cleaner', { period: `${(this.options.pollIntervalMs ?? pollingIntervalMs) / 1000}s` });
    while (!signal.aborted) {
      await pass();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.options.pollIntervalMs ?? pollingIntervalMs);
        function done() {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }
}

export function newCSRCleanerController(options: CSRCleanerOptions = {}): ControllerFactory {
  return () => new CSRCleanerController(options);
}
