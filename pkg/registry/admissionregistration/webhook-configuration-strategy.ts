// Upstream's webhook configuration strategy: a configuration has no spec, yet its generation
// starts at 1 and grows whenever its webhooks change, so the webhook dispatcher and clients can
// tell which version of a configuration they have acted on.
import type { TObject } from '@sinclair/typebox';
import { sameOnWire } from '../../runtime/wire-shape.js';
import type { StrategyOverrides } from '../generic/strategy.js';

/** The strategy additions of a webhook configuration kind with schema `schema`. */
export function webhookConfigurationStrategy(schema: TObject): StrategyOverrides {
  const webhooks = schema.properties.webhooks!;
  return {
    prepareForCreate: (obj) => {
      obj.metadata.generation = 1;
    },
    prepareForUpdate: (obj, old) => {
      // The stored webhooks carry the zero values filled in at write; the sent ones may not.
      const changed = !sameOnWire(webhooks, obj.webhooks, old.webhooks);
      obj.metadata.generation = (old.metadata.generation ?? 1) + (changed ? 1 : 0);
    },
  };
}
