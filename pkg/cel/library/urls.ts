// Kubernetes' URL library (library/urls.go): url(), isURL() and the URL accessors. Strings are parsed
// as Go's url.ParseRequestURI parses them: an absolute URL or an absolute path, no fragment.
import type { Environment } from '@marcbachmann/cel-js';
import { parseGoURL } from '../../util/go-url.js';
import { fail } from './errors.js';

/** A parsed URL (kubernetes.URL). */
export class KubeURL {
  constructor(readonly raw: string, readonly scheme: string, readonly host: string, readonly escapedPath: string, readonly rawQuery: string) {}
  equals(o: unknown): boolean {
    return o instanceof KubeURL && o.raw === this.raw;
  }
}

/** The URL, or the error text of Go's ParseRequestURI. */
function parseRequestURI(raw: string): KubeURL | string {
  const invalid = `parse ${JSON.stringify(raw)}: invalid URI for request`;
  const colon = raw.indexOf(':');
  const slash = raw.indexOf('/');
  const absolute = colon > 0 && (slash < 0 || colon < slash);
  if (!absolute && !raw.startsWith('/')) return invalid;
  // ParseRequestURI keeps a '#' in the path: only the part before any '?' is the path.
  const parsed = parseGoURL(raw.replaceAll('#', '%23'));
  if (parsed.error !== undefined) return parsed.error;
  const u = parsed.url;
  if (absolute && u.opaque !== '' && !raw.slice(colon + 1).startsWith('/')) return invalid;
  const afterScheme = absolute ? raw.slice(colon + 1) : raw;
  const authority = afterScheme.startsWith('//');
  const rest = authority ? afterScheme.slice(2) : afterScheme;
  const q = rest.indexOf('?');
  const beforeQuery = q < 0 ? rest : rest.slice(0, q);
  const pathStart = authority ? beforeQuery.indexOf('/') : 0;
  const escapedPath = pathStart < 0 ? '' : beforeQuery.slice(pathStart);
  return new KubeURL(raw, u.scheme, u.host, escapedPath, q < 0 ? '' : rest.slice(q + 1));
}

function hostname(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? host : host.slice(1, end);
  }
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

function port(host: string): string {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : 0;
  const colon = host.indexOf(':', end);
  return colon < 0 ? '' : host.slice(colon + 1);
}

function query(raw: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of raw.split(/[&]/)) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const dec = (s: string) => {
      try {
        return decodeURIComponent(s.replaceAll('+', ' '));
      } catch {
        return undefined;
      }
    };
    const k = dec(eq < 0 ? part : part.slice(0, eq));
    const v = dec(eq < 0 ? '' : part.slice(eq + 1));
    if (k === undefined || v === undefined) continue;
    (out[k] ??= []).push(v);
  }
  return out;
}

/** Registers the URL functions on `env`. */
export function registerURLs(env: Environment): void {
  env.registerType('kubernetes.URL', KubeURL);
  env.registerFunction('url(string): kubernetes.URL', (s: string) => {
    const u = parseRequestURI(s);
    if (typeof u === 'string') fail(`URL parse error during conversion from string: ${u}`);
    return u;
  });
  env.registerFunction('isURL(string): bool', (s: string) => typeof parseRequestURI(s) !== 'string');
  env.registerFunction('kubernetes.URL.getScheme(): string', (u: KubeURL) => u.scheme);
  env.registerFunction('kubernetes.URL.getHost(): string', (u: KubeURL) => u.host);
  env.registerFunction('kubernetes.URL.getHostname(): string', (u: KubeURL) => hostname(u.host));
  env.registerFunction('kubernetes.URL.getPort(): string', (u: KubeURL) => port(u.host));
  env.registerFunction('kubernetes.URL.getEscapedPath(): string', (u: KubeURL) => u.escapedPath);
  env.registerFunction('kubernetes.URL.getQuery(): map<string, list<string>>', (u: KubeURL) => new Map(Object.entries(query(u.rawQuery))));
  env.registerOperator('kubernetes.URL == kubernetes.URL', (a: KubeURL, b: KubeURL) => a.equals(b));
}
