// Kubernetes' quantity library (library/quantity.go): quantity(), isQuantity() and the Quantity
// methods, on exact decimal arithmetic (pkg/runtime/quantity-exact.ts).
import type { Environment } from '@marcbachmann/cel-js';
import { addQuantity, compareQuantity, parseExact, subQuantity, type ExactQuantity } from '../../runtime/quantity-exact.js';
import { fail } from './errors.js';

const NANO = 10n ** 9n;
const maxInt64 = 9223372036854775807n;
const minInt64 = -9223372036854775808n;

/** A resource quantity (kubernetes.Quantity). */
export class KubeQuantity {
  constructor(readonly q: ExactQuantity) {}
  equals(o: unknown): boolean {
    return o instanceof KubeQuantity && compareQuantity(this.q, o.q) === 0;
  }
}

// Upstream's resource.ParseQuantity is stricter than the exact parser about the suffix's case.
const quantityShape = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;

function parse(s: string): KubeQuantity | undefined {
  if (!quantityShape.test(s)) return undefined;
  const q = parseExact(s);
  return q ? new KubeQuantity(q) : undefined;
}

const fromInt = (n: bigint): KubeQuantity => new KubeQuantity({ nanos: n * NANO, format: 'DecimalSI' });

/** Registers the quantity functions on `env`. */
export function registerQuantity(env: Environment): void {
  const T = 'kubernetes.Quantity';
  env.registerType(T, KubeQuantity);
  env.registerFunction(`quantity(string): ${T}`, (s: string) => parse(s) ?? fail('quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\''));
  env.registerFunction('isQuantity(string): bool', (s: string) => parse(s) !== undefined);
  env.registerFunction(`${T}.sign(): int`, (a: KubeQuantity) => BigInt(Math.sign(Number(a.q.nanos))));
  env.registerFunction(`${T}.isInteger(): bool`, (a: KubeQuantity) => a.q.nanos % NANO === 0n && a.q.nanos / NANO <= maxInt64 && a.q.nanos / NANO >= minInt64);
  env.registerFunction(`${T}.asInteger(): int`, (a: KubeQuantity) => {
    if (a.q.nanos % NANO !== 0n || a.q.nanos / NANO > maxInt64 || a.q.nanos / NANO < minInt64) fail('cannot convert value to integer');
    return a.q.nanos / NANO;
  });
  env.registerFunction(`${T}.asApproximateFloat(): double`, (a: KubeQuantity) => Number(a.q.nanos) / 1e9);
  env.registerFunction(`${T}.add(${T}): ${T}`, (a: KubeQuantity, b: KubeQuantity) => new KubeQuantity(addQuantity(a.q, b.q)));
  env.registerFunction(`${T}.add(int): ${T}`, (a: KubeQuantity, b: bigint) => new KubeQuantity(addQuantity(a.q, fromInt(b).q)));
  env.registerFunction(`${T}.sub(${T}): ${T}`, (a: KubeQuantity, b: KubeQuantity) => new KubeQuantity(subQuantity(a.q, b.q)));
  env.registerFunction(`${T}.sub(int): ${T}`, (a: KubeQuantity, b: bigint) => new KubeQuantity(subQuantity(a.q, fromInt(b).q)));
  env.registerFunction(`${T}.isLessThan(${T}): bool`, (a: KubeQuantity, b: KubeQuantity) => compareQuantity(a.q, b.q) < 0);
  env.registerFunction(`${T}.isGreaterThan(${T}): bool`, (a: KubeQuantity, b: KubeQuantity) => compareQuantity(a.q, b.q) > 0);
  env.registerFunction(`${T}.compareTo(${T}): int`, (a: KubeQuantity, b: KubeQuantity) => BigInt(compareQuantity(a.q, b.q)));
  env.registerOperator(`${T} == ${T}`, (a: KubeQuantity, b: KubeQuantity) => a.equals(b));
}
