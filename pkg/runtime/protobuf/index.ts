// The protobuf codec (application/vnd.orch.protobuf) and its framing for watch streams.
export { ProtobufCodec, ProtobufDecodeError, frame } from './codec.js';
export { decodeEnvelope, encodeEnvelope, protobufPrefix, type Envelope, type TypeMeta } from './envelope.js';
export { splitFrames } from './frame.js';
export { decodeWatchEventBody, encodeWatchEventBody, type WatchEventBody } from './watch-event.js';
