// The client's side of content negotiation: what it asks for (JSON, or protobuf with JSON as the
// fallback, as client-go's protobuf clients ask), how it encodes request bodies, and how answers
// are decoded by their Content-Type. Protobuf goes through the server's own codec
// (pkg/runtime/protobuf), so both sides share one definition of the wire.
import { upstreamProtobufMediaType } from '../../api/domain.js';
import { decodeEnvelope, ProtobufCodec } from '../runtime/protobuf/index.js';
import type { ResourceInfo, Scheme } from '../runtime/scheme.js';

export type WireFormat = 'json' | 'protobuf';

export type Json = Record<string, unknown>;

export class ClientCodec {
  private readonly protobuf: ProtobufCodec;
  private readonly protobufTypes: string[];

  constructor(readonly scheme: Scheme, readonly format: WireFormat) {
    this.protobuf = new ProtobufCodec(scheme);
    this.protobufTypes = [scheme.domain.protobufMediaType, upstreamProtobufMediaType];
  }

  /** Protobuf needs the kind's schema: resources the scheme does not know are spoken in JSON. */
  private usesProtobuf(info: ResourceInfo | undefined): info is ResourceInfo {
    return this.format === 'protobuf' && info !== undefined;
  }

  accept(info: ResourceInfo | undefined): string {
    return this.usesProtobuf(info) ? `${this.scheme.domain.protobufMediaType}, application/json` : 'application/json';
  }

  watchAccept(info: ResourceInfo | undefined): string {
    return this.usesProtobuf(info)
      ? `${this.scheme.domain.protobufMediaType};stream=watch, application/json;stream=watch`
      : 'application/json;stream=watch, application/json';
  }

  /** A create or update body in the client's format. */
  encodeObject(info: ResourceInfo | undefined, obj: Json): { body: Buffer; contentType: string } {
    if (this.usesProtobuf(info)) return { body: this.protobuf.encodeObject(info, obj), contentType: this.scheme.domain.protobufMediaType };
    return { body: Buffer.from(JSON.stringify(obj)), contentType: 'application/json' };
  }

  isProtobuf(contentType: string | undefined): boolean {
    const base = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    return this.protobufTypes.includes(base);
  }

  /**
   * An answer body decoded by its Content-Type: an object of `info`'s kind, its list (`list`), or a
   * Status whatever was expected (errors, and deletes answered with a Status).
   */
  decode(contentType: string | undefined, body: Buffer, info: ResourceInfo | undefined, list = false): Json {
    if (this.isProtobuf(contentType)) {
      const kind = decodeEnvelope(body).kind;
      if (kind === 'Status') return this.protobuf.decodeStatus(body);
      if (!info) throw new Error(`a protobuf answer of kind ${kind} for a resource the scheme does not know`);
      return list ? this.protobuf.decodeList(info, body) : this.protobuf.decodeObject(info, body);
    }
    if (body.length === 0) return {};
    const doc: unknown = JSON.parse(body.toString('utf8'));
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('the server answered with a JSON value that is not an object');
    return doc as Json;
  }

  /** One protobuf watch frame's event. */
  decodeWatchFrame(info: ResourceInfo, frameBody: Buffer): { type: string; object: Json } {
    return this.protobuf.decodeWatchEvent(info, frameBody);
  }
}
