// One event of a protobuf watch stream. Upstream streams watch events with its "raw" protobuf
// serializer: each frame is a bare meta/v1 WatchEvent message {type = 1, object = 2}, without the
// k8s prefix or Unknown envelope; the object is a RawExtension {raw = 1} whose bytes are the
// complete enveloped encoding of the object (prefix + Unknown).
import protobuf from 'protobufjs';
import { ProtobufDecodeError } from './errors.js';
import { checkWire, messageShapeOf, wireShapes } from './wire-check.js';

export interface WatchEventBody {
  type: string;
  /** The enveloped object (or Status for ERROR events). */
  object: Buffer;
}

const root = new protobuf.Root();
const rawExtensionType = new protobuf.Type('RawExtension').add(new protobuf.Field('raw', 1, 'bytes'));
const watchEventType = new protobuf.Type('WatchEvent')
  .add(new protobuf.Field('type', 1, 'string'))
  .add(new protobuf.Field('object', 2, 'RawExtension'));
root.add(rawExtensionType).add(watchEventType);
root.resolveAll();

const watchEventShape = messageShapeOf([
  [1, wireShapes.scalar('len')],
  [2, wireShapes.message([[1, wireShapes.scalar('len')]])],
]);

/** The bytes of WatchEvent{type, object: RawExtension{raw: object}} (both fields always written, as upstream). */
export function encodeWatchEventBody(type: string, object: Uint8Array): Buffer {
  const bytes = watchEventType.encode({ type, object: { raw: object } }).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Reads one frame body written by encodeWatchEventBody (or by upstream). */
export function decodeWatchEventBody(body: Uint8Array): WatchEventBody {
  try {
    checkWire(watchEventShape, body);
    const msg = watchEventType.decode(body) as unknown as { type?: unknown; object?: { raw?: unknown } | null };
    const raw = msg.object && msg.object.raw instanceof Uint8Array ? msg.object.raw : new Uint8Array(0);
    return {
      type: typeof msg.type === 'string' ? msg.type : '',
      object: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength),
    };
  } catch (e) {
    throw new ProtobufDecodeError(`malformed watch event: ${(e as Error).message}`);
  }
}
