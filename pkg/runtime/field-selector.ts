// Field selector strings (`metadata.name=web,status.phase!=Active`): `=`, `==` and `!=`, ANDed
// by commas; `\`, `,` and `=` in values are escaped with a backslash.
import { newBadRequest } from './errors.js';

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

function splitUnescaped(s: string, sep: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      cur += s[i]! + s[i + 1]!;
      i++;
    } else if (s[i] === sep) {
      parts.push(cur);
      cur = '';
    } else cur += s[i]!;
  }
  parts.push(cur);
  return parts;
}

function unescape(s: string, selector: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') {
      const n = s[i + 1];
      if (n !== '\\' && n !== ',' && n !== '=') throw newBadRequest(`invalid field selector: invalid escape sequence in "${selector}"`);
      out += n;
      i++;
    } else if (s[i] === ',' || s[i] === '=') {
      throw newBadRequest(`invalid field selector: unescaped '${s[i]}' in "${selector}"`);
    } else out += s[i]!;
  }
  return out;
}

/** Parses a field selector; throws 400 BadRequest when malformed or when a field is not in `supported` (when given). */
export function parseFieldSelector(selector: string, supported?: ReadonlySet<string>): FieldRequirement[] {
  const reqs: FieldRequirement[] = [];
  if (selector.trim() === '') return reqs;
  for (const part of splitUnescaped(selector, ',')) {
    if (part.trim() === '') continue; // upstream tolerates empty terms such as a trailing comma
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/s.exec(part);
    if (!m) throw newBadRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
    const field = m[1]!.trim();
    if (supported && !supported.has(field)) throw newBadRequest(`field label not supported: ${field}`);
    reqs.push({ field, op: m[2] === '!=' ? '!=' : '=', value: unescape(m[3]!, selector) });
  }
  return reqs;
}

/** Whether an object's selectable fields satisfy every requirement. */
export function matchesFields(reqs: FieldRequirement[], fields: Record<string, string>): boolean {
  return reqs.every((r) => ((fields[r.field] ?? '') === r.value) === (r.op === '='));
}

/**
 * The value a selector requires `field` to equal (upstream's RequiresExactMatch: the first `=` or
 * `==` term of the field); undefined when it requires none or does not parse.
 */
export function requiredExactMatch(selector: string, field: string): string | undefined {
  try {
    return parseFieldSelector(selector).find((r) => r.field === field && r.op === '=')?.value;
  } catch {
    return undefined;
  }
}
