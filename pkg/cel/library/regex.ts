// Kubernetes' regex library (library/regex.go): find and findAll on strings. Patterns are RE2 upstream;
// here they run on JavaScript's engine with the `u` flag, which agrees on the RE2 syntax Kubernetes
// rules use (RE2 refuses lookaround and back-references, which JavaScript would accept).
import type { Environment } from '@marcbachmann/cel-js';
import { fail } from './errors.js';

const cache = new Map<string, RegExp>();

/** The compiled pattern, or a CEL error worded as upstream's. */
export function compileRegex(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re) return re;
  try {
    re = new RegExp(pattern, 'gu');
  } catch (e) {
    fail(`error parsing regexp: ${(e as Error).message}`);
  }
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, re);
  return re;
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  if (limit === 0n) return [];
  const re = compileRegex(pattern);
  const out: string[] = [];
  for (const m of s.matchAll(re)) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

/** Registers find and findAll on `env`. */
export function registerRegex(env: Environment): void {
  env.registerFunction('string.find(string): string', (s: string, p: string) => findAll(s, p, 1n)[0] ?? '');
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n));
  env.registerFunction('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => findAll(s, p, n));
}
