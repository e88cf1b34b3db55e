// Reading and removing request headers the way Go's http.Header does, over Node's two views of
// them. Node joins repeated headers into one string (`a, b`), which would merge two group headers
// into one group and let a second user header change the first; Go keeps each value. So values
// come from rawHeaders, and a removal updates both views of the request: rawHeaders in place, and
// `headers` replaced by a copy without the removed names (deleting a property would give the
// object a hidden class of its own in V8, and every later header read a slow lookup).
import type { AuthenticationRequest } from './authenticator.js';

type Headers = Pick<AuthenticationRequest, 'headers' | 'rawHeaders'>;

/** Every value of header `name` (any case), in the order they came: Go's `h[CanonicalHeaderKey(name)]`. */
export function headerValues(req: Headers, name: string): string[] {
  const lower = name.toLowerCase();
  const out: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === lower) out.push(req.rawHeaders[i + 1]!);
  }
  return out;
}

/** The first value of header `name`, or '' without one: Go's `h.Get(name)`. */
export function headerValue(req: Headers, name: string): string {
  return headerValues(req, name)[0] ?? '';
}

/** Header names present whose lower-case form satisfies `match`, each once, in the order first seen. */
export function headerNames(req: Headers, match: (lowerName: string) => boolean): string[] {
  const seen = new Set<string>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const lower = req.rawHeaders[i]!.toLowerCase();
    if (match(lower)) seen.add(lower);
  }
  return [...seen];
}

/** Removes every header whose lower-case name satisfies `match`, from both views. */
export function deleteHeaders(req: Headers, match: (lowerName: string) => boolean): void {
  for (let i = req.rawHeaders.length - 2; i >= 0; i -= 2) {
    if (match(req.rawHeaders[i]!.toLowerCase())) req.rawHeaders.splice(i, 2);
  }
  const keys = Object.keys(req.headers);
  if (!keys.some((key) => match(key.toLowerCase()))) return;
  const kept: Headers['headers'] = {};
  for (const key of keys) if (!match(key.toLowerCase())) kept[key] = req.headers[key];
  req.headers = kept;
}

/** Removes header `name` (any case) from both views. */
export function deleteHeader(req: Headers, name: string): void {
  const lower = name.toLowerCase();
  deleteHeaders(req, (n) => n === lower);
}

/** Replaces header `name` by the single value `value`, in both views. */
export function setHeader(req: Headers, name: string, value: string): void {
  deleteHeader(req, name);
  req.rawHeaders.push(name, value);
  req.headers[name.toLowerCase()] = value;
}
