// --use-service-account-credentials: each controller acts as a service account of its own in the
// system namespace (upstream's kube-system), whose `system:controller:<name>` role the bootstrap
// policy binds, instead of as the manager. As upstream's dynamic client builder, the manager's own
// client makes the account when it is missing and asks the TokenRequest API for a short-lived token,
// asked again once most of its life has passed or as soon as the server refuses it.
import type { ApiDomain } from '../../../api/domain.js';
import { isNotFound, isAlreadyExists, type Client, type TokenSource } from '../../../pkg/client/index.js';

/** Upstream's: a token lives an hour. */
const EXPIRATION_SECONDS = 3600;
/** The share of a token's life after which the next request asks for a new one (upstream leaves 20%). */
const REFRESH_AT = 0.8;

interface TokenRequestAnswer {
  status?: { token?: string; expirationTimestamp?: string };
}

/** Tokens of service account `namespace/name`, obtained with the manager's own `root` client. */
export class ServiceAccountTokenSource implements TokenSource {
  private current: { token: string; refreshAt: number; expiresAt: number } | undefined;
  private fetching: Promise<string> | undefined;
  private accountExists = false;

  constructor(private readonly root: Client, private readonly domain: ApiDomain, private readonly namespace: string, private readonly name: string) {}

  /** A token that is not near its end; a new one when it is, or the old one while asking fails and it still holds. */
  token(): Promise<string> {
    const now = Date.now();
    if (this.current && now < this.current.refreshAt) return Promise.resolve(this.current.token);
    return (this.fetching ??= this.fetch().catch((e: unknown) => {
      if (this.current && Date.now() < this.current.expiresAt) return this.current.token;
      throw e;
    }).finally(() => {
      this.fetching = undefined;
    }));
  }

  refused(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private async fetch(): Promise<string> {
    await this.ensureAccount();
    const path = `/api/v1/namespaces/${this.namespace}/serviceaccounts/${this.name}/token`;
    let answer: TokenRequestAnswer;
    try {
      answer = await this.root.request('POST', path, {
        apiVersion: `${this.domain.group('authentication')}/v1`, kind: 'TokenRequest', spec: { expirationSeconds: EXPIRATION_SECONDS },
      }) as TokenRequestAnswer;
    } catch (e) {
      // Deleted since: made again on the next try.
      if (isNotFound(e)) this.accountExists = false;
      throw new Error(`cannot get a token for service account ${this.namespace}/${this.name}: ${(e as Error).message}`);
    }
    const token = answer.status?.token;
    const expiresAt = Date.parse(answer.status?.expirationTimestamp ?? '');
    if (!token || Number.isNaN(expiresAt)) throw new Error(`the TokenRequest of service account ${this.namespace}/${this.name} was answered without a token or expiry`);
    const issuedAt = Date.now();
    this.current = { token, expiresAt, refreshAt: issuedAt + (expiresAt - issuedAt) * REFRESH_AT };
    return token;
  }

  private async ensureAccount(): Promise<void> {
    if (this.accountExists) return;
    const accounts = this.root.resource('', 'v1', 'serviceaccounts').namespace(this.namespace);
    try {
      await accounts.get(this.name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      try {
        await accounts.create({ metadata: { name: this.name, namespace: this.namespace } });
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
    }
    this.accountExists = true;
  }
}
