import { isDeepStrictEqual } from 'node:util';

/**
 * The top-level fields that differ between two objects, one `-` (before) and `+` (after) line
 * each: the detail upstream appends (as a cmp.Diff) to its "is immutable" messages.
 */
export function shortDiff(before: object, after: object): string {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const lines: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (isDeepStrictEqual(a[key], b[key])) continue;
    if (a[key] !== undefined) lines.push(`-\t${key}: ${JSON.stringify(a[key])}`);
    if (b[key] !== undefined) lines.push(`+\t${key}: ${JSON.stringify(b[key])}`);
  }
  return lines.join('\n');
}
