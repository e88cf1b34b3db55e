// The warning upstream's validating dispatcher logs for each error that rejects a request other than
// a failed call, denials above all: `rejected by webhook "<name>":` followed by Go's %#v of the error
// (the StatusError the client gets). Go would print the address of a Status's details; their
// contents are printed instead, in the same syntax.
import type { StatusDetails } from '../../../api/meta/v1/types.js';
import { StatusError } from '../../runtime/errors.js';
import { goQuote as q } from '../../util/go-quote.js';

function details(d: StatusDetails | undefined): string {
  if (!d) return '(*v1.StatusDetails)(nil)';
  const causes = d.causes
    ? `[]v1.StatusCause{${d.causes.map((c) => `v1.StatusCause{Type:${q(c.reason ?? '')}, Message:${q(c.message ?? '')}, Field:${q(c.field ?? '')}}`).join(', ')}}`
    : '[]v1.StatusCause(nil)';
  return `&v1.StatusDetails{Name:${q(d.name ?? '')}, Group:${q(d.group ?? '')}, Kind:${q(d.kind ?? '')}, UID:${q(d.uid ?? '')}, Causes:${causes}, RetryAfterSeconds:${d.retryAfterSeconds ?? 0}}`;
}

/** Go's %#v of an error: a StatusError's Status field by field, any other error as errors.New's. */
function goSyntax(err: unknown): string {
  if (!(err instanceof StatusError)) return `&errors.errorString{s:${q(err instanceof Error ? err.message : String(err))}}`;
  const s = err.status;
  return '&errors.StatusError{ErrStatus:v1.Status{TypeMeta:v1.TypeMeta{Kind:"", APIVersion:""}, '
    + 'ListMeta:v1.ListMeta{SelfLink:"", ResourceVersion:"", Continue:"", RemainingItemCount:(*int64)(nil)}, '
    + `Status:${q(s.status ?? '')}, Message:${q(s.message ?? '')}, Reason:${q(s.reason ?? '')}, Details:${details(s.details)}, Code:${s.code ?? 0}}}`;
}

/** The text of upstream's `klog.Warningf("rejected by webhook %q: %#v", ...)`. */
export function rejectionLogText(webhookName: string, err: unknown): string {
  return `rejected by webhook ${q(webhookName)}: ${goSyntax(err)}`;
}
