// Which representation of an OpenAPI document an Accept header asks for. Upstream's OpenAPI
// handlers match media types only by type and subtype (parameters such as `as=` or `g=` play no
// part), take the clauses best first, and serve the first representation a clause matches.
import { parseAccept } from '../negotiation.js';

export interface Representation<T> {
  /** `type/subtype`, lower case. */
  mediaType: string;
  value: T;
}

/** Wildcards rank after the types they stand for when the client gives both the same quality. */
const specificity = (type: string, subtype: string): number => (type === '*' ? 0 : subtype === '*' ? 1 : 2);

/**
 * The representation the client prefers among `offered` (in the server's order of preference,
 * which decides `*` and `type/*`); undefined when it accepts none. No Accept header accepts all.
 */
export function pickRepresentation<T>(accept: string | undefined, offered: readonly Representation<T>[]): T | undefined {
  const header = accept === undefined || accept.trim() === '' ? '*/*' : accept;
  // parseAccept drops q=0 and orders by quality, keeping the client's order among equals.
  const clauses = parseAccept(header)
    .map((c, i) => ({ ...c, i }))
    .sort((a, b) => b.q - a.q || specificity(b.type, b.subtype) - specificity(a.type, a.subtype) || a.i - b.i);
  for (const c of clauses) {
    // A bare `*` is read as `*/*`, as upstream's parser does.
    if (c.type === '*' && c.subtype === '') c.subtype = '*';
    for (const r of offered) {
      const [type, subtype] = r.mediaType.split('/');
      if ((c.type === '*' || c.type === type) && (c.subtype === '*' || c.subtype === subtype)) return r.value;
    }
  }
  return undefined;
}
