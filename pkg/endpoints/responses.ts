// Warnings and Status errors for the client.
import type { Response } from 'express';
import type { Status } from '../../api/meta/v1/types.js';
import { isStatusError, newInternalError, StatusError } from '../runtime/errors.js';
import { serialize } from './output.js';
import { WarningRecorder } from './warning-recorder.js';
import { requestAudit } from './request-audit.js';

/**
 * Adds `Warning: 299 - "<text>"` headers, deduplicated and truncated as upstream does; a text a
 * header cannot carry (control characters) is dropped rather than failing the request.
 */
export function addWarnings(res: Response, warnings: string[]): void {
  if (warnings.length === 0 || res.headersSent) return;
  let recorder = res.locals.warningRecorder as WarningRecorder | undefined;
  if (!recorder) recorder = res.locals.warningRecorder = new WarningRecorder();
  for (const w of warnings) recorder.add(w);
  const values = recorder.headerValues();
  if (values.length === 0) return;
  res.setHeader('Warning', values);
  if (values.some((v) => /[\u0080-\u00ff]/.test(v))) sendHeadAsLatin1(res);
}

/**
 * Node sends a response's head in the encoding of a string body written with it (UTF-8), which
 * would encode a warning's UTF-8 bytes a second time; a body written as bytes leaves the head
 * Latin-1, so those bytes reach the wire unchanged.
 */
function sendHeadAsLatin1(res: Response): void {
  if (res.locals.headAsLatin1) return;
  res.locals.headAsLatin1 = true;
  const asBytes = (args: unknown[]): unknown[] => {
    if (typeof args[0] !== 'string') return args;
    const encoding = typeof args[1] === 'string' ? (args[1] as BufferEncoding) : 'utf8';
    return [Buffer.from(args[0], encoding), ...args.slice(typeof args[1] === 'string' ? 2 : 1)];
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((...args: unknown[]) => write(...asBytes(args))) as Response['write'];
  res.end = ((...args: unknown[]) => end(...asBytes(args))) as Response['end'];
}

/** How errors of a request are written once its response format is known (protobuf clients get protobuf Status). */
export type StatusWriter = (code: number, status: Status) => void;

export function setStatusWriter(res: Response, w: StatusWriter): void {
  res.locals.statusWriter = w;
}

/** Writes a plain JSON document (health, version, 404 outside the API). */
export function writeJSON(res: Response, code: number, doc: unknown, pretty = false): void {
  const { body, contentType } = serialize(doc, 'json', pretty);
  res.status(code).setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  res.end(body);
}

/** Writes any error as a Status; anything not a StatusError is an internal error (a bug). */
export function writeError(res: Response, err: unknown): void {
  const se: StatusError = isStatusError(err) ? err : newInternalError(err);
  // An answer already went out (a 504 at the deadline, a list cut short): the log keeps its reason.
  if (res.headersSent) {
    res.end();
    return;
  }
  // What went wrong, for the access log's line about a failed request.
  res.locals.failure = se.status.message;
  for (const [k, v] of Object.entries(se.headers)) res.setHeader(k, v);
  const w = res.locals.statusWriter as StatusWriter | undefined;
  if (w) w(se.code, se.status);
  else {
    requestAudit(res)?.logResponseObject(se.status);
    writeJSON(res, se.code, se.status);
  }
}
