// Named scalar shapes whose wire form is a string: the schema of the Go-side type says little to a
// client (a union, or a bare string), so they are published the way upstream publishes them,
// with a description of the format.
import { IntOrString, MicroTime, Quantity, Time } from '../../../api/meta/v1/primitives.js';
import type { Dialect, JsonObject } from './types.js';

function nameOf(schema: unknown): string {
  const name = (schema as Record<string, unknown>)['x-orch-type'];
  if (typeof name !== 'string') throw new Error('scalar shape without x-orch-type');
  return name;
}

const quantityDescription = [
  'A fixed-point amount with an optional unit, written as a string such as "100m", "1.5", "2Gi" or',
  '"1e3" (plain JSON numbers are accepted on input). The form is <sign><digits>[.<digits>]<suffix>',
  'where the suffix is empty, a binary SI multiple (Ki, Mi, Gi, Ti, Pi, Ei: powers of 1024), a',
  'decimal SI multiple (n, u, m, k, M, G, T, P, E: powers of 1000) or a decimal exponent (e<n> or E<n>).',
].join(' ');

const timeDescription = 'A point in time, written as an RFC 3339 string in UTC with second precision, such as "2024-05-01T12:00:00Z".';
const microTimeDescription = 'A point in time, written as an RFC 3339 string in UTC with microsecond precision, such as "2024-05-01T12:00:00.000001Z".';
const intOrStringDescription =
  'A value that is either a 32-bit integer or a string, such as a port number or a port name, or a count or a percentage like "25%".';

const scalars = new Map<string, (dialect: Dialect) => JsonObject>([
  [nameOf(Quantity), () => ({ type: 'string', description: quantityDescription })],
  [nameOf(Time), () => ({ type: 'string', format: 'date-time', description: timeDescription })],
  [nameOf(MicroTime), () => ({ type: 'string', format: 'date-time', description: microTimeDescription })],
  [nameOf(IntOrString), (dialect) => ({
    type: 'string',
    format: 'int-or-string',
    description: intOrStringDescription,
    'x-orch-int-or-string': true,
    ...(dialect === 'v3' ? { 'x-kubernetes-int-or-string': true } : {}),
  })],
]);

/** The published definition of a named scalar shape, or undefined for every other name. */
export function scalarDefinition(name: string, dialect: Dialect): JsonObject | undefined {
  return scalars.get(name)?.(dialect);
}
