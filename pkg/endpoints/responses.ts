// Writing objects and Status errors to the client.
import type { Response } from 'express';
import { stringify as toYAML } from 'yaml';
import { isStatusError, newInternalError, StatusError } from '../runtime/errors.js';
import type { OutputFormat } from './negotiation.js';

export interface WriteOptions {
  format?: OutputFormat;
  pretty?: boolean;
}

/** Adds `Warning: 299 - "<text>"` headers. */
export function addWarnings(res: Response, warnings: string[]): void {
  if (warnings.length === 0 || res.headersSent) return;
  const existing = res.getHeader('Warning');
  const prior = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  res.setHeader('Warning', [...prior, ...warnings.map((w) => `299 - ${JSON.stringify(w.replace(/[\r\n]+/g, ' '))}`)]);
}

export function serialize(obj: unknown, opts: WriteOptions): { body: string; contentType: string } {
  if (opts.format === 'yaml') return { body: toYAML(obj), contentType: 'application/yaml' };
  return { body: opts.pretty ? JSON.stringify(obj, null, 2) + '\n' : JSON.stringify(obj), contentType: 'application/json' };
}

export function writeObject(res: Response, code: number, obj: unknown, opts: WriteOptions = {}): void {
  const { body, contentType } = serialize(obj, opts);
  res.status(code).setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  res.end(body);
}

/** Writes any error as a Status; anything not a StatusError is an internal error (a bug). */
export function writeError(res: Response, err: unknown, opts: WriteOptions = {}): void {
  const se: StatusError = isStatusError(err) ? err : newInternalError(err);
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [k, v] of Object.entries(se.headers)) res.setHeader(k, v);
  writeObject(res, se.code, se.status, opts.format === 'yaml' ? opts : { pretty: opts.pretty ?? false });
}
