// sendInitialEvents and resourceVersionMatch of list and watch requests, defaulted and checked as
// kube-apiserver does with its WatchList feature on (1.32, and 1.34 on; apimachinery's
// SetListOptionsDefaults and ValidateListOptions). Upstream 1.30 refused sendInitialEvents on a
// watch because the feature was off there, so stock clients fell back to list+watch; client-go
// 1.35 asks for a watch-list whenever it waits and relies on the server to end the initial events
// with an annotated BOOKMARK, which a server accepting the request must send.
//
// Refusals are 422 Invalid on ListOptions of the meta group, one cause per rule broken, as
// upstream. The list's other resourceVersionMatch rules are checked by the registry (400s, spec
// section 4.6); only sendInitialEvents is checked here for a list.
import { newInvalid } from '../runtime/errors.js';
import { forbidden, notSupported, type FieldError } from '../runtime/field-errors.js';
import type { Query } from './query.js';

/** A boolean query parameter upstream decodes into a *bool: undefined when absent. */
function optionalBool(q: Query, name: string): boolean | undefined {
  return q.has(name) ? q.bool(name) : undefined;
}

/**
 * Whether a watch begins with the current state (synthetic ADDED events). A legacy watch (no
 * sendInitialEvents, no resourceVersionMatch, resourceVersion unset or "0") is defaulted to
 * `sendInitialEvents=true&resourceVersionMatch=NotOlderThan`, as upstream does; undefined only for
 * a watch from a resourceVersion that did not ask. Throws 422 for the combinations upstream refuses.
 */
export function watchSendsInitialEvents(q: Query, metaGroup: string): boolean | undefined {
  let send = optionalBool(q, 'sendInitialEvents');
  let match = q.str('resourceVersionMatch') ?? '';
  const rv = q.str('resourceVersion') ?? '';
  if (send === undefined && match === '' && (rv === '' || rv === '0')) {
    send = true;
    match = 'NotOlderThan';
  }
  const errs: FieldError[] = [];
  if (send !== undefined && match !== 'NotOlderThan') {
    errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match !== '') {
    if (send === undefined) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if (q.str('continue')) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  if (errs.length > 0) throw newInvalid('ListOptions', metaGroup, '', errs);
  return send;
}

/** A list (or deletecollection) may not ask for initial events: 422 as upstream. */
export function checkListSendsNoInitialEvents(q: Query, metaGroup: string): void {
  if (optionalBool(q, 'sendInitialEvents') !== undefined) {
    throw newInvalid('ListOptions', metaGroup, '', [forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list')]);
  }
}
