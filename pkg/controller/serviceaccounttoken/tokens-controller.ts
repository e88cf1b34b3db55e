// The serviceaccount-token controller (upstream's TokensController; spec 000 5.5.6) for legacy
// token Secrets (type `<keyDomain>/service-account-token`, annotated with the account's name):
// - a token Secret whose account exists gets `token` (a never-expiring legacy JWT signed with
//   --service-account-private-key-file), `ca.crt` (the root CA) and `namespace`, and the account's
//   uid annotation;
// - a token Secret naming a missing account (or one of another uid) is deleted;
// - when an account is deleted, its token Secrets are deleted;
// - when a token Secret is deleted, the account's `secrets` stops referring to it.
// Two queues, as upstream: service accounts and secrets, each with --concurrent-serviceaccount-token-syncs workers.
import type { Secret } from '../../../api/core/v1/secret.js';
import { SecretKeys, secretTypes, serviceAccountAnnotations } from '../../../api/core/v1/secret.js';
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import {
  RateLimitingQueue, deletedObject, isConflict, isNotFound, type DeletedFinalStateUnknown, type KubeObject,
} from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { RetryLater, runWorkers, waitForCaches } from '../queue-workers.js';
import { LegacyTokenGenerator } from './legacy-token.js';

type SecretObject = Secret & KubeObject;
type Account = ServiceAccount & KubeObject;

/** What identifies an account across its deletion (the cache no longer has it then). */
interface AccountRef { namespace: string; name: string; uid: string }
/** What identifies a token Secret and the account it names. */
interface SecretRef { namespace: string; name: string; uid: string; saName: string; saUID: string }

export interface ServiceAccountTokenOptions {
  /** PEM of --service-account-private-key-file. */
  privateKeyPem: string;
}

/** Data keys of a token Secret besides `token` (upstream's ServiceAccountRootCAKey, ServiceAccountNamespaceKey). */
const rootCAKey = 'ca.crt';
const namespaceKey = 'namespace';
/** Upstream's maxRetries: a key that keeps failing is dropped until its next event. */
const maxRetries = 10;
/** A Secret changed between cache and live read: look again, with backoff, once the cache has caught up. */
const staleSecret = () => new RetryLater('the token secret changed since it was cached; retrying');

class TokensController implements Controller {
  readonly name = 'serviceaccount-token';

  constructor(private readonly options: ServiceAccountTokenOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { logger, signal, domain } = ctx;
    const tokenType = secretTypes(domain).serviceAccountToken;
    const ann = serviceAccountAnnotations(domain);
    const generator = new LegacyTokenGenerator(domain, this.options.privateKeyPem);
    const rootCA = ctx.rootCA ? Buffer.from(ctx.rootCA) : undefined;
    const accounts = ctx.informers.forResource<Account>('', 'v1', 'serviceaccounts');
    const secrets = ctx.informers.forResource<SecretObject>('', 'v1', 'secrets');
    const accountsClient = ctx.client.resource<Account>('', 'v1', 'serviceaccounts');
    const secretsClient = ctx.client.resource<SecretObject>('', 'v1', 'secrets');
    const accountQueue = new RateLimitingQueue<string>();
    const secretQueue = new RateLimitingQueue<string>();

    const accountRef = (sa: Account): AccountRef => ({ namespace: sa.metadata.namespace!, name: sa.metadata.name!, uid: sa.metadata.uid ?? '' });
    const secretRef = (s: SecretObject): SecretRef => ({
      namespace: s.metadata.namespace!, name: s.metadata.name!, uid: s.metadata.uid ?? '',
      saName: s.metadata.annotations?.[ann.name] ?? '', saUID: s.metadata.annotations?.[ann.uid] ?? '',
    });
    const isToken = (s: SecretObject) => s.type === tokenType;
    /** Upstream's IsServiceAccountToken: a token Secret naming this account (and its uid, when both are known). */
    const refersTo = (s: SecretObject, sa: AccountRef) => {
      if (!isToken(s) || s.metadata.annotations?.[ann.name] !== sa.name) return false;
      const uid = s.metadata.annotations?.[ann.uid] ?? '';
      return !uid || !sa.uid || uid === sa.uid;
    };
    const enqueueSecret = (o: SecretObject | DeletedFinalStateUnknown<SecretObject>) => {
      const s = deletedObject(o);
      if (isToken(s)) secretQueue.add(JSON.stringify(secretRef(s)));
    };
    const enqueueAccount = (o: Account | DeletedFinalStateUnknown<Account>) => accountQueue.add(JSON.stringify(accountRef(deletedObject(o))));

    /** The account, from the cache or (with `live`) the server, if it exists with `uid` (any uid when empty). */
    const getAccount = async (namespace: string, name: string, uid: string, live: boolean): Promise<Account | undefined> => {
      const cached = accounts.indexer.get(namespace, name);
      if (cached && (!uid || cached.metadata.uid === uid)) return cached;
      if (!live) return undefined;
      try {
        const sa = await accountsClient.namespace(namespace).get(name);
        return !uid || sa.metadata.uid === uid ? sa : undefined;
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    };

    const deleteToken = async (namespace: string, name: string, uid: string, why: string) => {
      try {
        await secretsClient.namespace(namespace).delete(name, uid ? { preconditions: { uid } } : {});
        logger.info('deleted a service account token secret', { namespace, secret: name, reason: why });
      } catch (e) {
        // Gone already, or replaced by a Secret of the same name (the precondition): nothing of ours to delete.
        if (isNotFound(e) || isConflict(e)) return;
        throw e;
      }
    };

    const syncAccount = async (key: string): Promise<void> => {
      const ref = JSON.parse(key) as AccountRef;
      if (await getAccount(ref.namespace, ref.name, ref.uid, false)) return;
      for (const s of secrets.indexer.byNamespace(ref.namespace)) {
        if (refersTo(s, ref)) await deleteToken(ref.namespace, s.metadata.name!, s.metadata.uid ?? '', `service account ${ref.name} was deleted`);
      }
    };

    /** Drops the deleted Secret from the account's `secrets`, when it is listed there. */
    const removeSecretReference = async (ref: SecretRef) => {
      for (let attempt = 0; ; attempt++) {
        let sa: Account;
        try {
          sa = await accountsClient.namespace(ref.namespace).get(ref.saName);
        } catch (e) {
          if (isNotFound(e)) return;
          throw e;
        }
        if (ref.saUID && sa.metadata.uid !== ref.saUID) return;
        const kept = (sa.secrets ?? []).filter((r) => r.name !== ref.name);
        if (kept.length === (sa.secrets ?? []).length) return;
        try {
          await accountsClient.namespace(ref.namespace).update({ ...sa, secrets: kept });
          logger.info('removed a deleted token secret from its service account', { namespace: ref.namespace, serviceAccount: ref.saName, secret: ref.name });
          return;
        } catch (e) {
          if (!isConflict(e) || attempt >= 4) throw e;
        }
      }
    };

    /** Fills what the Secret lacks; throws RetryLater when the live Secret is ahead of the cache or was changed meanwhile. */
    const fillToken = async (sa: Account, cached: SecretObject): Promise<void> => {
      let live: SecretObject;
      try {
        live = await secretsClient.namespace(cached.metadata.namespace!).get(cached.metadata.name!);
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      if (live.metadata.resourceVersion !== cached.metadata.resourceVersion) throw staleSecret();
      const data = { ...(live.data ?? {}) };
      const has = (k: string) => Buffer.from(data[k] ?? '', 'base64').length > 0;
      const needsCA = !!rootCA && !Buffer.from(data[rootCAKey] ?? '', 'base64').equals(rootCA);
      const needsNamespace = !has(namespaceKey);
      const needsToken = !has(SecretKeys.serviceAccountToken);
      if (!needsCA && !needsNamespace && !needsToken) return;
      if (needsCA) data[rootCAKey] = rootCA!.toString('base64');
      if (needsNamespace) data[namespaceKey] = Buffer.from(live.metadata.namespace!).toString('base64');
      if (needsToken) {
        const token = await generator.generate({
          namespace: live.metadata.namespace!, serviceAccountName: sa.metadata.name!, serviceAccountUID: sa.metadata.uid ?? '', secretName: live.metadata.name!,
        });
        data[SecretKeys.serviceAccountToken] = Buffer.from(token).toString('base64');
      }
      const annotations = { ...(live.metadata.annotations ?? {}), [ann.name]: sa.metadata.name!, [ann.uid]: sa.metadata.uid ?? '' };
      try {
        await secretsClient.namespace(live.metadata.namespace!).update({ ...live, metadata: { ...live.metadata, annotations }, data });
      } catch (e) {
        if (isConflict(e) || isNotFound(e)) throw staleSecret();
        throw e;
      }
      const filled = [needsToken && 'token', needsCA && rootCAKey, needsNamespace && namespaceKey].filter(Boolean).join(', ');
      logger.info('filled a service account token secret', { namespace: live.metadata.namespace, secret: live.metadata.name, serviceAccount: sa.metadata.name, filled });
    };

    const syncSecret = async (key: string): Promise<void> => {
      const ref = JSON.parse(key) as SecretRef;
      const cached = secrets.indexer.get(ref.namespace, ref.name);
      const secret = cached && (!ref.uid || cached.metadata.uid === ref.uid) ? cached : undefined;
      if (!secret) {
        // Deleted: the account (if it still exists) stops referring to it.
        if (ref.saName && (await getAccount(ref.namespace, ref.saName, ref.saUID, false))) await removeSecretReference(ref);
        return;
      }
      if (!isToken(secret)) return;
      const sa = ref.saName ? await getAccount(ref.namespace, ref.saName, ref.saUID, true) : undefined;
      if (!sa) {
        await deleteToken(ref.namespace, ref.name, ref.uid, ref.saName ? `service account ${ref.saName}${ref.saUID ? ` (uid ${ref.saUID})` : ''} does not exist` : 'it names no service account');
        return;
      }
      return fillToken(sa, secret);
    };

    const removers = [
      accounts.addEventHandler({ onAdd: enqueueAccount, onUpdate: (_o, sa) => enqueueAccount(sa), onDelete: enqueueAccount }),
      secrets.addEventHandler({ onAdd: enqueueSecret, onUpdate: (_o, s) => enqueueSecret(s), onDelete: enqueueSecret }),
    ];
    try {
      if (!(await waitForCaches(signal, [accounts, secrets]))) return;
      const workers = ctx.concurrency('serviceaccount-token');
      logger.info('starting the service account token controller', { workers });
      await Promise.all([
        runWorkers('serviceaccount-token/serviceaccounts', accountQueue, workers, signal, syncAccount, logger, { maxRetries }),
        runWorkers('serviceaccount-token/secrets', secretQueue, workers, signal, syncSecret, logger, { maxRetries }),
      ]);
    } finally {
      for (const r of removers) r();
      accountQueue.shutDown();
      secretQueue.shutDown();
    }
  }
}

/** The controller signing with `options.privateKeyPem` (check the key first with LegacyTokenGenerator: run() throws on a bad one). */
export function newServiceAccountTokenController(options: ServiceAccountTokenOptions): ControllerFactory {
  return () => new TokensController(options);
}
