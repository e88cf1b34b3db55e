// A ConfigMap the server itself publishes (cluster-info, extension-apiserver-authentication):
// created with its keys, or its keys put right when they differ, every other key kept, with the
// resourceVersion read so a concurrent writer (another server, a signer) makes it read again.
import type { Store } from '../generic/store.js';
import type { StoredObject } from '../../storage/interface.js';

const code = (e: unknown) => (e as { code?: number }).code;

/** Creates the ConfigMap with `keys`, or sets those that differ; answers what it did. */
export async function reconcileConfigMapKeys(configMaps: Store, namespace: string, name: string, keys: Record<string, string>): Promise<'created' | 'updated' | 'unchanged'> {
  const dataOf = (o: StoredObject) => (o as { data?: Record<string, string> }).data ?? {};
  for (;;) {
    let current: StoredObject | undefined;
    try {
      current = await configMaps.get(namespace, name);
    } catch (e) {
      if (code(e) !== 404) throw e;
    }
    if (!current) {
      try {
        await configMaps.create(namespace, { metadata: { name, namespace }, data: keys } as unknown as StoredObject);
        return 'created';
      } catch (e) {
        // Another server made it meanwhile: compare with theirs.
        if (code(e) === 409) continue;
        throw e;
      }
    }
    const data = dataOf(current);
    if (Object.entries(keys).every(([k, v]) => data[k] === v)) return 'unchanged';
    try {
      await configMaps.update(namespace, name, async () => ({ ...structuredClone(current), data: { ...data, ...keys } }) as StoredObject);
      return 'updated';
    } catch (e) {
      if (code(e) === 409 || code(e) === 404) continue;
      throw e;
    }
  }
}
