// Kubernetes' list library (k8s.io/apiserver/pkg/cel/library/lists.go): isSorted, sum, min, max,
// indexOf and lastIndexOf on lists of comparable elements.
import type { Environment } from '@marcbachmann/cel-js';
import { compareValues, equalValues } from '../values.js';
import { fail } from './errors.js';

const summable = ['int', 'uint', 'double'];
const comparable = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp'];

function zero(type: string): unknown {
  return type === 'double' ? 0 : 0n;
}

/** Registers the list functions on `env`. */
export function registerLists(env: Environment): void {
  for (const t of comparable) {
    env.registerFunction(`list<${t}>.isSorted(): bool`, (l: unknown[]) => l.every((v, i) => i === 0 || compareValues(l[i - 1], v) <= 0));
    env.registerFunction(`list<${t}>.min(): ${t}`, (l: unknown[]) => extreme(l, -1, 'min'));
    env.registerFunction(`list<${t}>.max(): ${t}`, (l: unknown[]) => extreme(l, 1, 'max'));
  }
  for (const t of summable) {
    env.registerFunction(`list<${t}>.sum(): ${t}`, (l: unknown[]) => l.reduce((a, b) => sum(a, b), zero(t)));
  }
  env.registerFunction('list<A>.indexOf(A): int', (l: unknown[], x: unknown) => BigInt(l.findIndex((v) => equalValues(v, x))));
  env.registerFunction('list<A>.lastIndexOf(A): int', (l: unknown[], x: unknown) => {
    for (let i = l.length - 1; i >= 0; i--) if (equalValues(l[i], x)) return BigInt(i);
    return -1n;
  });
}

function extreme(l: unknown[], sign: number, name: string): unknown {
  if (l.length === 0) fail(`${name} called on empty list`);
  let best = l[0];
  for (const v of l.slice(1)) if (compareValues(v, best) * sign > 0) best = v;
  return best;
}

function sum(a: unknown, b: unknown): unknown {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    const r = a + b;
    if (r > 9223372036854775807n || r < -9223372036854775808n) fail('integer overflow');
    return r;
  }
  return Number(a) + Number(b);
}
