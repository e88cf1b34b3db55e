// The parts of cel-go's strings extension (version 2, as Kubernetes 1.29+ enables it) and of its
// sets extension that the evaluator lacks: charAt, replace, strings.quote, format, and
// sets.contains / sets.equivalent / sets.intersects.
import type { Environment } from '@marcbachmann/cel-js';
import { celToJson, equalValues } from '../values.js';
import { fail } from './errors.js';

class StringsNamespace {}
class SetsNamespace {}

/** Go's strings.Replace: the first n (all when negative) occurrences of `from` become `to`. */
function replace(s: string, from: string, to: string, n: bigint): string {
  if (n === 0n) return s;
  if (from === '') {
    const chars = [...s];
    let out = '';
    let done = 0n;
    for (let i = 0; i <= chars.length; i++) {
      if (n < 0n || done < n) {
        out += to;
        done++;
      }
      out += chars[i] ?? '';
    }
    return out;
  }
  const parts = s.split(from);
  if (n < 0n || BigInt(parts.length - 1) <= n) return parts.join(to);
  const k = Number(n);
  return `${parts.slice(0, k + 1).join(to)}${from}${parts.slice(k + 1).join(from)}`;
}

function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (ch === '\x07') out += '\\a';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function formatValue(verb: string, v: unknown, precision: number | undefined): string {
  switch (verb) {
    case 's':
      if (typeof v === 'string') return v;
      if (Array.isArray(v) || (v !== null && typeof v === 'object' && !(v instanceof Date))) return JSON.stringify(celToJson(v));
      return String(v instanceof Date ? v.toISOString() : v);
    case 'd':
      if (typeof v !== 'bigint' && !(typeof v === 'object' && v !== null && 'valueOf' in v && typeof v.valueOf() === 'bigint')) fail(`error during formatting: decimal clause can only be used on integers, was given ${typeof v}`);
      return String(v);
    case 'f':
    case 'e':
      if (typeof v !== 'number' && typeof v !== 'bigint') fail(`error during formatting: fixed-point clause can only be used on doubles, was given ${typeof v}`);
      return verb === 'f' ? Number(v).toFixed(precision ?? 6) : Number(v).toExponential(precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
    case 'b':
      return typeof v === 'boolean' ? String(v) : BigInt(v as bigint).toString(2);
    case 'o':
      return BigInt(v as bigint).toString(8);
    case 'x':
    case 'X': {
      const t = typeof v === 'string' ? Buffer.from(v).toString('hex') : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : BigInt(v as bigint).toString(16);
      return verb === 'X' ? t.toUpperCase() : t;
    }
    default:
      return fail(`error during formatting: unrecognized formatting clause "${verb}"`);
  }
}

function format(s: string, args: unknown[]): string {
  let i = 0;
  return s.replace(/%(?:\.(\d+))?([a-zA-Z%])/g, (_m, prec: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) fail(`error during formatting: index ${i} out of range`);
    return formatValue(verb, args[i++], prec === undefined ? undefined : Number(prec));
  });
}

/** Registers the missing string and set functions on `env`. */
export function registerStringsAndSets(env: Environment): void {
  env.registerType('kubernetes.internal.Strings', StringsNamespace);
  env.registerConstant('strings', 'kubernetes.internal.Strings', new StringsNamespace());
  env.registerType('kubernetes.internal.Sets', SetsNamespace);
  env.registerConstant('sets', 'kubernetes.internal.Sets', new SetsNamespace());
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = [...s];
    if (i < 0n || i > BigInt(chars.length)) fail(`index out of range: ${i}`);
    return chars[Number(i)] ?? '';
  });
  env.registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => replace(s, a, b, -1n));
  env.registerFunction('string.replace(string, string, int): string', (s: string, a: string, b: string, n: bigint) => replace(s, a, b, n));
  env.registerFunction('string.format(list<dyn>): string', (s: string, args: unknown[]) => format(s, args));
  env.registerFunction('kubernetes.internal.Strings.quote(string): string', (_ns: StringsNamespace, s: string) => quote(s));
  const contains = (a: unknown[], b: unknown[]) => b.every((x) => a.some((y) => equalValues(x, y)));
  env.registerFunction('kubernetes.internal.Sets.contains(list<A>, list<A>): bool', (_ns: SetsNamespace, a: unknown[], b: unknown[]) => contains(a, b));
  env.registerFunction('kubernetes.internal.Sets.equivalent(list<A>, list<A>): bool', (_ns: SetsNamespace, a: unknown[], b: unknown[]) => contains(a, b) && contains(b, a));
  env.registerFunction('kubernetes.internal.Sets.intersects(list<A>, list<A>): bool', (_ns: SetsNamespace, a: unknown[], b: unknown[]) => a.some((x) => b.some((y) => equalValues(x, y))));
}
