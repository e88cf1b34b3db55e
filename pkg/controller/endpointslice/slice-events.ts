// What wakes a slice controller when slices change (upstream's onEndpointSliceAdd, -Update and
// -Delete, the same in both slice controllers): a slice of its own that it did not write last, one
// moving between controllers or between services, and one deleted by someone else.
import { deletedObject, type EventHandler } from '../../client/index.js';
import type { SliceObject } from './endpoint-set.js';
import type { EndpointSliceTracker } from './slice-tracker.js';

/** The informer handler that calls `wake` with each slice whose owner (named by `serviceLabel`) should sync. */
export function sliceEventHandler(serviceLabel: string, mine: (s: SliceObject) => boolean, tracker: EndpointSliceTracker, wake: (s: SliceObject) => void): EventHandler<SliceObject> {
  return {
    onAdd: (s) => {
      if (mine(s) && tracker.shouldSync(s)) wake(s);
    },
    onUpdate: (old, s) => {
      // Generations do not move with labels: a slice moved to another service wakes both.
      if (old.metadata.labels?.[serviceLabel] !== s.metadata.labels?.[serviceLabel]) {
        wake(s);
        wake(old);
      } else if (mine(old) !== mine(s) || (mine(s) && tracker.shouldSync(s))) {
        wake(s);
      }
    },
    onDelete: (o) => {
      const s = deletedObject(o);
      // A deletion the controller did not make (a user's) wants the slice back.
      if (mine(s) && tracker.has(s) && !tracker.handleDeletion(s)) wake(s);
    },
  };
}
