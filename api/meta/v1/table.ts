// The Table representation (Accept: application/json;as=Table;g=meta.orch.io;v=v1) and the
// PartialObjectMetadata a Table row carries by default. Upstream marks Table, its columns, rows and
// row conditions `+protobuf=false` (they have no field numbers in generated.proto, JSON only), so
// only PartialObjectMetadata is numbered here; the others say so with `x-orch-protobuf: false`.
import { Type, type Static } from '@sinclair/typebox';
import { field, object, opt } from '../../schema.js';
import { ListMeta, ObjectMeta } from './types.js';

const P = 'io.orch.apimachinery.pkg.apis.meta.v1';


const jsonOnly = { 'x-orch-protobuf': false } as const;

export const TableColumnDefinition = object(`${P}.TableColumnDefinition`, {
  /** Human-readable column name (Title Case; clients may upper-case it). */
  name: Type.String(),
  /** OpenAPI type of the cells: string, integer, number, boolean or date. */
  type: Type.String(),
  /** OpenAPI format modifier; `name` marks the column holding the object's name. */
  format: Type.String(),
  description: Type.String(),
  /** 0 is always shown; higher numbers are shown only when asked for (kubectl -o wide). */
  priority: Type.Integer({ format: 'int32' }),
}, { ...jsonOnly, required: ['name', 'type', 'format', 'description', 'priority'] });
export type TableColumnDefinition = Static<typeof TableColumnDefinition>;

export const TableRowCondition = object(`${P}.TableRowCondition`, {
  /** The only defined type is `Completed`. */
  type: Type.String(),
  status: Type.Union([Type.Literal('True'), Type.Literal('False'), Type.Literal('Unknown')]),
  reason: opt(Type.String()),
  message: opt(Type.String()),
}, { ...jsonOnly, required: ['type', 'status'] });
export type TableRowCondition = Static<typeof TableRowCondition>;

export const TableRow = object(`${P}.TableRow`, {
  /** One value per column definition, in the same order: strings, numbers, booleans or null. */
  cells: Type.Array(Type.Unknown()),
  conditions: opt(Type.Array(TableRowCondition)),
  /** The object as the request's includeObject asked for: absent, PartialObjectMetadata, or the object. */
  object: opt(Type.Unknown({ 'x-orch-preserve-unknown-fields': true })),
}, { ...jsonOnly, required: ['cells'] });
export type TableRow = Static<typeof TableRow>;

export const Table = object(`${P}.Table`, {
  kind: Type.Literal('Table'),
  apiVersion: Type.String({ description: 'meta.<domain>/v1, or meta.k8s.io/v1 when asked so' }),
  metadata: ListMeta,
  columnDefinitions: Type.Array(TableColumnDefinition),
  rows: Type.Array(TableRow),
}, { ...jsonOnly, required: ['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows'] });
export type Table = Static<typeof Table>;

export const PartialObjectMetadata = object(`${P}.PartialObjectMetadata`, {
  kind: Type.Literal('PartialObjectMetadata'),
  apiVersion: Type.String({ description: 'meta.<domain>/v1, or meta.k8s.io/v1 when asked so' }),
  metadata: opt(field(1, ObjectMeta)),
}, { required: ['kind', 'apiVersion'] });
export type PartialObjectMetadata = Static<typeof PartialObjectMetadata>;
