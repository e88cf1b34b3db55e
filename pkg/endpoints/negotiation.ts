// Media types of request bodies and responses.
import { newNotAcceptable, newUnsupportedMediaType } from '../runtime/errors.js';
import type { BodyFormat } from '../runtime/decoder.js';

export type OutputFormat = 'json' | 'yaml';

interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

/** Parses an Accept header into media ranges, best first. */
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
      if (k.toLowerCase() === 'q') q = Number.isNaN(Number(v)) ? 0 : Number(v);
      else params[k.toLowerCase()] = v.replace(/^"|"$/g, '');
    }
    ranges.push({ type, subtype, params, q });
  }
  return ranges.filter((r) => r.q > 0).sort((a, b) => b.q - a.q);
}

const supported: { type: string; subtype: string; format: OutputFormat }[] = [
  { type: 'application', subtype: 'json', format: 'json' },
  { type: 'application', subtype: 'yaml', format: 'yaml' },
];

/** Picks the response format from an Accept header; 406 when nothing offered is served. */
export function negotiateOutput(accept: string | undefined): OutputFormat {
  if (!accept || accept.trim() === '') return 'json';
  for (const r of parseAccept(accept)) {
    if (Object.keys(r.params).some((k) => k === 'as' || k === 'g' || k === 'v')) continue; // Table and other conversions come later
    for (const s of supported) {
      if ((r.type === '*' || r.type === s.type) && (r.subtype === '*' || r.subtype === s.subtype)) return s.format;
    }
  }
  throw newNotAcceptable(`only the following media types are accepted: ${supported.map((s) => `${s.type}/${s.subtype}`).join(', ')}`);
}

export type PatchType = 'json' | 'merge' | 'strategic';

const bodyTypes: Record<string, BodyFormat> = {
  'application/json': 'json',
  'application/yaml': 'yaml',
};

const patchTypes: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The format of a create/update body by its Content-Type (JSON when none is given); 415 otherwise. */
export function bodyFormat(contentType: string | undefined): BodyFormat {
  const mt = mediaType(contentType);
  if (mt === '') return 'json';
  const f = bodyTypes[mt];
  if (!f) throw newUnsupportedMediaType(mt, Object.keys(bodyTypes));
  return f;
}

/** The kind of patch by its Content-Type; 415 for anything not served (server-side apply comes later). */
export function patchType(contentType: string | undefined): PatchType {
  const mt = mediaType(contentType);
  const t = patchTypes[mt];
  if (!t) throw newUnsupportedMediaType(mt, Object.keys(patchTypes));
  return t;
}
