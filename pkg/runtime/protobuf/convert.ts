// Converts between our JSON objects and protobufjs message objects, following a MessagePlan.
// Encoding writes only what the JSON has (proto2 presence, never default-filled); decoding gives
// back exactly the properties present on the wire.
import protobuf from 'protobufjs';
import { ProtobufDecodeError } from './errors.js';
import { formatMicroTime, formatTime, parseTimestamp } from './time.js';
import type { FieldPlan, MessagePlan, ValuePlan } from './types.js';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function has(obj: Json, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Sets an own property even for keys such as `__proto__` (label keys are arbitrary strings). */
function setOwn(obj: Json, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function isInt32(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= -2_147_483_648 && v <= 2_147_483_647;
}

function encodeError(path: string, expected: string, v: unknown): TypeError {
  return new TypeError(`protobuf: cannot encode ${path}: expected ${expected}, got ${describeValue(v)}`);
}

// ---- JSON -> protobuf message objects -----------------------------------------------------------

function toProtoValue(plan: ValuePlan, v: unknown, path: string): unknown {
  switch (plan.kind) {
    case 'scalar':
      switch (plan.type) {
        case 'string':
          if (typeof v !== 'string') throw encodeError(path, 'a string', v);
          return v;
        case 'bool':
          if (typeof v !== 'boolean') throw encodeError(path, 'a boolean', v);
          return v;
        case 'int32':
          if (!isInt32(v)) throw encodeError(path, 'a 32-bit integer', v);
          return v;
        case 'int64':
          if (typeof v !== 'number' || !Number.isInteger(v)) throw encodeError(path, 'an integer', v);
          return v;
        case 'double':
          if (typeof v !== 'number') throw encodeError(path, 'a number', v);
          return v;
        case 'bytes':
          if (typeof v !== 'string') throw encodeError(path, 'a base64 string', v);
          return Buffer.from(v, 'base64');
      }
      break;
    case 'time': {
      if (typeof v !== 'string') throw encodeError(path, 'an RFC 3339 time', v);
      const ts = parseTimestamp(v);
      if (!ts) throw encodeError(path, 'an RFC 3339 time', v);
      // Upstream always writes both fields of a non-zero time.
      return { seconds: ts.seconds, nanos: ts.nanos };
    }
    case 'intOrString':
      // Upstream writes all three fields.
      if (isInt32(v)) return { type: 0, intVal: v, strVal: '' };
      if (typeof v === 'string') return { type: 1, intVal: 0, strVal: v };
      throw encodeError(path, 'an integer or a string', v);
    case 'quantity':
      if (typeof v === 'string') return { string: v };
      if (typeof v === 'number' && Number.isFinite(v)) return { string: String(v) };
      throw encodeError(path, 'a quantity', v);
    case 'raw':
      return { raw: Buffer.from(JSON.stringify(v), 'utf8') };
    case 'message':
      if (!isObject(v)) throw encodeError(path, 'an object', v);
      return toProtoMessage(plan.plan, v, path);
    case 'list':
      if (!Array.isArray(v)) throw encodeError(path, 'an array', v);
      return { items: v.map((item, i) => toProtoValue(plan.item, item, `${path}[${i}]`)) };
  }
  throw encodeError(path, 'a known value', v);
}

function toProtoField(field: FieldPlan, v: unknown, path: string): unknown {
  if (field.shape === 'list') {
    if (!Array.isArray(v)) throw encodeError(path, 'an array', v);
    return v.map((item, i) => {
      if (item === null || item === undefined) throw encodeError(`${path}[${i}]`, 'a value', item);
      return toProtoValue(field.value, item, `${path}[${i}]`);
    });
  }
  if (field.shape === 'map') {
    if (!isObject(v)) throw encodeError(path, 'an object', v);
    const out: Json = {};
    // Upstream writes map entries sorted by key.
    for (const key of Object.keys(v).sort()) {
      const item = v[key];
      if (item === null || item === undefined) continue;
      setOwn(out, key, toProtoValue(field.value, item, `${path}[${JSON.stringify(key)}]`));
    }
    return out;
  }
  return toProtoValue(field.value, v, path);
}

/** The protobufjs message object of `json`: only present (non-null) properties with an `x-proto` number. */
export function toProtoMessage(plan: MessagePlan, json: Json, path = plan.name): Json {
  const out: Json = {};
  for (const field of plan.fields) {
    if (!has(json, field.json)) continue;
    const v = json[field.json];
    if (v === undefined) continue;
    if (v === null) {
      // A zero time is null in JSON (a non-pointer metav1.Time); upstream writes it as an empty message.
      if (field.shape === 'single' && field.value.kind === 'time') out[field.proto] = {};
      continue;
    }
    out[field.proto] = toProtoField(field, v, `${path}.${field.json}`);
  }
  for (const e of plan.embedded) {
    const sub = toProtoMessage(e.plan, json, path);
    if (Object.keys(sub).length > 0) out[e.proto] = sub;
  }
  return out;
}

// ---- protobuf message objects -> JSON -----------------------------------------------------------

// Times upstream can represent: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
const minSeconds = -62_135_596_800;
const maxSeconds = 253_402_300_799;

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' || (isObject(v) && typeof v.low === 'number' && typeof v.high === 'number')) {
    const bits = protobuf.util.LongBits.from(v as protobuf.Long | string);
    // A JS number holds integers exactly only up to 2^53; beyond that the value would change.
    const exact = BigInt.asIntN(64, (BigInt(bits.hi >>> 0) << 32n) | BigInt(bits.lo >>> 0));
    if (exact > 2n ** 53n || exact < -(2n ** 53n)) throw new ProtobufDecodeError(`the number ${exact} cannot be represented exactly`);
    return Number(exact);
  }
  throw new ProtobufDecodeError(`expected an integer, got ${describeValue(v)}`);
}

function toBuffer(v: unknown): Buffer {
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (Array.isArray(v)) return Buffer.from(v as number[]);
  throw new ProtobufDecodeError(`expected bytes, got ${describeValue(v)}`);
}

function field(msg: Json, name: string): unknown {
  return has(msg, name) ? msg[name] : undefined;
}

/** The JSON value of one wire value: null for a zero Time, as upstream's JSON has it. */
function fromProtoValue(plan: ValuePlan, v: unknown): unknown {
  switch (plan.kind) {
    case 'scalar':
      switch (plan.type) {
        case 'string':
          if (typeof v !== 'string') throw new ProtobufDecodeError('expected a string');
          return v;
        case 'bool':
          if (typeof v !== 'boolean') throw new ProtobufDecodeError('expected a boolean');
          return v;
        case 'int32':
        case 'int64':
          return toNumber(v);
        case 'double':
          if (typeof v !== 'number' || !Number.isFinite(v)) throw new ProtobufDecodeError('expected a finite number');
          return v;
        case 'bytes':
          return toBuffer(v).toString('base64');
      }
      break;
    case 'time': {
      // Upstream writes a zero time as an empty message; its JSON is null (creationTimestamp: null).
      if (!isObject(v)) return undefined;
      const seconds = field(v, 'seconds');
      const nanos = field(v, 'nanos');
      if (seconds === undefined && nanos === undefined) return null;
      const ts = { seconds: seconds === undefined ? 0 : toNumber(seconds), nanos: nanos === undefined ? 0 : toNumber(nanos) };
      if (!Number.isInteger(ts.seconds) || ts.seconds < minSeconds || ts.seconds > maxSeconds) {
        throw new ProtobufDecodeError(`time out of range: ${ts.seconds} seconds`);
      }
      return plan.micro ? formatMicroTime(ts) : formatTime(ts);
    }
    case 'intOrString': {
      const msg = isObject(v) ? v : {};
      const type = field(msg, 'type');
      if (type !== undefined && toNumber(type) === 1) {
        const s = field(msg, 'strVal');
        return typeof s === 'string' ? s : '';
      }
      const i = field(msg, 'intVal');
      return i === undefined ? 0 : toNumber(i);
    }
    case 'quantity': {
      // An empty Quantity is upstream's zero value, "0".
      const s = isObject(v) ? field(v, 'string') : undefined;
      return typeof s === 'string' ? s : '0';
    }
    case 'raw': {
      const raw = isObject(v) ? field(v, 'raw') : undefined;
      if (raw === undefined) return undefined;
      const buf = toBuffer(raw);
      if (buf.length === 0) return undefined;
      try {
        return JSON.parse(buf.toString('utf8')) as unknown;
      } catch (e) {
        throw new ProtobufDecodeError(`raw JSON field is not valid JSON: ${(e as Error).message}`);
      }
    }
    case 'message':
      return fromProtoMessage(plan.plan, isObject(v) ? v : {});
    case 'list': {
      const items = isObject(v) ? field(v, 'items') : undefined;
      return Array.isArray(items) ? items.map((item) => fromProtoValue(plan.item, item)) : [];
    }
  }
  throw new ProtobufDecodeError('unexpected value');
}

/** The JSON object of a decoded protobufjs message: every property present on the wire, embedded ones flattened. */
export function fromProtoMessage(plan: MessagePlan, msg: Json): Json {
  const out: Json = {};
  for (const f of plan.fields) {
    if (!has(msg, f.proto)) continue;
    const v = msg[f.proto];
    if (f.shape === 'list') {
      if (!Array.isArray(v) || v.length === 0) continue;
      const items: unknown[] = [];
      for (const item of v) {
        const j = fromProtoValue(f.value, item);
        if (j !== undefined) items.push(j);
      }
      if (items.length > 0) out[f.json] = items;
    } else if (f.shape === 'map') {
      if (!isObject(v)) continue;
      const keys = Object.keys(v);
      if (keys.length === 0) continue;
      const entries: Json = {};
      for (const key of keys) {
        const j = fromProtoValue(f.value, v[key]);
        if (j !== undefined) setOwn(entries, key, j);
      }
      out[f.json] = entries;
    } else {
      if (v === null || v === undefined) continue;
      const j = fromProtoValue(f.value, v);
      if (j !== undefined) out[f.json] = j;
    }
  }
  for (const e of plan.embedded) {
    const sub = field(msg, e.proto);
    if (!isObject(sub)) continue;
    const flat = fromProtoMessage(e.plan, sub);
    for (const key of Object.keys(flat)) setOwn(out, key, flat[key]);
  }
  return out;
}
