// The `Warning` headers of one response, with upstream's limits (k8s.io/apiserver's warning filter):
// each text once, and once the texts together pass 4096 characters every warning, earlier ones
// included, is cut to its first 256. Texts are measured in code points, as Go counts runes.

/** Total characters of warning text before truncation starts. */
export const warningTotalLimit = 4 * 1024;
/** Characters each warning keeps once truncation has started. */
export const warningItemLimit = 256;

/**
 * Node writes header strings as Latin-1 and rejects anything wider; Go writes a header's UTF-8 bytes
 * as they are. Spelling the UTF-8 bytes as Latin-1 characters puts the same bytes on the wire.
 */
function utf8AsLatin1(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

/** C0, DEL and C1 controls, as Go's unicode.IsControl; a header cannot carry them, so upstream drops such warnings. */
const control = /[\u0000-\u001f\u007f-\u009f]/;
/** A lone surrogate has no UTF-8 form (Go: not valid UTF-8, the warning is dropped). */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `299 - "<text>"` with `"` and `\` escaped, or undefined for a text no header may carry. */
export function warningHeaderValue(text: string): string | undefined {
  if (control.test(text) || loneSurrogate.test(text)) return undefined;
  return utf8AsLatin1(`299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`);
}

function runes(s: string): string[] {
  return Array.from(s);
}

/** Collects the warnings of one response and gives the header values to send. */
export class WarningRecorder {
  private readonly seen = new Set<string>();
  private readonly ordered: string[] = [];
  private written = 0;
  private truncating = false;
  private values: string[] = [];

  add(text: string): void {
    if (text === '' || (this.truncating && this.written >= warningTotalLimit) || this.seen.has(text)) return;
    this.seen.add(text);
    this.ordered.push(text);
    let chars = runes(text);
    if (this.truncating && chars.length > warningItemLimit) chars = chars.slice(0, warningItemLimit);
    const value = warningHeaderValue(chars.join(''));
    if (value === undefined) return;
    if (this.truncating || this.written + chars.length <= warningTotalLimit) {
      this.written += chars.length;
      this.values.push(value);
      return;
    }
    // Over the total for the first time: start again with every warning so far cut short.
    this.truncating = true;
    this.written = 0;
    this.values = [];
    for (const w of this.ordered) {
      const cut = runes(w).slice(0, warningItemLimit);
      const v = warningHeaderValue(cut.join(''));
      if (v === undefined) continue;
      this.written += cut.length;
      this.values.push(v);
    }
  }

  headerValues(): string[] {
    return [...this.values];
  }
}
