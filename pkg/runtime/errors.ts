// Every error a client sees is a Status. StatusError carries one, is thrown up through the layers
// and written by the handler; the constructors below follow upstream's reasons and wording.
import type { Status, StatusCause, StatusDetails } from '../../api/meta/v1/types.js';
import { errorBody, errorMessage, type FieldError } from './field-errors.js';
import { goQuote } from '../util/go-quote.js';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'Invalid'
  | 'TooManyRequests'
  | 'InternalError'
  | 'Timeout'
  | 'ServiceUnavailable';

/** A group and plural resource, e.g. {group: 'apps', resource: 'statefulsets'}. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** `statefulsets.apps`, or `configmaps` for the core group. */
export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

export class StatusError extends Error {
  readonly status: Status;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string>;
  constructor(code: number, reason: StatusReason | '', message: string, details?: StatusDetails, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'StatusError';
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(reason ? { reason } : {}), ...(details ? { details } : {}), code };
    this.headers = headers;
  }
  get code(): number {
    return this.status.code ?? 500;
  }
  get reason(): string {
    return this.status.reason ?? '';
  }
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}

const details = (gr: GroupResource, name: string, extra: Partial<StatusDetails> = {}): StatusDetails => ({
  ...(name ? { name } : {}),
  group: gr.group,
  kind: gr.resource,
  ...extra,
});

export const newNotFound = (gr: GroupResource, name: string) =>
  new StatusError(404, 'NotFound', `${qualifiedResource(gr)} "${name}" not found`, details(gr, name));

export const newAlreadyExists = (gr: GroupResource, name: string) =>
  new StatusError(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, details(gr, name));

export const newConflict = (gr: GroupResource, name: string, why: string) =>
  new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`, details(gr, name));

/** The upstream message for a write with a stale resourceVersion. */
export const newStaleConflict = (gr: GroupResource, name: string) =>
  newConflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');

export const newBadRequest = (message: string) => new StatusError(400, 'BadRequest', message);

export const newForbidden = (gr: GroupResource, name: string, why: string, causes?: StatusCause[]) =>
  new StatusError(403, 'Forbidden', `${qualifiedResource(gr)} "${name}" is forbidden: ${why}`, details(gr, name, causes ? { causes } : {}));

export const newMethodNotSupported = (gr: GroupResource, action: string) =>
  new StatusError(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${qualifiedResource(gr)}"`, details(gr, ''));

export const newNotAcceptable = (message: string) => new StatusError(406, 'NotAcceptable', message);

/** Upstream's 415: it names the media types accepted, not the one the client sent. */
export const newUnsupportedMediaType = (accepted: readonly string[]) =>
  new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);

export const newRequestEntityTooLarge = (message: string) => new StatusError(413, 'RequestEntityTooLarge', message);


export const newResourceExpired = (message: string) => new StatusError(410, 'Expired', message);


export const newTooLargeResourceVersion = (requested: number, current: number, retryAfterSeconds: number) =>
  new StatusError(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`,
    { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) });

/**
 * A write etcd may or may not have applied (its connection went away with the write out at it),
 * answered as kube-apiserver answers an etcd client error no Status describes: 500, no reason, the
 * error's text, and no Retry-After, since client-go repeats any 5xx that carries one, write or not.
 */
export const newUnknownOutcome = (message: string) => new StatusError(500, '', message);

/** 503 with Retry-After: a request that never reached the storage, which the client may send again. */
export const newServiceUnavailable = (message: string) =>
  new StatusError(503, 'ServiceUnavailable', message, { retryAfterSeconds: 1 }, { 'Retry-After': '1' });

export const newInternalError = (err: unknown) =>
  new StatusError(500, 'InternalError', `Internal error occurred: ${err instanceof Error ? err.message : String(err)}`,
    { causes: [{ message: err instanceof Error ? err.message : String(err) }] });

/** 422 Invalid with one cause per field error, worded as upstream: `Kind.group "name" is invalid: ...`. */
export function newInvalid(kind: string, group: string, name: string, errs: FieldError[]): StatusError {
  const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  const list = errs.map(errorMessage);
  const summary = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  // Empty names are left out, as upstream's omitempty leaves them.
  return new StatusError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${summary}`, {
    ...(name ? { name } : {}), ...(group ? { group } : {}), ...(kind ? { kind } : {}), causes,
  });
}

/** The reason and words client-go's NewGenericServerResponse gives an HTTP code when the server said no more. */
function genericResponse(code: number, verb: string, serverMessage: string): { reason: StatusReason | ''; message: string } {
  switch (code) {
    case 400: return { reason: 'BadRequest', message: 'the server rejected our request for an unknown reason' };
    case 401: return { reason: 'Unauthorized', message: 'the server has asked for the client to provide credentials' };
    case 403: return { reason: 'Forbidden', message: serverMessage };
    case 404: return { reason: 'NotFound', message: 'the server could not find the requested resource' };
    case 405: return { reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' };
    case 406: return {
      reason: 'NotAcceptable',
      message: serverMessage === '' || serverMessage === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : serverMessage,
    };
    case 409: return { reason: verb === 'POST' ? 'AlreadyExists' : 'Conflict', message: 'the server reported a conflict' };
    case 415: return { reason: 'UnsupportedMediaType', message: serverMessage };
    case 422: return { reason: 'Invalid', message: 'the server rejected our request due to an error in our request' };
    case 429: return { reason: 'TooManyRequests', message: 'the server has received too many requests and has asked us to try again later' };
    case 503: return { reason: 'ServiceUnavailable', message: 'the server is currently unable to handle the request' };
    case 504: return { reason: 'Timeout', message: 'the server was unable to return a response in the time allotted, but may still be processing the request' };
  }
  if (code >= 500) return { reason: 'InternalError', message: `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding` };
  return { reason: '', message: `the server responded with the status code ${code} but did not return more information` };
}

/**
 * An answer of another server relayed as upstream's NewGenericServerResponse words it, naming the
 * verb, resource and name asked about: `the server could not find the requested resource ( pods/log web)`.
 */
export function newGenericServerResponse(code: number, verb: string, gr: GroupResource, name: string, serverMessage: string): StatusError {
  const { reason, message } = genericResponse(code, verb, serverMessage);
  const what = qualifiedResource(gr);
  const about = what ? ` (${verb.toLowerCase()} ${what}${name ? ` ${name}` : ''})` : '';
  return new StatusError(code, reason, message + about, details(gr, name));
}
