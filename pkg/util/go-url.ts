// URLs split the way Go's net/url.Parse splits them. Upstream validates webhook URLs (and later
// dials them) with Go's parser, which accepts and refuses other strings than WHATWG's URL does
// (no scheme, opaque forms, "https:host"), so its rules and error texts are reproduced here.

/** The parts of a URL Go's parser yields, as far as validation needs them. */
export interface GoURL {
  /** Lower-cased; '' when the string has none. */
  scheme: string;
  /** Set for `scheme:opaque` forms, which have no host. */
  opaque: string;
  /** Unescaped host, with its port if one was given. */
  host: string;
  /** The user information as written (without the password), or undefined when there is no '@'. */
  user: { username: string; hasPassword: boolean } | undefined;
  /** Unescaped path. */
  path: string;
  /** The text after '?', as written. */
  rawQuery: string;
  /** Unescaped text after '#'. */
  fragment: string;
}

export type GoURLResult = { url: GoURL; error?: undefined } | { url?: undefined; error: string };

const isAlpha = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isDigit = (c: string) => c >= '0' && c <= '9';
const isHex = (c: string | undefined) => c !== undefined && /^[0-9A-Fa-f]$/.test(c);

class URLError extends Error {}

function hasControlByte(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Go's getScheme: a letter, then letters, digits, '+', '-' or '.', up to a ':'. */
function splitScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (isAlpha(c)) continue;
    if (isDigit(c) || c === '+' || c === '-' || c === '.') {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new URLError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

/** Characters a host may hold unescaped (Go's shouldEscape in host mode, inverted). */
function hostCharAllowed(c: string): boolean {
  if (isAlpha(c) || isDigit(c)) return true;
  return "-_.~!$&'()*+,;=:[]<>\"".includes(c);
}

type Mode = 'host' | 'path' | 'fragment' | 'user';

/** Go's unescape: decodes %XX, refusing malformed escapes and, in hosts, characters that need escaping. */
function unescape(s: string, mode: Mode): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length;) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) {
        throw new URLError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      }
      const v = parseInt(s.slice(i + 1, i + 3), 16);
      // In hosts only %25 may encode a byte below 0x80 (Go allows it for IPv6 zones).
      if (mode === 'host' && v < 0x80 && s.slice(i, i + 3) !== '%25') {
        throw new URLError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      }
      bytes.push(v);
      i += 3;
      continue;
    }
    if (mode === 'host' && c.charCodeAt(0) < 0x80 && !hostCharAllowed(c)) {
      throw new URLError(`invalid character ${JSON.stringify(c)} in host name`);
    }
    bytes.push(...Buffer.from(c, 'utf8'));
    i += 1;
  }
  return Buffer.from(bytes).toString('utf8');
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  return [...port.slice(1)].every(isDigit);
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0) throw new URLError("missing ']' in host");
    const colonPort = host.slice(end + 1);
    if (!validOptionalPort(colonPort)) throw new URLError(`invalid port ${JSON.stringify(colonPort)} after host`);
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new URLError(`invalid port ${JSON.stringify(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

const userinfoChar = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function parseAuthority(authority: string): { user: GoURL['user']; host: string } {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return { user: undefined, host };
  const userinfo = authority.slice(0, at);
  if (!userinfoChar.test(userinfo)) throw new URLError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  const username = colon < 0 ? userinfo : userinfo.slice(0, colon);
  unescape(username, 'user');
  if (colon >= 0) unescape(userinfo.slice(colon + 1), 'user');
  return { user: { username, hasPassword: colon >= 0 }, host };
}

function parse(raw: string): GoURL {
  if (hasControlByte(raw)) throw new URLError('net/url: invalid control character in URL');
  const url: GoURL = { scheme: '', opaque: '', host: '', user: undefined, path: '', rawQuery: '', fragment: '' };
  if (raw === '*') {
    url.path = '*';
    return url;
  }
  let [scheme, rest] = splitScheme(raw);
  url.scheme = scheme.toLowerCase();
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      url.opaque = rest;
      return url;
    }
    const firstSegment = rest.split('/')[0]!;
    if (firstSegment.includes(':')) throw new URLError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const a = parseAuthority(authority);
    url.user = a.user;
    url.host = a.host;
  }
  url.path = unescape(rest, 'path');
  return url;
}

/** Parses `raw` as Go's url.Parse does; an error reads as Go's (`parse "<url>": <reason>`). */
export function parseGoURL(raw: string): GoURLResult {
  const hash = raw.indexOf('#');
  const main = hash < 0 ? raw : raw.slice(0, hash);
  const frag = hash < 0 ? '' : raw.slice(hash + 1);
  let url: GoURL;
  try {
    url = parse(main);
  } catch (e) {
    if (e instanceof URLError) return { error: `parse ${JSON.stringify(main)}: ${e.message}` };
    throw e;
  }
  if (frag !== '') {
    try {
      url.fragment = unescape(frag, 'fragment');
    } catch (e) {
      if (e instanceof URLError) return { error: `parse ${JSON.stringify(raw)}: ${e.message}` };
      throw e;
    }
  }
  return { url };
}
