// Scalar shapes with a wire format of their own: timestamps, int-or-string, quantities.
import { Type, type SchemaOptions } from '@sinclair/typebox';

/** A metav1.Time value: RFC 3339 in UTC with whole seconds, e.g. 2026-01-02T03:04:05Z. */
export function formatTime(d: Date): string {
  // Every write stamps a time (creationTimestamp, managedFields), mostly within the same second.
  const second = Math.floor(d.getTime() / 1000);
  if (second !== lastSecond) {
    // An invalid Date (NaN) never matches and throws in toISOString, as before.
    lastFormatted = d.toISOString().replace(/\.\d+Z$/, 'Z');
    lastSecond = second;
  }
  return lastFormatted;
}

let lastSecond = NaN;
let lastFormatted = '';

/** RFC 3339 timestamp with second precision (metav1.Time). */
export const Time = Type.String({ format: 'date-time', 'x-orch-type': 'io.orch.apimachinery.pkg.apis.meta.v1.Time' });

/** RFC 3339 timestamp with microsecond precision (metav1.MicroTime). */
export const MicroTime = Type.String({
  format: 'date-time',
  'x-orch-type': 'io.orch.apimachinery.pkg.apis.meta.v1.MicroTime',
});

/** An int32 or a string such as "25%" (intstr.IntOrString). */
export const IntOrString = Type.Union([Type.Integer({ format: 'int32' }), Type.String()], {
  'x-orch-int-or-string': true,
  'x-orch-type': 'io.orch.apimachinery.pkg.util.intstr.IntOrString',
});

/** A resource quantity such as "100m", "1Gi" or 2; numbers are accepted as in upstream JSON. */
export const Quantity = Type.Union([Type.String({ format: 'quantity' }), Type.Number()], {
  'x-orch-type': 'io.orch.apimachinery.pkg.api.resource.Quantity',
});

export const time = (proto: number, options: SchemaOptions = {}) =>
  Type.Unsafe<string>({ ...Time, ...options, 'x-proto': proto });
export const microTime = (proto: number, options: SchemaOptions = {}) =>
  Type.Unsafe<string>({ ...MicroTime, ...options, 'x-proto': proto });
export const intOrString = (proto: number, options: SchemaOptions = {}) =>
  Type.Unsafe<number | string>({ ...IntOrString, ...options, 'x-proto': proto });
export const quantity = (proto: number, options: SchemaOptions = {}) =>
  Type.Unsafe<number | string>({ ...Quantity, ...options, 'x-proto': proto });
/** map[string]Quantity (ResourceList). */
export const resourceList = (proto: number, options: SchemaOptions = {}) =>
  Type.Record(Type.String(), Type.Unsafe<number | string>({ ...Quantity }), { ...options, 'x-proto': proto });
