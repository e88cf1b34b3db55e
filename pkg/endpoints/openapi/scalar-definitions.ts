// Named scalar shapes with a wire form of their own: the schema of the Go-side type says little to
// a client, so they are published exactly as upstream's generated documents spell them (Swagger
// 2.0 has no unions: a string with a format; OpenAPI 3.0 lists the JSON types with oneOf), with a
// description of the format.
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

const oneOfTypes = (...types: string[]): JsonObject[] => types.map((type) => ({ type }));

const scalars = new Map<string, (dialect: Dialect) => JsonObject>([
  [nameOf(Quantity), (dialect): JsonObject => (dialect === 'v2'
    ? { type: 'string', description: quantityDescription }
    : { oneOf: oneOfTypes('string', 'number'), description: quantityDescription })],
  [nameOf(Time), () => ({ type: 'string', format: 'date-time', description: timeDescription })],
  [nameOf(MicroTime), () => ({ type: 'string', format: 'date-time', description: microTimeDescription })],
  [nameOf(IntOrString), (dialect): JsonObject => (dialect === 'v2'
    ? { type: 'string', format: 'int-or-string', description: intOrStringDescription }
    : { format: 'int-or-string', oneOf: oneOfTypes('integer', 'string'), description: intOrStringDescription })],
]);

/** The published definition of a named scalar shape, or undefined for every other name. */
export function scalarDefinition(name: string, dialect: Dialect): JsonObject | undefined {
  return scalars.get(name)?.(dialect);
}
