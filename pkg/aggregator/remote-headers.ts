// The identity the front proxy hands an extension API server: the user this server authenticated,
// as the request headers upstream's aggregator writes (X-Remote-User, X-Remote-Group,
// X-Remote-Extra-<key>), which the extension server trusts because our front-proxy client
// certificate vouches for them.
import type { OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../runtime/user.js';

/** Characters of an HTTP token (RFC 7230) that an extra key keeps as they are; '%' is always escaped. */
const tokenChar = /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/;

/** An extra key as a header name suffix: every byte outside the token characters (and '%') percent-encoded, as upstream escapes it. */
export function escapeExtraKey(key: string): string {
  let out = '';
  for (const ch of key) {
    if (tokenChar.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The X-Remote-* headers that carry `user` to the extension server. */
export function remoteUserHeaders(user: UserInfo): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { 'x-remote-user': user.name };
  if (user.groups.length > 0) headers['x-remote-group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra)) {
    if (values.length > 0) headers[`x-remote-extra-${escapeExtraKey(key)}`] = [...values];
  }
  return headers;
}

/** Who this server is when it asks an extension server itself (discovery checks, OpenAPI): upstream's aggregator identity. */
export const aggregatorUser: UserInfo = { name: 'system:kube-aggregator', groups: ['system:masters'], extra: {} };
