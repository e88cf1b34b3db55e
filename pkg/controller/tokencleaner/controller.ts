// The token cleaner (upstream's pkg/controller/bootstrap/tokencleaner.go; spec 3.3): a bootstrap
// token Secret in orch-system whose `expiration` has passed is deleted (with a UID precondition, so
// a Secret made anew under the same name is never the one removed); one not yet expired is looked
// at again when it expires. Off unless named in --controllers, as upstream.
import { BootstrapTokenNamespace } from '../../../api/core/v1/bootstrap-token.js';
import { secretTypes, type Secret } from '../../../api/core/v1/secret.js';
import { bootstrapTokenExpiry } from '../../authentication/bootstrap/secret.js';
import { RateLimitingQueue, deletedObject, isConflict, isNotFound, objectKey, splitKey, type DeletedFinalStateUnknown, type KubeObject } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { runWorkers, waitForCaches, type Requeue } from '../queue-workers.js';

type SecretObject = Secret & KubeObject;

export interface TokenCleanerOptions {
  /** The clock expirations are compared with (ms since the epoch); tests move it. */
  now?: () => number;
  /** Where token Secrets live; orch-system (upstream has no flag for it either). */
  namespace?: string;
}

class TokenCleaner implements Controller {
  readonly name = 'tokencleaner';

  constructor(private readonly options: TokenCleanerOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { logger, signal } = ctx;
    const now = this.options.now ?? Date.now;
    const namespace = this.options.namespace ?? BootstrapTokenNamespace;
    const tokenType = secretTypes(ctx.domain).bootstrapToken;
    const secrets = ctx.informers.forResource<SecretObject>('', 'v1', 'secrets');
    const client = ctx.client.resource<SecretObject>('', 'v1', 'secrets').namespace(namespace);
    const queue = new RateLimitingQueue<string>();
    const ours = (s: SecretObject) => s.metadata.namespace === namespace && s.type === tokenType;
    const enqueue = (o: SecretObject | DeletedFinalStateUnknown<SecretObject>) => {
      const s = deletedObject(o);
      if (ours(s)) queue.add(objectKey(s));
    };

    const sync = async (key: string): Promise<void | Requeue> => {
      const { namespace: ns, name } = splitKey(key);
      const secret = secrets.indexer.get(ns, name);
      if (!secret || !ours(secret)) return;
      const expiry = bootstrapTokenExpiry(secret, now());
      if (!expiry.expired) {
        if (expiry.remainingMs <= 0) return; // never expires
        logger.v(4).info('bootstrap token secret not expired yet; looking again when it expires', { namespace: ns, secret: name, expiresInMs: expiry.remainingMs });
        return { requeueAfterMs: expiry.remainingMs };
      }
      const uid = secret.metadata.uid;
      try {
        await client.delete(name, uid ? { preconditions: { uid } } : {});
      } catch (e) {
        // Gone already, or replaced under the same name (the precondition failed): nothing of ours left.
        if (isNotFound(e) || isConflict(e)) return;
        throw e;
      }
      // The reason names the Secret and its expiration, never the token secret.
      logger.info('deleted an expired bootstrap token secret', { namespace: ns, secret: name, reason: expiry.reason });
    };

    const remove = secrets.addEventHandler({ onAdd: enqueue, onUpdate: (_o, s) => enqueue(s) });
    try {
      if (!(await waitForCaches(signal, [secrets]))) return;
      logger.info('starting the token cleaner', { namespace });
      await runWorkers(this.name, queue, 1, signal, sync, logger);
    } finally {
      remove();
      queue.shutDown();
    }
  }
}

/** The token cleaner (`now` injectable for tests). */
export function tokenCleanerController(options: TokenCleanerOptions = {}): ControllerFactory {
  return () => new TokenCleaner(options);
}
