// What the service account authenticator asks of the cluster (upstream ServiceAccountTokenGetter):
// the account and the Secret or Pod a token is bound to, from informer caches on main. Objects
// need only the fields read here; API objects fit.

export interface ObjectMetaLike {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
  };
}

export interface ServiceAccountLike extends ObjectMetaLike {
  secrets?: { name?: string }[];
}

export interface SecretLike extends ObjectMetaLike {
  /** base64 values, as in the API. */
  data?: Record<string, string>;
}

type Maybe<T> = T | undefined | Promise<T | undefined>;

/**
 * Lookups by namespace and name. Each returns undefined when the object does not exist and throws
 * (or rejects) only when it cannot tell; either way the token is refused.
 */
export interface ServiceAccountTokenGetter {
  getServiceAccount(namespace: string, name: string): Maybe<ServiceAccountLike>;
  getSecret(namespace: string, name: string): Maybe<SecretLike>;
  getPod(namespace: string, name: string): Maybe<ObjectMetaLike>;
}

/** The object, or an Error worded as the API's NotFound (`serviceaccounts "x" not found`). */
export async function lookup<T>(get: () => Maybe<T>, resource: string, name: string): Promise<T | Error> {
  try {
    return (await get()) ?? new Error(`${resource} ${JSON.stringify(name)} not found`);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}
