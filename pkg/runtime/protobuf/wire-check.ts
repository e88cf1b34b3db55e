// A strict pass over protobuf bytes before protobufjs decodes them. protobufjs trusts the wire
// type of known fields and, reading from a Buffer, silently shortens a string that runs past
// the end; upstream's generated decoders reject both. This pass rejects what upstream rejects:
// bad tags, a known field with the wrong wire type, lengths past the end of their message,
// unknown wire types and too deep nesting.
import protobuf from 'protobufjs';
import { ProtobufDecodeError } from './errors.js';
import type { MessagePlan, ValuePlan } from './types.js';

const VARINT = 0;
const I64 = 1;
const LEN = 2;
const SGROUP = 3;
const EGROUP = 4;
const I32 = 5;

/** What one known field of a message must look like on the wire. */
export type FieldShape =
  | { wire: 'varint' | 'len' | 'i64'; repeated: boolean }
  | { wire: 'message'; shape: MessageShape };

export type MessageShape = ReadonlyMap<number, FieldShape>;

const maxDepth = 100;

const scalarShape = (wire: 'varint' | 'len' | 'i64', repeated = false): FieldShape => ({ wire, repeated });
const messageShape = (fields: [number, FieldShape][]): FieldShape => ({ wire: 'message', shape: new Map(fields) });

const timeShape = messageShape([[1, scalarShape('varint')], [2, scalarShape('varint')]]);
const intOrStringShape = messageShape([[1, scalarShape('varint')], [2, scalarShape('varint')], [3, scalarShape('len')]]);
const stringMessageShape = messageShape([[1, scalarShape('len')]]);

const shapes = new WeakMap<MessagePlan, Map<number, FieldShape>>();

function valueShape(v: ValuePlan, repeated: boolean): FieldShape {
  switch (v.kind) {
    case 'scalar':
      if (v.type === 'string' || v.type === 'bytes') return scalarShape('len', repeated);
      return scalarShape(v.type === 'double' ? 'i64' : 'varint', repeated);
    case 'time': return timeShape;
    case 'intOrString': return intOrStringShape;
    case 'quantity':
    case 'raw': return stringMessageShape;
    case 'message': return { wire: 'message', shape: shapeOf(v.plan) };
    case 'list': return messageShape([[1, valueShape(v.item, true)]]);
  }
}

/** The wire shape of a planned message (cached). */
export function shapeOf(plan: MessagePlan): MessageShape {
  let shape = shapes.get(plan);
  if (shape) return shape;
  shape = new Map();
  // Registered before the fields so that recursive plans terminate.
  shapes.set(plan, shape);
  for (const f of plan.fields) {
    const value = valueShape(f.value, f.shape === 'list');
    shape.set(f.id, f.shape === 'map' ? messageShape([[1, scalarShape('len')], [2, value]]) : value);
  }
  for (const e of plan.embedded) shape.set(e.id, { wire: 'message', shape: shapeOf(e.plan) });
  return shape;
}

function fail(message: string): never {
  throw new ProtobufDecodeError(`malformed protobuf: ${message}`);
}

function readVarint(r: protobuf.Reader, end: number): void {
  for (let i = 0; i < 10; i++) {
    if (r.pos >= end) fail('truncated varint');
    if ((r.buf[r.pos++]! & 0x80) === 0) return;
  }
  fail('varint longer than 10 bytes');
}

function readLength(r: protobuf.Reader, end: number): number {
  const start = r.pos;
  readVarint(r, end);
  r.pos = start;
  const len = r.uint32();
  if (len < 0 || r.pos + len > end) fail('length past the end of the message');
  return len;
}

function skipField(r: protobuf.Reader, wire: number, id: number, end: number, depth: number): void {
  switch (wire) {
    case VARINT: readVarint(r, end); return;
    case I64: if (r.pos + 8 > end) fail('truncated fixed64'); r.pos += 8; return;
    case LEN: {
      const len = readLength(r, end);
      r.pos += len;
      return;
    }
    case I32: if (r.pos + 4 > end) fail('truncated fixed32'); r.pos += 4; return;
    case SGROUP: {
      if (depth > maxDepth) fail('nesting too deep');
      for (;;) {
        if (r.pos >= end) fail('unterminated group');
        const tag = readTag(r, end);
        if ((tag & 7) === EGROUP) {
          if (tag >>> 3 !== id) fail('mismatched end of group');
          return;
        }
        skipField(r, tag & 7, tag >>> 3, end, depth + 1);
      }
    }
    default: fail(`invalid wire type ${wire}`);
  }
}

function readTag(r: protobuf.Reader, end: number): number {
  const start = r.pos;
  readVarint(r, end);
  if (r.pos - start > 5) fail('tag too long');
  r.pos = start;
  const tag = r.uint32();
  if (tag >>> 3 === 0) fail('illegal tag 0');
  return tag;
}

function checkMessage(shape: MessageShape, r: protobuf.Reader, end: number, depth: number): void {
  if (depth > maxDepth) fail('nesting too deep');
  while (r.pos < end) {
    const tag = readTag(r, end);
    const id = tag >>> 3;
    const wire = tag & 7;
    const field = shape.get(id);
    if (!field) {
      if (wire === EGROUP) fail('unexpected end of group');
      skipField(r, wire, id, end, depth);
      continue;
    }
    if (field.wire === 'message') {
      if (wire !== LEN) fail(`wrong wire type ${wire} for field ${id}`);
      const len = readLength(r, end);
      const subEnd = r.pos + len;
      checkMessage(field.shape, r, subEnd, depth + 1);
      continue;
    }
    const expected = field.wire === 'varint' ? VARINT : field.wire === 'i64' ? I64 : LEN;
    if (wire === expected) {
      skipField(r, wire, id, end, depth);
    } else if (wire === LEN && field.repeated && field.wire !== 'len') {
      // A packed repeated scalar.
      const len = readLength(r, end);
      const packedEnd = r.pos + len;
      if (field.wire === 'i64') {
        if (len % 8 !== 0) fail(`bad packed length for field ${id}`);
        r.pos = packedEnd;
      } else {
        while (r.pos < packedEnd) readVarint(r, packedEnd);
      }
    } else {
      fail(`wrong wire type ${wire} for field ${id}`);
    }
  }
  if (r.pos !== end) fail('field past the end of the message');
}

/** Throws ProtobufDecodeError unless `bytes` is a well-formed message of `shape`. */
export function checkWire(shape: MessageShape, bytes: Uint8Array): void {
  const r = protobuf.Reader.create(bytes);
  checkMessage(shape, r, bytes.length, 0);
}

/** The shape of a message given directly as field number -> shape. */
export function messageShapeOf(fields: [number, FieldShape][]): MessageShape {
  return new Map(fields);
}

export const wireShapes = { scalar: scalarShape, message: messageShape };
