// The envelope around every protobuf body (spec 2.7): the magic prefix, then a runtime.Unknown
// message naming the object's type and carrying its serialized bytes.
import protobuf from 'protobufjs';
import { ProtobufDecodeError } from './errors.js';
import { checkWire, messageShapeOf, wireShapes } from './wire-check.js';

/** "k8s" and encoding style 0 (the rest is an Unknown message), as upstream writes it. */
export const protobufPrefix: Buffer = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

export interface Envelope extends TypeMeta {
  raw: Buffer;
  contentEncoding: string;
  contentType: string;
}

// runtime/generated.proto: TypeMeta {apiVersion = 1, kind = 2};
// Unknown {typeMeta = 1, raw = 2, contentEncoding = 3, contentType = 4}.
const root = new protobuf.Root();
const typeMetaType = new protobuf.Type('TypeMeta')
  .add(new protobuf.Field('apiVersion', 1, 'string'))
  .add(new protobuf.Field('kind', 2, 'string'));
const unknownType = new protobuf.Type('Unknown')
  .add(new protobuf.Field('typeMeta', 1, 'TypeMeta'))
  .add(new protobuf.Field('raw', 2, 'bytes'))
  .add(new protobuf.Field('contentEncoding', 3, 'string'))
  .add(new protobuf.Field('contentType', 4, 'string'));
root.add(typeMetaType).add(unknownType);
root.resolveAll();

const unknownShape = messageShapeOf([
  [1, wireShapes.message([[1, wireShapes.scalar('len')], [2, wireShapes.scalar('len')]])],
  [2, wireShapes.scalar('len')],
  [3, wireShapes.scalar('len')],
  [4, wireShapes.scalar('len')],
]);

/**
 * Prefix + Unknown around `raw`. Like upstream, every field is written, the two content fields as
 * empty strings (raw bytes are protobuf, not encoded).
 */
export function encodeEnvelope(typeMeta: TypeMeta, raw: Uint8Array): Buffer {
  const body = unknownType.encode({
    typeMeta: { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind },
    raw,
    contentEncoding: '',
    contentType: '',
  }).finish();
  return Buffer.concat([protobufPrefix, body]);
}

function ownString(msg: Record<string, unknown> | undefined | null, field: string): string {
  if (!msg || !Object.prototype.hasOwnProperty.call(msg, field)) return '';
  const v = msg[field];
  return typeof v === 'string' ? v : '';
}

/** Reads prefix and Unknown, with upstream's messages for an empty body or a foreign prefix. */
export function decodeEnvelope(data: Uint8Array): Envelope {
  if (data.length === 0) throw new ProtobufDecodeError('empty data');
  if (data.length < protobufPrefix.length || !protobufPrefix.equals(data.subarray(0, protobufPrefix.length))) {
    throw new ProtobufDecodeError(
      `provided data does not appear to be a protobuf message, expected prefix [${[...protobufPrefix].join(' ')}]`,
    );
  }
  if (data.length === protobufPrefix.length) throw new ProtobufDecodeError('empty body');
  const body = data.subarray(protobufPrefix.length);
  let msg: Record<string, unknown>;
  try {
    checkWire(unknownShape, body);
    msg = unknownType.decode(body) as unknown as Record<string, unknown>;
  } catch (e) {
    throw new ProtobufDecodeError(`malformed protobuf envelope: ${(e as Error).message}`);
  }
  const typeMeta = Object.prototype.hasOwnProperty.call(msg, 'typeMeta')
    ? (msg.typeMeta as Record<string, unknown> | null)
    : null;
  const raw = Object.prototype.hasOwnProperty.call(msg, 'raw') && msg.raw instanceof Uint8Array
    ? Buffer.from(msg.raw.buffer, msg.raw.byteOffset, msg.raw.byteLength)
    : Buffer.alloc(0);
  return {
    apiVersion: ownString(typeMeta, 'apiVersion'),
    kind: ownString(typeMeta, 'kind'),
    raw,
    contentEncoding: ownString(msg, 'contentEncoding'),
    contentType: ownString(msg, 'contentType'),
  };
}
