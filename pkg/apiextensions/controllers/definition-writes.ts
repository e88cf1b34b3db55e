// How the API server's own controllers change a CustomResourceDefinition: straight through its
// store (as upstream's run in the API server), recomputing the change on the stored state so a
// concurrent writer is never overwritten, and not at all when the definition is gone meanwhile.
import type { CustomResourceDefinition } from '../../../api/apiextensions/v1/custom-resource-definition.js';
import { StatusError } from '../../runtime/errors.js';
import type { Store } from '../../registry/generic/store.js';
import type { StoredObject } from '../../storage/interface.js';

/** Ends a write with nothing to write (a StatusError, so the store passes it through untouched). */
class Unchanged extends StatusError {
  constructor() {
    super(200, '', 'nothing to change');
  }
}

/** A change of a definition: the changed copy, or undefined when nothing needs changing. */
export type DefinitionChange = (crd: CustomResourceDefinition) => CustomResourceDefinition | undefined;

/**
 * Writes `change` of the stored definition `name` through `subresource` ('status', or '' for the
 * definition itself); resolves with the definition as written, or undefined when it is gone or
 * the change found nothing to change.
 */
export async function changeDefinition(store: Store, name: string, change: DefinitionChange, subresource: 'status' | '' = 'status'): Promise<CustomResourceDefinition | undefined> {
  try {
    const { object } = await store.update('', name, async (current) => {
      if (!current) throw new StatusError(404, 'NotFound', `customresourcedefinition ${name} is gone`);
      const copy = structuredClone(current) as unknown as CustomResourceDefinition;
      const changed = change(copy);
      if (!changed) throw new Unchanged();
      return changed as unknown as StoredObject;
    }, subresource ? { subresource } : {});
    return object as unknown as CustomResourceDefinition;
  } catch (e) {
    if (e instanceof Unchanged || (e instanceof StatusError && e.code === 404)) return undefined;
    throw e;
  }
}
