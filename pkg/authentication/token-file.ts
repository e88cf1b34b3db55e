// The static token file (--token-auth-file, spec 5.2): CSV records `token,user,uid[,"group1,group2"]`,
// read once at start. The file is read as Go's encoding/csv reads it for upstream's tokenfile
// (variable field counts, RFC 4180 quotes, CRLF as LF, blank lines skipped, no trimming of spaces),
// with csv-parse. Tokens are kept only as SHA-256 digests and compared in constant time, so neither
// the table nor the timing of a lookup gives a token away.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { authenticated, skipped, type AuthenticationResult, type TokenAuthenticator } from './authenticator.js';
import type { UserInfo } from '../runtime/user.js';

export interface TokenFileOptions {
  /** Where warnings go (empty and duplicate tokens), e.g. the process logger's warn. Default: dropped. */
  warn?: (message: string) => void;
}

interface Entry {
  digest: Buffer;
  user: UserInfo;
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Go's csv error texts for csv-parse's codes; the field's content (maybe a token) never appears. */
function parseError(e: unknown): Error {
  const err = e as { code?: string; lines?: number };
  const reason =
    err.code === 'INVALID_OPENING_QUOTE' ? 'bare " in non-quoted-field' : err.code === 'CSV_INVALID_CLOSING_QUOTE' || err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'extraneous or missing " in quoted-field' : 'malformed record';
  return new Error(`parse error on line ${err.lines ?? 0}: ${reason}`);
}

/** Authenticates the tokens of a token file. Unknown tokens are "not mine" (the bearer layer answers 401). */
export class TokenFileAuthenticator implements TokenAuthenticator {
  readonly name = 'tokenfile';
  private readonly tokens = new Map<string, Entry>();

  /** Parses the file's content; `path` only names it in messages. Throws upstream's errors. */
  constructor(content: string, path: string, opts: TokenFileOptions = {}) {
    const warn = opts.warn ?? (() => {});
    // Go's reader turns CRLF into LF everywhere (quoted fields included) and drops a CR before EOF.
    const text = content.replace(/\r\n/g, '\n').replace(/\r$/, '');
    let records: string[][];
    try {
      records = parse(text, { delimiter: ',', quote: '"', escape: '"', record_delimiter: '\n', relax_column_count: true, skip_empty_lines: true, bom: false }) as string[][];
    } catch (e) {
      throw parseError(e);
    }
    let recordNum = 0;
    for (const record of records) {
      if (record.length < 3) {
        throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
      }
      recordNum++;
      const [token, name, uid, groups] = record as [string, string, string, string | undefined];
      if (token === '') {
        warn(`empty token has been found in token file '${path}', record number '${recordNum}'`);
        continue;
      }
      const d = digest(token);
      const key = d.toString('hex');
      if (this.tokens.has(key)) warn(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
      this.tokens.set(key, {
        digest: d,
        user: { name, ...(uid ? { uid } : {}), groups: groups === undefined ? [] : groups.split(','), extra: {} },
      });
    }
  }

  /** How many tokens the file holds. */
  get size(): number {
    return this.tokens.size;
  }

  async authenticateToken(token: string): Promise<AuthenticationResult> {
    const d = digest(token);
    const entry = this.tokens.get(d.toString('hex'));
    if (!entry || !timingSafeEqual(entry.digest, d)) return skipped;
    return authenticated({ ...entry.user, groups: [...entry.user.groups], extra: {} });
  }
}

const errnoText: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
};

/** Reads --token-auth-file. Errors are upstream's (the file's path, never a token). */
export function loadTokenFile(path: string, opts: TokenFileOptions = {}): TokenFileAuthenticator {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new Error(`open ${path}: ${errnoText[code] ?? (e as Error).message}`);
  }
  return new TokenFileAuthenticator(content, path, opts);
}
