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
  name: Type.String({ description: 'Human-readable column name, in Title Case; clients may upper-case it.' }),
  type: Type.String({ description: 'OpenAPI type of the cells: string, integer, number, boolean or date.' }),
  format: Type.String({ description: 'OpenAPI format modifier of the cells; name marks the column holding the object name.' }),
  description: Type.String({ description: 'Human-readable description of the column.' }),
  priority: Type.Integer({
    format: 'int32',
    description: 'Importance of the column: 0 is always shown, higher numbers only in wide output (kubectl -o wide).',
  }),
}, { ...jsonOnly, required: ['name', 'type', 'format', 'description', 'priority'], description: 'One column of a Table.' });
export type TableColumnDefinition = Static<typeof TableColumnDefinition>;

export const TableRowCondition = object(`${P}.TableRowCondition`, {
  type: Type.String({ description: 'Type of the condition; the only one defined is Completed.' }),
  status: Type.Union([Type.Literal('True'), Type.Literal('False'), Type.Literal('Unknown')], { description: 'True, False or Unknown.' }),
  reason: opt(Type.String({ description: 'Machine-readable reason for the condition.' })),
  message: opt(Type.String({ description: 'Human-readable details about the condition.' })),
}, { ...jsonOnly, required: ['type', 'status'], description: 'A condition of a Table row, such as a finished object.' });
export type TableRowCondition = Static<typeof TableRowCondition>;

export const TableRow = object(`${P}.TableRow`, {
  cells: Type.Array(Type.Unknown(), {
    'x-orch-list-type': 'atomic',
    description: 'One value per column definition, in the same order: strings, numbers, booleans or null.',
  }),
  conditions: opt(Type.Array(TableRowCondition, { 'x-orch-list-type': 'atomic', description: 'Conditions of the row, such as Completed for a finished object.' })),
  object: opt(Type.Unknown({
    'x-orch-preserve-unknown-fields': true,
    'x-orch-emit': 'always',
    description: 'The object of the row as includeObject asked for: absent, its metadata as PartialObjectMetadata, or the whole object.',
  })),
}, { ...jsonOnly, required: ['cells'], description: 'One row of a Table: the cells of one object.' });
export type TableRow = Static<typeof TableRow>;

export const Table = object(`${P}.Table`, {
  kind: Type.Literal('Table', { 'x-orch-emit': 'omitempty', description: 'Always Table.' }),
  apiVersion: Type.String({ 'x-orch-emit': 'omitempty', description: 'The meta API group and version of the Table: meta.<domain>/v1, or meta.k8s.io/v1 when asked in that group.' }),
  metadata: Type.Unsafe<Static<typeof ListMeta>>({ ...ListMeta, description: 'List metadata of the listed objects (resourceVersion, continue).' }),
  columnDefinitions: Type.Array(TableColumnDefinition, { 'x-orch-list-type': 'atomic', description: 'The columns of the table, in order; may be left out of later pages.' }),
  rows: Type.Array(TableRow, { 'x-orch-list-type': 'atomic', description: 'One row per object.' }),
}, { ...jsonOnly, required: ['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows'], description: 'A tabular view of objects, as kubectl get prints it.' });
export type Table = Static<typeof Table>;

export const PartialObjectMetadata = object(`${P}.PartialObjectMetadata`, {
  kind: Type.Literal('PartialObjectMetadata', { 'x-orch-emit': 'omitempty', description: 'Always PartialObjectMetadata.' }),
  apiVersion: Type.String({ 'x-orch-emit': 'omitempty', description: 'The meta API group and version: meta.<domain>/v1, or meta.k8s.io/v1 when asked in that group.' }),
  metadata: opt(field(1, ObjectMeta, { 'x-orch-emit': 'always', description: "The object's metadata." })),
}, { required: ['kind', 'apiVersion'], description: 'Only the metadata of an object, as served when a client asks for metadata alone.' });
export type PartialObjectMetadata = Static<typeof PartialObjectMetadata>;
