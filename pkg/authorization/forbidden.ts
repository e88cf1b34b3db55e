// The 403 a refused request gets, worded as upstream's ForbiddenStatusError: `User "u" cannot
// <verb> resource "<resource>[/<sub>]" in API group "<group>" in the namespace "<ns>"` (or `at the
// cluster scope`), `User "u" cannot <verb> path "<path>"` for other paths, `: <reason>` appended
// when the authorizers gave one; the whole prefixed as NewForbidden does (`<resource>.<group>
// "<name>" is forbidden: `, `<resource> is forbidden: ` without a name, `forbidden: ` without a
// resource), with details naming the name, group and kind (the resource) that are not empty.
import type { StatusDetails } from '../../api/meta/v1/types.js';
import { goQuote } from '../util/go-quote.js';
import { StatusError } from '../runtime/errors.js';
import type { Attributes } from './attributes.js';

/** Upstream escapes these so an echoed name can never read as HTML; quotes stay. */
function sanitize(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The sentence naming who may not do what (without the resource prefix or the reason). */
export function forbiddenMessage(a: Attributes): string {
  const user = goQuote(a.user?.name ?? '');
  if (!a.isResourceRequest) return `User ${user} cannot ${a.verb} path ${goQuote(a.path)}`;
  const resource = goQuote(a.subresource ? `${a.resource}/${a.subresource}` : a.resource);
  const where = a.namespace ? `in the namespace ${goQuote(a.namespace)}` : 'at the cluster scope';
  return `User ${user} cannot ${a.verb} resource ${resource} in API group ${goQuote(a.apiGroup)} ${where}`;
}

/** The 403 Forbidden StatusError for a request the authorizers did not allow. */
export function forbiddenStatusError(a: Attributes, reason: string): StatusError {
  const msg = sanitize(forbiddenMessage(a));
  const why = reason ? `${msg}: ${reason}` : msg;
  // Non-resource requests have no group or resource upstream, whatever the attributes hold.
  const group = a.isResourceRequest ? a.apiGroup : '';
  const resource = a.isResourceRequest ? a.resource : '';
  const qualified = group ? `${resource}.${group}` : resource;
  let message: string;
  if (!group && !resource) message = `forbidden: ${why}`;
  else if (!a.name) message = `${qualified} is forbidden: ${why}`;
  else message = `${qualified} ${goQuote(a.name)} is forbidden: ${why}`;
  const details: StatusDetails = { ...(a.name ? { name: a.name } : {}), ...(group ? { group } : {}), ...(resource ? { kind: resource } : {}) };
  return new StatusError(403, 'Forbidden', message, details);
}
