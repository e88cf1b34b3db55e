// Media types of request bodies and responses: Accept with q-values and fall-back lists,
// conversions (`as=Table;g=meta.<domain>;v=v1`), and Content-Type of bodies.
import { defaultApiDomain, upstreamProtobufMediaType, type ApiDomain } from '../../api/domain.js';
import { newNotAcceptable, newUnsupportedMediaType } from '../runtime/errors.js';
import type { BodyFormat } from '../runtime/decoder.js';

export type MediaFormat = 'json' | 'yaml' | 'protobuf';
/** Server-side conversions a client may ask for with `as=`. */
export type Conversion = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface OutputTarget {
  format: MediaFormat;
  as?: Conversion;
  /** The group the conversion was asked in (ours, or upstream's alias), for the answer's apiVersion. */
  group?: string;
  /** For protobuf: the media type the client named (ours or upstream's), which the answer is labelled with. */
  mediaType?: string;
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
}

/** Picks the response's format and conversion from an Accept header; 406 when nothing offered is served. */
export function negotiateOutput(accept: string | undefined, opts: NegotiationOptions): OutputTarget {
  if (!accept || accept.trim() === '') return { format: 'json' };
  const domain = opts.domain ?? defaultApiDomain;
  const formats = servedTypes(domain);
  const groups = conversionGroups(domain);
  for (const r of parseAccept(accept)) {
    const as = r.params.as;
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

export type PatchType = 'json' | 'merge' | 'strategic';

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
};

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The format of a create/update body by its Content-Type (JSON when none is given); 415 otherwise. */
export function bodyFormat(contentType: string | undefined, domain: ApiDomain = defaultApiDomain): ObjectBodyFormat {
  const mt = mediaType(contentType);
  if (mt === '') return 'json';
  const types = bodyTypes(domain);
  const f = types[mt];
  if (!f) throw newUnsupportedMediaType(mt, Object.keys(types));
  return f;
}

/** The kind of patch by its Content-Type; 415 for anything not served (server-side apply comes later). */
export function patchType(contentType: string | undefined): PatchType {
  const mt = mediaType(contentType);
  const t = patchTypes[mt];
  if (!t) throw newUnsupportedMediaType(mt, Object.keys(patchTypes));
  return t;
}
