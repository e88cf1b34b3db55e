// Attributes for plug-in unit tests: a pod create by a plain user unless told otherwise.
import { AttributesRecord, type AttributesInit } from '../attributes.js';

export const testUser = { name: 'alice', groups: ['system:authenticated'], extra: {} };

/** Core-group attributes of `resource` (kind `kind`), defaulting to a pod CREATE in namespace `ns`. */
export function podAttrs(over: Partial<AttributesInit> & { object?: Record<string, unknown> } = {}): AttributesRecord {
  const meta = (over.object?.['metadata'] ?? {}) as { name?: string };
  return new AttributesRecord({
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    operation: 'CREATE',
    namespace: 'ns',
    name: meta.name ?? '',
    userInfo: testUser,
    ...over,
  });
}
