// Writes what a request produced in the form the client negotiated: JSON, YAML or protobuf, and
// as the object itself, a Table, or metadata only.
import type { Response } from 'express';
import { stringify as toYAML } from 'yaml';
import type { ListMeta, ObjectWithMeta, Status } from '../../api/meta/v1/types.js';
import { toTable, type IncludeObject } from '../registry/table.js';
import type { ResourceInfo } from '../runtime/scheme.js';
import type { ApiDomain } from '../../api/domain.js';
import type { Conversion, MediaFormat, OutputTarget } from './negotiation.js';
import { aggregatedContentType, type AggregatedDocument } from './aggregated-discovery.js';
import { requestAudit } from './request-audit.js';
import { encodedOnce } from './watch-encoding.js';

/** The protobuf side of the output (pkg/runtime/protobuf implements it). */
export interface ProtobufEncoder {
  encodeObject(info: ResourceInfo, obj: Record<string, unknown>): Buffer;
  encodeList(info: ResourceInfo, list: { metadata: ListMeta; items: Record<string, unknown>[] }): Buffer;
  encodeStatus(status: Status): Buffer;
  /** A length-prefixed watch frame. */
  encodeWatchFrame(info: ResourceInfo, type: string, obj: Record<string, unknown>): Buffer;
}

/** Encodes a watch stream's events; the bytes may be shared with other watchers and must not be changed. */
export interface WatchEncoder {
  contentType: string;
  encode(type: string, obj: Record<string, unknown>): Buffer;
}

export interface ListLike {
  kind: string;
  apiVersion: string;
  metadata: ListMeta;
  items: ObjectWithMeta[];
}

function partial(obj: ObjectWithMeta, apiVersion: string) {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata };
}

/** Serialises a document as JSON (indented with `pretty`) or YAML. */
export function serialize(doc: unknown, format: Exclude<MediaFormat, 'protobuf'>, pretty: boolean): { body: string; contentType: string } {
  if (format === 'yaml') return { body: toYAML(doc), contentType: 'application/yaml' };
  return { body: pretty ? JSON.stringify(doc, null, 2) + '\n' : JSON.stringify(doc), contentType: 'application/json' };
}

/** Lists longer than this are written a run of this many items at a time (sendListInChunks). */
const LIST_CHUNK_ITEMS = 250;

export class ResponseWriter {
  constructor(
    private readonly res: Response,
    readonly target: OutputTarget,
    private readonly pretty: boolean,
    private readonly protobuf: ProtobufEncoder,
    private readonly domain: ApiDomain,
    private readonly includeObject: IncludeObject = 'Metadata',
  ) {}

  /** apiVersion of converted answers: the conversion group the client asked in. */
  private get metaAPIVersion(): string {
    return `${this.target.group ?? this.domain.metaGroup}/v1`;
  }

  /** The protobuf type answers are labelled with: the one the client asked for. */
  private get protobufMediaType(): string {
    return this.target.mediaType ?? this.domain.protobufMediaType;
  }

  private table(info: ResourceInfo, objs: ObjectWithMeta[], listMeta: ListMeta, withColumnDefinitions = true, includeObject = this.includeObject) {
    return toTable(info, objs, { includeObject, listMeta, withColumnDefinitions, apiVersion: this.metaAPIVersion });
  }

  /**
   * Writes the whole answer, unless one was sent already: a request answered 504 at its deadline
   * may have work still running, whose answer no one is waiting for any more.
   */
  private send(code: number, body: string | Buffer, contentType: string): void {
    if (this.res.headersSent) return;
    this.head(code, contentType);
    this.res.end(body);
  }

  private head(code: number, contentType: string): void {
    this.res.status(code).setHeader('Content-Type', contentType);
    this.res.setHeader('Cache-Control', 'no-cache, private');
  }

  /** The answer as the audit event records it (responseStatus, and the document at RequestResponse). */
  private audited<T>(doc: T): T {
    // Work that outlived its request's 504 does not rewrite what the audit recorded as sent.
    if (!this.res.headersSent) requestAudit(this.res)?.logResponseObject(doc);
    return doc;
  }

  private sendDocument(code: number, doc: unknown): void {
    const { body, contentType } = serialize(doc, this.target.format === 'yaml' ? 'yaml' : 'json', this.pretty);
    this.send(code, body, contentType);
  }

  /** A document that has no conversions or protobuf form (discovery, /version). */
  document(code: number, doc: unknown): void {
    this.sendDocument(code, this.audited(doc));
  }

  /**
   * The aggregated discovery document in the version the client negotiated, or 304 Not Modified
   * when its If-None-Match names the document's ETag, as upstream answers.
   */
  aggregatedDiscovery(doc: AggregatedDocument, ifNoneMatch: string | undefined): void {
    const version = this.target.aggregatedDiscovery ?? 'v2';
    const { res } = this;
    if (res.headersSent) return;
    res.setHeader('ETag', doc.etag);
    res.setHeader('Vary', 'Accept');
    if (ifNoneMatch === doc.etag) {
      res.status(304).setHeader('Cache-Control', 'public');
      res.end();
      return;
    }
    const format = this.target.format === 'yaml' ? 'yaml' : 'json';
    const full = this.audited(doc.document(version));
    const body = format === 'json' && !this.pretty ? doc.json(version) : serialize(full, format, this.pretty).body;
    this.head(200, aggregatedContentType(format, version, this.domain));
    res.setHeader('Cache-Control', 'public');
    res.end(body);
  }

  /** One object of `info`'s kind. */
  object(code: number, info: ResourceInfo, obj: ObjectWithMeta): void {
    switch (this.target.as) {
      case 'Table':
        return this.sendDocument(code, this.audited(this.table(info, [obj], { resourceVersion: obj.metadata.resourceVersion ?? '' })));
      case 'PartialObjectMetadata':
        return this.sendDocument(code, this.audited(partial(obj, this.metaAPIVersion)));
    }
    this.audited(obj);
    if (this.target.format === 'protobuf') return this.send(code, this.protobuf.encodeObject(info, obj), this.protobufMediaType);
    this.sendDocument(code, obj);
  }

  /** A `<Kind>List`. */
  list(code: number, info: ResourceInfo, list: ListLike): void {
    switch (this.target.as) {
      case 'Table':
        return this.sendDocument(code, this.audited(this.table(info, list.items, list.metadata)));
      case 'PartialObjectMetadataList':
        return this.sendDocument(code, this.audited({ kind: 'PartialObjectMetadataList', apiVersion: this.metaAPIVersion, metadata: list.metadata, items: list.items.map((o) => partial(o, this.metaAPIVersion)) }));
    }
    this.audited(list);
    if (this.target.format === 'protobuf') return this.send(code, this.protobuf.encodeList(info, list), this.protobufMediaType);
    if (this.target.format === 'json' && !this.pretty && list.items.length > LIST_CHUNK_ITEMS) return this.sendListInChunks(code, list);
    this.sendDocument(code, list);
  }

  /**
   * A long JSON list goes out as it is encoded, a run of items at a time: the same bytes as one
   * JSON.stringify of the list, but without the whole document as one string and again as one
   * buffer, and the connection starts carrying the first items while the last are encoded. The next
   * run is encoded only once the connection has taken the last one: a client that reads slowly (or
   * not at all) holds one run in the server's memory, not its whole list, and one that goes away
   * stops the encoding.
   */
  private sendListInChunks(code: number, list: ListLike): void {
    const { res } = this;
    // The list with no items, cut where its items go: `..."items":[` and `]...`.
    const empty = JSON.stringify({ ...list, items: [] });
    const at = empty.lastIndexOf('"items":[]') + '"items":['.length;
    if (res.headersSent) return;
    this.head(code, 'application/json');
    res.write(empty.slice(0, at));
    const { items } = list;
    let from = 0;
    const writeRuns = (): void => {
      while (from < items.length) {
        if (res.destroyed) return;
        const to = Math.min(items.length, from + LIST_CHUNK_ITEMS);
        let chunk = from === 0 ? '' : ',';
        for (let i = from; i < to; i++) chunk += (i === from ? '' : ',') + JSON.stringify(items[i]);
        from = to;
        if (!res.write(chunk)) {
          res.once('drain', writeRuns);
          return;
        }
      }
      res.end(empty.slice(at));
    };
    writeRuns();
  }

  /** A Status (success or failure). */
  status(code: number, status: Status): void {
    this.audited(status);
    if (this.target.format === 'protobuf') return this.send(code, this.protobuf.encodeStatus(status), this.protobufMediaType);
    this.sendDocument(code, status);
  }

  /**
   * Encoding of a watch stream's events in the negotiated form. Events are encoded once per object
   * and form and the same bytes shared by every watcher (watch-encoding.ts); an ERROR's Status is
   * the watcher's own.
   */
  watchEncoder(info: ResourceInfo): WatchEncoder {
    const conversion: Conversion | undefined = this.target.as;
    if (this.target.format === 'protobuf') {
      const form = `pb\u0000${info.apiVersion}\u0000${info.kind}\u0000`;
      const encode = (type: string, obj: Record<string, unknown>) => this.protobuf.encodeWatchFrame(info, type, obj);
      return {
        contentType: `${this.protobufMediaType};stream=watch`,
        encode: (type, obj) => (type === 'ERROR' ? encode(type, obj) : encodedOnce(obj, form + type, () => encode(type, obj))),
      };
    }
    const line = (type: string, object: unknown) => Buffer.from(JSON.stringify({ type, object }) + '\n');
    if (!conversion) {
      return { contentType: 'application/json', encode: (type, obj) => (type === 'ERROR' ? line(type, obj) : encodedOnce(obj, `json\u0000${type}`, () => line(type, obj))) };
    }
    const metaAPIVersion = this.metaAPIVersion;
    if (conversion !== 'Table') {
      const form = `json\u0000${conversion}\u0000${metaAPIVersion}\u0000`;
      return {
        contentType: 'application/json',
        encode: (type, obj) => (type === 'ERROR' ? line(type, obj) : encodedOnce(obj, form + type, () => line(type, partial(obj as ObjectWithMeta, metaAPIVersion)))),
      };
    }
    // Tables: column definitions with the first event only, as upstream; a bookmark is an empty
    // Table, but the one ending a watch-list's initial events keeps its annotation, as upstream: one
    // row whose object is its metadata, whatever includeObject says.
    const form = `json\u0000Table\u0000${metaAPIVersion}\u0000${this.includeObject}\u0000${info.apiVersion}\u0000${info.kind}\u0000`;
    let first = true;
    return {
      contentType: 'application/json',
      encode: (type, obj) => {
        if (type === 'ERROR') return line(type, obj);
        const withColumns = first;
        first = false;
        const o = obj as ObjectWithMeta;
        const endMark = type === 'BOOKMARK' && o.metadata.annotations?.[info.domain.initialEventsEndAnnotation] === 'true';
        const rows = type === 'BOOKMARK' && !endMark ? [] : [o];
        return encodedOnce(obj, `${form}${withColumns ? 'columns' : 'rows'}\u0000${type}`,
          () => line(type, this.table(info, rows, { resourceVersion: o.metadata.resourceVersion ?? '' }, withColumns, endMark ? 'Metadata' : this.includeObject)));
      },
    };
  }
}
