// Media types of request bodies and responses: Accept with q-values and fall-back lists,
// conversions (`as=Table;g=meta.<domain>;v=v1`), and Content-Type of bodies.
import { defaultApiDomain, upstreamProtobufMediaType, type ApiDomain } from '../../api/domain.js';
import { newNotAcceptable, newUnsupportedMediaType } from '../runtime/errors.js';
import type { BodyFormat } from '../runtime/decoder.js';

export type MediaFormat = 'json' | 'yaml' | 'protobuf';
/** Server-side conversions a client may ask for with `as=`. */
export type Conversion = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** The versions of aggregated discovery (`as=APIGroupDiscoveryList;g=apidiscovery.<domain>`) served. */
export const aggregatedDiscoveryVersions = ['v2', 'v2beta1'] as const;
export type AggregatedDiscoveryVersion = (typeof aggregatedDiscoveryVersions)[number];

export interface OutputTarget {
  format: MediaFormat;
  as?: Conversion;
  /** The group the conversion was asked in (ours, or upstream's alias), for the answer's apiVersion. */
  group?: string;
  /** For protobuf: the media type the client named (ours or upstream's), which the answer is labelled with. */
  mediaType?: string;
  /** Set when the client asked for the aggregated discovery document (/api and /apis only), in this version. */
  aggregatedDiscovery?: AggregatedDiscoveryVersion;
}

interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

/**
 * The protobuf media types served: the domain's own, and upstream's, which stock kubectl and
 * client-go send whatever the server's domain.
 */
export function protobufMediaTypes(domain: ApiDomain): string[] {
  return [...new Set([domain.protobufMediaType, upstreamProtobufMediaType])];
}

/** Conversion groups: the domain's meta group, and upstream's meta.k8s.io that stock kubectl asks in. */
function conversionGroups(domain: ApiDomain): string[] {
  return [...new Set([domain.metaGroup, 'meta.k8s.io'])];
}

/** Parses an Accept header into media ranges, best first (ties keep the client's order). */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [full, ...paramParts] = part.trim().split(';').map((s) => s.trim());
    if (!full) continue;
    const [type = '', subtype = ''] = full.toLowerCase().split('/');
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of paramParts) {
      const [k, v = ''] = p.split('=').map((s) => s.trim());
      if (!k) continue;
      if (k.toLowerCase() === 'q') q = Number.isNaN(Number(v)) ? 0 : Math.min(Math.max(Number(v), 0), 1);
      else params[k.toLowerCase()] = v.replace(/^"|"$/g, '');
    }
    ranges.push({ type, subtype, params, q });
  }
  return ranges.filter((r) => r.q > 0).sort((a, b) => b.q - a.q);
}

interface ServedType {
  type: string;
  subtype: string;
  format: MediaFormat;
}

/** The served media types in order of preference for wildcards: JSON, YAML, then protobuf. */
function servedTypes(domain: ApiDomain): ServedType[] {
  return [
    { type: 'application', subtype: 'json', format: 'json' },
    { type: 'application', subtype: 'yaml', format: 'yaml' },
    ...protobufMediaTypes(domain).map((t): ServedType => ({ type: 'application', subtype: t.slice('application/'.length), format: 'protobuf' })),
  ];
}

export interface NegotiationOptions {
  /** Formats the endpoint can write (discovery documents have no protobuf form here). */
  formats: readonly MediaFormat[];
  /** Conversions the endpoint serves (resource get, list and watch serve Table and metadata). */
  conversions: readonly Conversion[];
  /** The platform domain, which names our protobuf type and meta group; orch.io when absent. */
  domain?: ApiDomain;
  /** Whether the endpoint serves the aggregated discovery document (as JSON or YAML), as /api and /apis do. */
  aggregatedDiscovery?: boolean;
}

/**
 * Answers of negotiateOutput by Accept header and what the endpoint serves: clients send the same
 * few headers on every request, so each is parsed once. Bounded, as the headers are the client's to
 * choose: past the bound the memo starts afresh.
 */
const negotiated = new Map<string, Readonly<OutputTarget>>();
const NEGOTIATED_MAX = 256;

/** Picks the response's format and conversion from an Accept header; 406 when nothing offered is served. */
export function negotiateOutput(accept: string | undefined, opts: NegotiationOptions): Readonly<OutputTarget> {
  if (!accept || accept.trim() === '') return { format: 'json' };
  const domain = opts.domain ?? defaultApiDomain;
  const key = `${domain.name}\u0000${opts.formats.join(',')}\u0000${opts.conversions.join(',')}\u0000${opts.aggregatedDiscovery ?? false}\u0000${accept}`;
  let target = negotiated.get(key);
  if (!target) {
    target = Object.freeze(negotiate(accept, opts, domain));
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(key, target);
  }
  return target;
}

function negotiate(accept: string, opts: NegotiationOptions, domain: ApiDomain): OutputTarget {
  const formats = servedTypes(domain);
  const groups = conversionGroups(domain);
  for (const r of parseAccept(accept)) {
    const as = r.params.as;
    if (as === 'APIGroupDiscoveryList') {
      const found = opts.aggregatedDiscovery ? aggregatedDiscoveryTarget(r, formats.filter((f) => f.format !== 'protobuf' && opts.formats.includes(f.format)), domain) : undefined;
      if (found) return found;
      continue;
    }
    if (as !== undefined) {
      // A conversion counts only when the client names our group and version, as upstream requires.
      if (!groups.includes(r.params.g ?? '') || r.params.v !== 'v1') continue;
      if (!opts.conversions.some((c) => c === as)) continue;
    }
    for (const f of formats) {
      if (!opts.formats.includes(f.format)) continue;
      if ((r.type === '*' || r.type === f.type) && (r.subtype === '*' || r.subtype === f.subtype)) {
        if (as === 'Table' && f.format === 'protobuf') continue; // Tables are served as JSON or YAML
        const target: OutputTarget = as ? { format: f.format, as: as as Conversion, group: r.params.g! } : { format: f.format };
        if (f.format === 'protobuf') target.mediaType = `${f.type}/${f.subtype}`;
        return target;
      }
    }
  }
  const served = formats.filter((f) => opts.formats.includes(f.format)).map((f) => `${f.type}/${f.subtype}`);
  throw newNotAcceptable(`only the following media types are accepted: ${served.join(', ')}`);
}

/**
 * The aggregated discovery document in the version and format a media range asks for, if it names
 * our apidiscovery group (stock clients name upstream's: only under --api-domain=k8s.io is it ours).
 * It has no protobuf form here.
 */
function aggregatedDiscoveryTarget(r: MediaRange, formats: ServedType[], domain: ApiDomain): OutputTarget | undefined {
  const version = aggregatedDiscoveryVersions.find((v) => v === r.params.v);
  if (r.params.g !== domain.group('apidiscovery') || !version) return undefined;
  const f = formats.find((x) => (r.type === '*' || r.type === x.type) && (r.subtype === '*' || r.subtype === x.subtype));
  return f ? { format: f.format, aggregatedDiscovery: version } : undefined;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export type ObjectBodyFormat = BodyFormat | 'protobuf';

function bodyTypes(domain: ApiDomain): Record<string, ObjectBodyFormat> {
  const types: Record<string, ObjectBodyFormat> = { 'application/json': 'json', 'application/yaml': 'yaml' };
  for (const t of protobufMediaTypes(domain)) types[t] = 'protobuf';
  return types;
}

const patchTypes: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/**
 * The media type of a Content-Type header, lower-cased, as Go's mime.ParseMediaType reads it
 * (upstream negotiates request bodies with it), and its charset parameter if any; null when the
 * header does not parse: `application/json;;;;`, `application/json; charset`, `; charset=utf-8`,
 * `application/json/x`, duplicate parameters with different values, unterminated quotes.
 */
function mediaType(contentType: string): { type: string; charset?: string } | null {
  const isTokenChar = (c: number) => c > 0x20 && c < 0x80 && !'()<>@,;:\\"/[]?='.includes(String.fromCharCode(c));
  const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  const token = (s: string, from: number): number => {
    let i = from;
    while (i < s.length && isTokenChar(s.charCodeAt(i))) i++;
    return i;
  };
  const skipSpace = (s: string, from: number): number => {
    let i = from;
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
    return i;
  };
  const semi = contentType.indexOf(';');
  const base = (semi < 0 ? contentType : contentType.slice(0, semi)).toLowerCase().trim();
  // type, or type/subtype, both tokens and nothing after them
  const typeEnd = token(base, 0);
  if (typeEnd === 0) return null;
  if (typeEnd < base.length) {
    if (base[typeEnd] !== '/') return null;
    const subEnd = token(base, typeEnd + 1);
    if (subEnd === typeEnd + 1 || subEnd !== base.length) return null;
  }
  const params = new Map<string, string>();
  let rest = semi < 0 ? '' : contentType.slice(semi);
  for (;;) {
    let i = skipSpace(rest, 0);
    if (i >= rest.length) break;
    const failAt = rest.slice(i);
    // ; name = value
    const bad = () => failAt.trim() === ';'; // a single trailing semicolon is tolerated
    if (rest[i] !== ';') return bad() ? { type: base, ...charsetOf(params) } : null;
    i = skipSpace(rest, i + 1);
    const nameEnd = token(rest, i);
    if (nameEnd === i) return bad() ? { type: base, ...charsetOf(params) } : null;
    const name = rest.slice(i, nameEnd).toLowerCase();
    i = skipSpace(rest, nameEnd);
    if (rest[i] !== '=') return null;
    i = skipSpace(rest, i + 1);
    let value: string;
    if (rest[i] === '"') {
      let j = i + 1;
      value = '';
      for (; j < rest.length && rest[j] !== '"'; j++) {
        if (rest[j] === '\\' && j + 1 < rest.length && '()<>@,;:\\"/[]?='.includes(rest[j + 1]!)) value += rest[++j];
        else if (rest[j] === '\r' || rest[j] === '\n') return null;
        else value += rest[j];
      }
      if (j >= rest.length) return null; // no closing quote
      i = j + 1;
    } else {
      const valueEnd = token(rest, i);
      if (valueEnd === i) return null;
      value = rest.slice(i, valueEnd);
      i = valueEnd;
    }
    if (params.has(name) && params.get(name) !== value) return null; // duplicate parameter
    params.set(name, value);
    rest = rest.slice(i);
  }
  return { type: base, ...charsetOf(params) };

  function charsetOf(p: Map<string, string>): { charset?: string } {
    const c = p.get('charset');
    return c === undefined ? {} : { charset: c };
  }
}

/** Charsets a body may declare: we read bodies as UTF-8, of which US-ASCII is a subset. */
function readableCharset(charset: string | undefined): boolean {
  return charset === undefined || ['utf-8', 'utf8', 'us-ascii'].includes(charset.toLowerCase());
}

/**
 * The format of a create/update body by its Content-Type (JSON when none is given); 415 for a
 * type not served, a header that does not parse, or a charset other than UTF-8.
 */
export function bodyFormat(contentType: string | undefined, domain: ApiDomain = defaultApiDomain): ObjectBodyFormat {
  if (contentType === undefined || contentType.trim() === '') return 'json';
  const mt = mediaType(contentType);
  const types = bodyTypes(domain);
  const f = mt && readableCharset(mt.charset) ? types[mt.type] : undefined;
  if (!f) throw newUnsupportedMediaType(Object.keys(types));
  return f;
}

/** The kind of patch by its Content-Type, parsed as bodyFormat parses it; 415 for anything not served. */
export function patchType(contentType: string | undefined): PatchType {
  const mt = contentType === undefined ? null : mediaType(contentType);
  const t = mt && readableCharset(mt.charset) ? patchTypes[mt.type] : undefined;
  if (!t) throw newUnsupportedMediaType(Object.keys(patchTypes));
  return t;
}
