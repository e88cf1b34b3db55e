// Errors a client returns are values of the one StatusError type, carrying the server's own Status
// (code, reason, message, details) so a controller branches on the reason, as client-go's
// apierrors.IsNotFound and friends do.
import type { Status } from '../../api/meta/v1/types.js';
import { StatusError, type StatusReason } from '../runtime/errors.js';

export { StatusError, isStatusError } from '../runtime/errors.js';

/** client-go's reason for an answer without a Status body (NewGenericServerResponse). */
function reasonForCode(code: number): StatusReason | '' {
  switch (code) {
    case 400: return 'BadRequest';
    case 401: return 'Unauthorized';
    case 403: return 'Forbidden';
    case 404: return 'NotFound';
    case 405: return 'MethodNotAllowed';
    case 406: return 'NotAcceptable';
    case 409: return 'Conflict';
    case 410: return 'Gone';
    case 413: return 'RequestEntityTooLarge';
    case 415: return 'UnsupportedMediaType';
    case 422: return 'Invalid';
    case 429: return 'TooManyRequests';
    case 500: return 'InternalError';
    case 503: return 'ServiceUnavailable';
    case 504: return 'Timeout';
    default: return '';
  }
}

/** The error of a failed answer: the server's Status when it sent one, else a Status made from the HTTP code. */
export function statusErrorOf(httpCode: number, status: Partial<Status> | undefined, text = ''): StatusError {
  const headers: Record<string, string> = {};
  if (status && status.kind === 'Status') {
    const code = status.code || httpCode;
    const message = status.message || `the server responded with the status code ${code} but did not return more information`;
    return new StatusError(code, (status.reason ?? '') as StatusReason | '', message, status.details, headers);
  }
  const shown = text.trim().slice(0, 2048);
  const message = shown
    ? `the server responded with the status code ${httpCode}: ${shown}`
    : `the server responded with the status code ${httpCode} but did not return more information`;
  return new StatusError(httpCode, reasonForCode(httpCode), message, undefined, headers);
}

/** A Status an ERROR watch event carried. */
export function statusErrorOfEvent(object: Record<string, unknown>): StatusError {
  return statusErrorOf(typeof object.code === 'number' ? object.code : 500, object as Partial<Status>);
}

const hasReason = (e: unknown, reason: string, code: number): boolean =>
  e instanceof StatusError && (e.reason === reason || (e.reason === '' && e.code === code));

export const isNotFound = (e: unknown): boolean => hasReason(e, 'NotFound', 404);
export const isAlreadyExists = (e: unknown): boolean => hasReason(e, 'AlreadyExists', 409);
/** A stale resourceVersion on a write (409 Conflict), to be retried on a fresh read. */
export const isConflict = (e: unknown): boolean => hasReason(e, 'Conflict', 409);
export const isInvalid = (e: unknown): boolean => hasReason(e, 'Invalid', 422);
export const isForbidden = (e: unknown): boolean => hasReason(e, 'Forbidden', 403);
export const isUnauthorized = (e: unknown): boolean => hasReason(e, 'Unauthorized', 401);
export const isTooManyRequests = (e: unknown): boolean => hasReason(e, 'TooManyRequests', 429);
/** The resource does not serve the verb (405 MethodNotAllowed, client-go's IsMethodNotSupported). */
export const isMethodNotSupported = (e: unknown): boolean => hasReason(e, 'MethodNotAllowed', 405);
/** The history asked for is gone (410 Gone or Expired): relist. */
export const isResourceExpired = (e: unknown): boolean =>
  e instanceof StatusError && (e.code === 410 || e.reason === 'Expired' || e.reason === 'Gone');
/** client-go's HasStatusCause: the Status names a cause of this type (e.g. NamespaceTerminating). */
export const hasStatusCause = (e: unknown, cause: string): boolean =>
  e instanceof StatusError && (e.status.details?.causes ?? []).some((c) => c.reason === cause);
