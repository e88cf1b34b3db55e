// Table output (Accept: application/json;as=Table;g=meta.orch.io;v=v1): one row per object, with
// the cells of the kind's printer columns (or the default Name and Created At) and, per the
// request's includeObject, nothing, the object's metadata, or the whole object.
import { defaultPrinterColumns, type PrinterColumn } from '../../api/printer-column.js';
import {
  type PartialObjectMetadata,
  type Table,
  type TableColumnDefinition,
  type TableRow,
} from '../../api/meta/v1/table.js';
import type { ListMeta, ObjectMeta } from '../../api/meta/v1/types.js';
import type { ResourceInfo } from '../runtime/scheme.js';

/** What a row carries besides its cells (query parameter includeObject; upstream's default is Metadata). */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  includeObject: IncludeObject;
  /** resourceVersion, continue and remainingItemCount of the list (or the object's resourceVersion). */
  listMeta?: ListMeta;
  /** The moment ages are measured against; the current time when absent. */
  now?: Date;
  /** False leaves columnDefinitions empty (watch events after the first carry none). Default true. */
  withColumnDefinitions?: boolean;
  /** apiVersion of the Table and its rows' metadata: the group the client asked in; meta.<domain>/v1 by default. */
  apiVersion?: string;
}

function columnDefinition(c: PrinterColumn): TableColumnDefinition {
  return { name: c.name, type: c.type, format: c.format ?? '', description: c.description, priority: c.priority };
}

function rowObject(info: ResourceInfo, obj: Record<string, unknown>, include: IncludeObject, apiVersion: string): unknown {
  switch (include) {
    case 'None':
      return undefined;
    case 'Metadata': {
      const partial: PartialObjectMetadata = {
        kind: 'PartialObjectMetadata',
        apiVersion,
        metadata: (obj.metadata ?? {}) as ObjectMeta,
      };
      return partial;
    }
    case 'Object': {
      // The object as served at the requested group/version: apiVersion and kind first and always set.
      const full: Record<string, unknown> = { apiVersion: info.apiVersion, kind: info.kind };
      for (const [k, v] of Object.entries(obj)) if (k !== 'apiVersion' && k !== 'kind') full[k] = v;
      return full;
    }
  }
}

/**
 * A Table of the given objects (one row each; row.object per includeObject: None -> absent,
 * Metadata -> PartialObjectMetadata with the object's metadata, Object -> the full object) with the
 * kind's columns (or the defaults). `listMeta` (resourceVersion, continue, remainingItemCount)
 * becomes the Table's metadata.
 */
export function toTable(info: ResourceInfo, objects: Record<string, unknown>[], opts: TableOptions): Table {
  const columns = info.printerColumns ?? defaultPrinterColumns;
  const now = opts.now ?? new Date();
  const apiVersion = opts.apiVersion ?? `${info.domain.metaGroup}/v1`;
  const metadata: ListMeta = {};
  const lm = opts.listMeta;
  if (lm?.resourceVersion) metadata.resourceVersion = lm.resourceVersion;
  if (lm?.continue) metadata.continue = lm.continue;
  if (lm?.remainingItemCount !== undefined) metadata.remainingItemCount = lm.remainingItemCount;
  const rows = objects.map((obj): TableRow => {
    const row: TableRow = { cells: columns.map((c) => c.cell(obj, now)) };
    const object = rowObject(info, obj, opts.includeObject, apiVersion);
    if (object !== undefined) row.object = object;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion,
    metadata,
    columnDefinitions: opts.withColumnDefinitions === false ? [] : columns.map(columnDefinition),
    rows,
  };
}
