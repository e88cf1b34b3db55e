// Protobuf (application/vnd.<domain>.protobuf and upstream's vnd.kubernetes.protobuf): objects, lists, Status and watch events of every kind in the
// scheme, encoded as upstream Kubernetes encodes them, and protobuf bodies decoded back to the
// JSON shape the rest of the server handles.
import { ListMeta, Status, type ListMeta as ListMetaValue, type Status as StatusValue } from '../../../api/meta/v1/types.js';
import type { ResourceInfo, Scheme } from '../scheme.js';
import { fromProtoMessage, toProtoMessage } from './convert.js';
import { decodeEnvelope, encodeEnvelope, type TypeMeta } from './envelope.js';
import { ProtobufDecodeError } from './errors.js';
import { frame } from './frame.js';
import { MessageTypes, type MessagePlan } from './types.js';
import { decodeWatchEventBody, encodeWatchEventBody } from './watch-event.js';
import { checkWire, shapeOf } from './wire-check.js';

export { ProtobufDecodeError } from './errors.js';
export { frame } from './frame.js';

/** Status is an unversioned type upstream: always apiVersion v1, whatever the group. */
const statusTypeMeta: TypeMeta = { apiVersion: 'v1', kind: 'Status' };

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export interface DecodedWatchEvent {
  type: string;
  object: Record<string, unknown>;
}

export class ProtobufCodec {
  private readonly types = new MessageTypes();
  private readonly kindPlans = new Map<string, MessagePlan>();
  private readonly listPlans = new Map<string, MessagePlan>();
  private statusPlan: MessagePlan | undefined;
  private readonly messagePlans = new WeakMap<object, MessagePlan>();

  /** Message types are built lazily, once per kind, from the schemas the scheme holds. */
  constructor(private readonly scheme: Scheme) {}

  private schemaOf(info: ResourceInfo): ResourceInfo['schema'] {
    return this.scheme.resource(info.group, info.version, info.resource)?.schema ?? info.schema;
  }

  private kindPlan(info: ResourceInfo): MessagePlan {
    const key = `${info.apiVersion}/${info.kind}`;
    let plan = this.kindPlans.get(key);
    if (!plan) {
      plan = this.types.plan(this.schemaOf(info), info.kind);
      this.kindPlans.set(key, plan);
    }
    return plan;
  }

  private listPlan(info: ResourceInfo): MessagePlan {
    const key = `${info.apiVersion}/${info.listKind}`;
    let plan = this.listPlans.get(key);
    if (!plan) {
      const item = this.schemaOf(info);
      const itemName = typeof item['x-orch-type'] === 'string' ? item['x-orch-type'] : info.kind;
      // Every upstream <Kind>List: ListMeta metadata = 1, repeated <Kind> items = 2.
      plan = this.types.plan({
        type: 'object',
        'x-orch-type': `${itemName}List`,
        properties: {
          metadata: { ...ListMeta, 'x-proto': 1 },
          items: { type: 'array', items: item, 'x-proto': 2 },
        },
      }, info.listKind);
      this.listPlans.set(key, plan);
    }
    return plan;
  }

  private statusMessagePlan(): MessagePlan {
    this.statusPlan ??= this.types.plan(Status, 'Status');
    return this.statusPlan;
  }

  private encode(plan: MessagePlan, typeMeta: TypeMeta, json: Record<string, unknown>): Buffer {
    const raw = plan.type.encode(toProtoMessage(plan, json)).finish();
    return encodeEnvelope(typeMeta, raw);
  }

  /**
   * Opens the envelope, checks its type meta against `expected` (an empty apiVersion or kind takes
   * the expected one, as upstream's decoder defaults them) and decodes the message. Every failure
   * is a ProtobufDecodeError.
   */
  private decode(plan: MessagePlan, expected: TypeMeta, bytes: Uint8Array): Record<string, unknown> {
    try {
      const envelope = decodeEnvelope(bytes);
      const apiVersion = envelope.apiVersion || expected.apiVersion;
      const kind = envelope.kind || expected.kind;
      if (apiVersion !== expected.apiVersion) {
        throw new ProtobufDecodeError(`the API version in the data (${apiVersion}) does not match the expected API version (${expected.apiVersion})`);
      }
      if (kind !== expected.kind) {
        throw new ProtobufDecodeError(`the kind in the data (${kind}) does not match the expected kind (${expected.kind})`);
      }
      checkWire(shapeOf(plan), envelope.raw);
      const msg = plan.type.decode(envelope.raw) as unknown as Record<string, unknown>;
      return { apiVersion: expected.apiVersion, kind: expected.kind, ...fromProtoMessage(plan, msg) };
    } catch (e) {
      if (e instanceof ProtobufDecodeError) throw e;
      throw new ProtobufDecodeError(`malformed protobuf ${expected.kind}: ${errorMessage(e)}`);
    }
  }

  /** The envelope (prefix 6b 38 73 00 + Unknown{typeMeta{apiVersion,kind}, raw, contentEncoding '', contentType ''}) around an object of `info`'s kind. */
  encodeObject(info: ResourceInfo, obj: Record<string, unknown>): Buffer {
    return this.encode(this.kindPlan(info), { apiVersion: info.apiVersion, kind: info.kind }, obj);
  }

  /** A `<Kind>List` (metadata ListMeta = 1, items = 2) in the envelope. */
  encodeList(info: ResourceInfo, list: { metadata: ListMetaValue; items: Record<string, unknown>[] }): Buffer {
    return this.encode(this.listPlan(info), { apiVersion: info.apiVersion, kind: info.listKind }, {
      metadata: list.metadata,
      items: list.items,
    });
  }

  /** A meta/v1 Status in the envelope with typeMeta apiVersion 'v1', kind 'Status' (upstream's choice). */
  encodeStatus(status: StatusValue): Buffer {
    return this.encode(this.statusMessagePlan(), statusTypeMeta, status as Record<string, unknown>);
  }

  /**
   * One watch frame body, as upstream streams it: a bare meta/v1 WatchEvent {type = 1,
   * object = RawExtension{raw = the encodeObject bytes of the object} = 2}. Upstream's stream
   * serializer for protobuf is its raw serializer, so the event itself carries no prefix or
   * envelope; the object inside does. An object of kind Status (ERROR events) is encoded as
   * encodeStatus does. The caller adds the 4-byte big-endian length prefix (see `frame`).
   */
  encodeWatchEvent(info: ResourceInfo, type: string, obj: Record<string, unknown>): Buffer {
    const object = obj.kind === 'Status' && info.kind !== 'Status'
      ? this.encodeStatus(obj as StatusValue)
      : this.encodeObject(info, obj);
    return encodeWatchEventBody(type, object);
  }

  /** encodeWatchEvent with its 4-byte big-endian length prefix: one complete frame of the stream. */
  encodeWatchFrame(info: ResourceInfo, type: string, obj: Record<string, unknown>): Buffer {
    return frame(this.encodeWatchEvent(info, type, obj));
  }

  /**
   * Decodes a request body of `info`'s kind to the JSON shape our decoder expects (the caller
   * then prunes/validates it as for JSON), with apiVersion and kind set. Throws
   * ProtobufDecodeError for a wrong prefix, malformed bytes, or a typeMeta of another kind/version.
   */
  decodeObject(info: ResourceInfo, bytes: Buffer): Record<string, unknown> {
    return this.decode(this.kindPlan(info), { apiVersion: info.apiVersion, kind: info.kind }, bytes);
  }

  /**
   * A bare message of `schema`, named `kind`, in the JSON shape: the raw bytes of an envelope whose
   * type the caller judged itself (DeleteOptions, taken under any group). Throws ProtobufDecodeError
   * for malformed bytes.
   */
  decodeMessage(schema: object, kind: string, raw: Uint8Array): Record<string, unknown> {
    let plan = this.messagePlans.get(schema);
    if (!plan) {
      plan = this.types.plan(schema, kind);
      this.messagePlans.set(schema, plan);
    }
    try {
      checkWire(shapeOf(plan), raw);
      return fromProtoMessage(plan, plan.type.decode(raw) as unknown as Record<string, unknown>);
    } catch (e) {
      if (e instanceof ProtobufDecodeError) throw e;
      throw new ProtobufDecodeError(`malformed protobuf ${kind}: ${errorMessage(e)}`);
    }
  }

  /** Decodes a `<Kind>List` (as a client reads encodeList's output); items carry no apiVersion/kind, as upstream's. */
  decodeList(info: ResourceInfo, bytes: Buffer): Record<string, unknown> {
    return this.decode(this.listPlan(info), { apiVersion: info.apiVersion, kind: info.listKind }, bytes);
  }

  /** Decodes a Status (apiVersion v1). */
  decodeStatus(bytes: Buffer): Record<string, unknown> {
    return this.decode(this.statusMessagePlan(), statusTypeMeta, bytes);
  }

  /** Decodes one frame body of a watch stream: the event type and its object (a Status for ERROR events). */
  decodeWatchEvent(info: ResourceInfo, body: Buffer): DecodedWatchEvent {
    const event = decodeWatchEventBody(body);
    let kind = '';
    try {
      kind = decodeEnvelope(event.object).kind;
    } catch {
      // decodeObject below reports the malformed object.
    }
    const object = kind === 'Status' && info.kind !== 'Status' ? this.decodeStatus(event.object) : this.decodeObject(info, event.object);
    return { type: event.type, object };
  }
}
