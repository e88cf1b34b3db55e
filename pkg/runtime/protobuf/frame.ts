// Length-delimited framing of protobuf watch streams (upstream's LengthDelimitedFramer): every
// frame is a 4-byte big-endian length, then that many bytes.
import { ProtobufDecodeError } from './errors.js';

/** `body` preceded by its length as a 4-byte big-endian unsigned integer. */
export function frame(body: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(4 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.set(body, 4);
  return out;
}

/** Splits a stream of complete frames into their bodies; a partial frame at the end is an error. */
export function splitFrames(stream: Uint8Array): Buffer[] {
  const buf = Buffer.from(stream.buffer, stream.byteOffset, stream.byteLength);
  const frames: Buffer[] = [];
  let pos = 0;
  while (pos < buf.length) {
    if (buf.length - pos < 4) throw new ProtobufDecodeError('truncated frame header');
    const len = buf.readUInt32BE(pos);
    pos += 4;
    if (buf.length - pos < len) throw new ProtobufDecodeError('truncated frame body');
    frames.push(buf.subarray(pos, pos + len));
    pos += len;
  }
  return frames;
}
