// The bootstrap signer (upstream's pkg/controller/bootstrap/bootstrapsigner.go; spec 2.12): the
// ConfigMap cluster-info in orch-public carries, beside `kubeconfig`, one `jws-kubeconfig-<id>`
// per bootstrap token that may sign (well-formed, not expired, `usage-bootstrap-signing: true`):
// a detached HS256 JWS of `kubeconfig` keyed with the full token (pkg/util/bootstrap/jws.ts, the
// code a joining machine verifies with). Every other `jws-kubeconfig-*` key goes: a deleted,
// expired or no-longer-signing token's, and any that is not the right signature. The ConfigMap is
// written only when a key changes, with the resourceVersion it was read at (a conflict re-queues).
// Unlike upstream, which only notices an expiry when the Secret changes or is cleaned, a
// signature is removed when its token expires. Off unless named in --controllers, as upstream.
import { BootstrapTokenKeys, BootstrapTokenNamespace, ClusterInfo } from '../../../api/core/v1/bootstrap-token.js';
import type { ConfigMap } from '../../../api/core/v1/config-map.js';
import { secretTypes, type Secret } from '../../../api/core/v1/secret.js';
import { parseBootstrapTokenSecret } from '../../authentication/bootstrap/secret.js';
import { RateLimitingQueue, deletedObject, isNotFound, type DeletedFinalStateUnknown, type KubeObject } from '../../client/index.js';
import { signDetached } from '../../util/bootstrap/jws.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { runWorkers, waitForCaches, type Requeue } from '../queue-workers.js';

type SecretObject = Secret & KubeObject;
type ConfigMapObject = ConfigMap & KubeObject;

export interface BootstrapSignerOptions {
  /** The clock token expirations are compared with (ms since the epoch); tests move it. */
  now?: () => number;
  /** Where token Secrets live; orch-system. */
  tokenNamespace?: string;
  /** Where cluster-info lives; orch-public. */
  configMapNamespace?: string;
}

/** The one thing there is to sync: everything funnels into a look at cluster-info. */
const syncKey = ClusterInfo.name;
const signingUsage = BootstrapTokenKeys.usageSigning.slice(BootstrapTokenKeys.usagePrefix.length);

/** A token that may sign, and until when. */
interface SigningToken { tokenId: string; tokenSecret: string; expiration?: number }

class BootstrapSigner implements Controller {
  readonly name = 'bootstrapsigner';

  constructor(private readonly options: BootstrapSignerOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { logger, signal } = ctx;
    const now = this.options.now ?? Date.now;
    const tokenNamespace = this.options.tokenNamespace ?? BootstrapTokenNamespace;
    const cmNamespace = this.options.configMapNamespace ?? ClusterInfo.namespace;
    const tokenType = secretTypes(ctx.domain).bootstrapToken;
    const secrets = ctx.informers.forResource<SecretObject>('', 'v1', 'secrets');
    const configMaps = ctx.informers.forResource<ConfigMapObject>('', 'v1', 'configmaps');
    const client = ctx.client.resource<ConfigMapObject>('', 'v1', 'configmaps').namespace(cmNamespace);
    const queue = new RateLimitingQueue<string>();
    const isToken = (s: SecretObject) => s.metadata.namespace === tokenNamespace && s.type === tokenType;
    const isClusterInfo = (cm: ConfigMapObject) => cm.metadata.namespace === cmNamespace && cm.metadata.name === ClusterInfo.name;
    const poke = () => queue.add(syncKey);
    const onSecret = (o: SecretObject | DeletedFinalStateUnknown<SecretObject>) => isToken(deletedObject(o)) && poke();
    const onConfigMap = (o: ConfigMapObject | DeletedFinalStateUnknown<ConfigMapObject>) => isClusterInfo(deletedObject(o)) && poke();

    /** The tokens that may sign at `at`, by id (upstream's getTokens with validateSecretForSigning). */
    const signingTokens = (at: number): SigningToken[] => {
      const out: SigningToken[] = [];
      for (const s of secrets.indexer.byNamespace(tokenNamespace)) {
        if (!isToken(s)) continue;
        const parsed = parseBootstrapTokenSecret(s, tokenType);
        if ('error' in parsed) {
          logger.v(3).info('bootstrap token secret cannot sign', { namespace: tokenNamespace, secret: s.metadata.name, reason: parsed.error });
          continue;
        }
        const t = parsed.token;
        // The token cleaner deletes an expired token, but it may be off or not there yet.
        if (t.expiration !== undefined && t.expiration <= at) continue;
        if (!t.usages.includes(signingUsage)) continue;
        out.push({ tokenId: t.tokenId, tokenSecret: t.tokenSecret, ...(t.expiration !== undefined ? { expiration: t.expiration } : {}) });
      }
      return out;
    };

    const sync = async (): Promise<void | Requeue> => {
      const cm = configMaps.indexer.get(cmNamespace, ClusterInfo.name);
      if (!cm) return;
      const content = cm.data?.[ClusterInfo.kubeconfigKey];
      if (content === undefined) {
        logger.v(3).info('no key in the ConfigMap to sign', { namespace: cmNamespace, configMap: ClusterInfo.name, key: ClusterInfo.kubeconfigKey });
        return;
      }
      const at = now();
      const tokens = signingTokens(at);
      const current = cm.data ?? {};
      const data: Record<string, string> = {};
      for (const [k, v] of Object.entries(current)) if (!k.startsWith(ClusterInfo.signatureKeyPrefix)) data[k] = v;
      const added: string[] = [];
      const changed: string[] = [];
      for (const t of tokens) {
        const key = ClusterInfo.signatureKeyPrefix + t.tokenId;
        data[key] = await signDetached(content, t);
        if (!(key in current)) added.push(t.tokenId);
        else if (current[key] !== data[key]) changed.push(t.tokenId);
      }
      const removed = Object.keys(current).filter((k) => k.startsWith(ClusterInfo.signatureKeyPrefix) && !(k in data)).map((k) => k.slice(ClusterInfo.signatureKeyPrefix.length));
      // Look again when the first signing token expires, to take its signature away.
      const expirations = tokens.flatMap((t) => (t.expiration !== undefined ? [t.expiration - at] : []));
      const requeue: Requeue | undefined = expirations.length ? { requeueAfterMs: Math.max(1, Math.min(...expirations)) } : undefined;
      if (!added.length && !changed.length && !removed.length) {
        logger.v(4).info('cluster-info signatures are current', { namespace: cmNamespace, configMap: ClusterInfo.name, tokens: tokens.map((t) => t.tokenId).join(',') });
        return requeue;
      }
      try {
        // The cached object's resourceVersion: a ConfigMap changed since is a conflict, retried from the newer cache.
        await client.update({ ...cm, data });
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      // Token ids are public (the `kid` of every signature); the secrets never leave the signatures.
      logger.info('signed cluster-info', { namespace: cmNamespace, configMap: ClusterInfo.name, added: added.join(','), resigned: changed.join(','), removed: removed.join(',') });
      return requeue;
    };

    const removers = [
      secrets.addEventHandler({ onAdd: onSecret, onUpdate: (_o, s) => onSecret(s), onDelete: onSecret }),
      configMaps.addEventHandler({ onAdd: onConfigMap, onUpdate: (_o, cm) => onConfigMap(cm), onDelete: onConfigMap }),
    ];
    try {
      if (!(await waitForCaches(signal, [secrets, configMaps]))) return;
      logger.info('starting the bootstrap signer', { tokenNamespace, configMap: `${cmNamespace}/${ClusterInfo.name}` });
      await runWorkers(this.name, queue, 1, signal, sync, logger);
    } finally {
      for (const r of removers) r();
      queue.shutDown();
    }
  }
}

/** The bootstrap signer (`now` injectable for tests). */
export function bootstrapSignerController(options: BootstrapSignerOptions = {}): ControllerFactory {
  return () => new BootstrapSigner(options);
}
