// The opaque `continue` token of a paged list: base64 of the revision of the first chunk and the
// key (relative to the resource's prefix) the next chunk starts at, stamped with the version
// meta.<domain>/v1 as upstream stamps meta.k8s.io/v1.
import { newBadRequest } from '../../runtime/errors.js';

export interface ContinuePosition {
  /** The snapshot to read; -1 marks an inconsistent token that reads the latest state (after compaction). */
  revision: number;
  /** Key relative to the resource prefix. */
  start: string;
}

export function encodeContinue(pos: ContinuePosition, version: string): string {
  return Buffer.from(JSON.stringify({ v: version, rv: pos.revision, start: pos.start })).toString('base64');
}

/** Decodes a token from a client; anything not made by encodeContinue is a 400. */
export function decodeContinue(token: string, version: string): ContinuePosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    throw newBadRequest('continue key is not valid: not a valid continue token');
  }
  const t = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (typeof t !== 'object' || t === null || t.v !== version) {
    throw newBadRequest(`continue key is not valid: incorrect encoded start resourceVersion (version ${version})`);
  }
  if (typeof t.rv !== 'number' || !Number.isInteger(t.rv) || (t.rv <= 0 && t.rv !== -1)) {
    throw newBadRequest(`continue key is not valid: incorrect encoded start resourceVersion (version ${version})`);
  }
  if (typeof t.start !== 'string' || t.start === '' || t.start.startsWith('/') || t.start.split('/').includes('..')) {
    throw newBadRequest('continue key is not valid: encoded start key is invalid');
  }
  return { revision: t.rv, start: t.start };
}
