// What the handler chain gets as the request target. Upstream routes on Go's parsed URL path: an
// absolute-form target (`GET https://host/api/v1/...`) is served by its path, `OPTIONS *` gets Go's
// empty 200, and a path no route can start with (`//...`, `/\...`, an authority-form CONNECT) is a
// 404. Express and WHATWG URL parsing would instead treat `//x` and `/\x` as a host.

export type TargetDecision =
  | { kind: 'route'; url: string }
  | { kind: 'options-asterisk' }
  | { kind: 'not-found' }
  | { kind: 'bad-request' };

const absoluteForm = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*(.*)$/s;

export function classifyTarget(method: string, target: string): TargetDecision {
  if (target === '*') return method === 'OPTIONS' ? { kind: 'options-asterisk' } : { kind: 'not-found' };
  let url = target;
  if (!url.startsWith('/')) {
    const m = absoluteForm.exec(url);
    if (!m) return method === 'CONNECT' ? { kind: 'not-found' } : { kind: 'bad-request' };
    const rest = m[1] ?? '';
    url = rest.startsWith('/') ? rest : `/${rest}`;
  }
  if (url.startsWith('//') || url.startsWith('/\\')) return { kind: 'not-found' };
  return { kind: 'route', url };
}
