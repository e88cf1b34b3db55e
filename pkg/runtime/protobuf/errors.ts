// The one error the protobuf codec raises for bytes it cannot accept; handlers answer it with 400.

/** Bytes that are not a protobuf object of the expected kind: wrong prefix, malformed or truncated data, or type meta of another kind. */
export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';
}
