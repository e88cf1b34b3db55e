// The reading of a kubeconfig document shared by every consumer (the webhook clients' config files
// and pkg/client's kubeconfig): the named lists, strings, base64 data fields and a user's
// certificate, key and token fields, validated with client-go's messages. Each consumer then
// decides what it selects and what it refuses.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The string at `key` ('' when absent or null); throws for another type. */
export function str(o: Obj, key: string, where: string): string {
  const v = o[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new Error(`${where}.${key}: expected a string`);
  return v;
}

/** A kubeconfig named list (`clusters`, `users`, `contexts`, `extensions`): name to its `inner` object. */
export function named(doc: Obj, list: string, inner: string): Map<string, Obj> {
  const out = new Map<string, Obj>();
  const v = doc[list];
  if (v === undefined || v === null) return out;
  if (!Array.isArray(v)) throw new Error(`${list}: expected a list`);
  for (const [i, e] of v.entries()) {
    if (!isObj(e)) throw new Error(`${list}[${i}]: expected an object`);
    const name = str(e, 'name', `${list}[${i}]`);
    if (out.has(name)) throw new Error(`duplicate name ${JSON.stringify(name)} in ${list}`);
    const body = e[inner];
    if (body !== undefined && body !== null && !isObj(body)) throw new Error(`${list}[${i}].${inner}: expected an object`);
    out.set(name, (body as Obj | undefined) ?? {});
  }
  return out;
}

/** A `*-data` field: base64 in the file (Go's []byte), its decoded text here. */
export function fromBase64(o: Obj, key: string, where: string): string {
  const v = str(o, key, where);
  if (!v) return '';
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(v)) throw new Error(`${where}.${key}: illegal base64 data`);
  return Buffer.from(v, 'base64').toString('utf8');
}

/** client-go's aggregate of validation errors. */
export function aggregate(errs: string[]): Error {
  return new Error(`invalid configuration: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`);
}

/** The YAML (or JSON) document; `what` names the file in messages. */
export function parseDocument(text: string, what: string): Obj {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new Error(`error parsing the ${what}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  if (doc === null || doc === undefined) throw aggregate(['no configuration has been provided']);
  if (!isObj(doc)) throw new Error(`error parsing the ${what}: not a kubeconfig object`);
  return doc;
}

/** Resolves file names against the kubeconfig's directory (as client-go's ResolveLocalPaths) and reads them, problems to `errs`. */
export function fileReader(baseDir: string, errs: string[]) {
  const path = (p: string) => (p && !isAbsolute(p) ? resolve(baseDir, p) : p);
  const readFile = (p: string, what: string): string => {
    try {
      return readFileSync(path(p), 'utf8');
    } catch (e) {
      errs.push(`unable to read ${what} ${p} due to ${e instanceof Error ? e.message : String(e)}`);
      return '';
    }
  };
  return { path, readFile };
}

/** A kubeconfig user's fields, files read, before the credentials are made from them. */
export interface AuthInfo {
  token: string;
  tokenFile: string;
  username: string;
  password: string;
  cert: string;
  key: string;
}

/** Reads users[].user, validated as client-go's validateAuthInfo; problems go to `errs`. */
export function readAuthInfo(user: Obj, userName: string, readFile: (p: string, what: string) => string, errs: string[]): AuthInfo {
  const uw = `users[${userName}].user`;
  const token = str(user, 'token', uw);
  const tokenFile = str(user, 'tokenFile', uw);
  const username = str(user, 'username', uw);
  const password = str(user, 'password', uw);
  const certFile = str(user, 'client-certificate', uw);
  const keyFile = str(user, 'client-key', uw);
  const certData = fromBase64(user, 'client-certificate-data', uw);
  const keyData = fromBase64(user, 'client-key-data', uw);
  const methods: string[] = [];
  if (token) methods.push('token');
  if (username || password) methods.push('basicAuth');
  let cert = '';
  let key = '';
  if (certFile || certData) {
    if (certFile && certData) errs.push(`client-cert-data and client-cert are both specified for ${userName}. client-cert-data will override.`);
    if (keyFile && keyData) errs.push(`client-key-data and client-key are both specified for ${userName}; client-key-data will override`);
    if (!keyFile && !keyData) errs.push(`client-key-data or client-key must be specified for ${userName} to use the clientCert authentication method.`);
    cert = certData || readFile(certFile, 'client-cert');
    key = keyData || (keyFile ? readFile(keyFile, 'client-key') : '');
  }
  if (methods.length > 1) errs.push(`more than one authentication method found for ${userName}; found [${methods.join(' ')}], only one is allowed`);
  return { token, tokenFile, username, password, cert, key };
}

/** A bearer token read from `file`, read again at most once a minute as client-go's cachingTokenSource does. */
export function tokenFileSource(file: string, now: () => number = Date.now): () => string {
  let cached = readFileSync(file, 'utf8').trim();
  let readAt = now();
  return () => {
    if (now() - readAt >= 60_000) {
      readAt = now();
      try {
        cached = readFileSync(file, 'utf8').trim();
      } catch {
        // client-go keeps the token it has when the file cannot be read
      }
    }
    return cached;
  };
}
